// Owns pointing a contract run at a simulator this process started, as if it were a remote sandbox.
import type { RunningSimulator } from '../../simulator/listen.js';

/**
 * The environment that points a contract run at `simulator` as if it were a remote sandbox: its
 * first two clients and its provider code come in through CONTRACT_* variables. The self-checks
 * use it when they must outlive the run (count its requests, list its tokens, sweep after a kill)
 * — the suite's own embedded simulator ends with the run. Empty values unset whatever a .env says.
 */
export function simulatorAsRemoteTarget(simulator: RunningSimulator): NodeJS.ProcessEnv {
  const [client, second] = simulator.options.clients;
  if (!client || !second) throw new Error('the simulator must accept two clients: the isolation spec needs the second');
  return {
    CONTRACT_BASE_URL: simulator.baseUrl,
    CONTRACT_AUTH_URL: '',
    CONTRACT_CLIENT_ID: client.id,
    CONTRACT_CLIENT_SECRET: client.secret,
    CONTRACT_SECOND_CLIENT_ID: second.id,
    CONTRACT_SECOND_CLIENT_SECRET: second.secret,
    CONTRACT_SCREENING_PROVIDER: simulator.options.provider,
    CONTRACT_PROD_BASE_URL: '',
  };
}

/** What the simulator's control route says of the requests it has served (counts per route). */
export interface SimulatorRequests {
  counts: Record<string, number>;
  tokensIssued: number;
  /** Requests the simulator's rate limit answered 429. */
  throttled: number;
  faultsInjected: number;
}

/** Calls a control route of `simulator` (started with `control: true`), as the bench reads its counts. */
export async function simulatorControl<T>(
  simulator: RunningSimulator,
  method: 'GET' | 'POST',
  route: string,
): Promise<T> {
  const response = await fetch(`${simulator.baseUrl}/__control/${route}`, { method });
  if (!response.ok) throw new Error(`${method} /__control/${route} answered ${response.status}`);
  return (await response.json()) as T;
}
