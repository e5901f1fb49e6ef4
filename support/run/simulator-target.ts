// Owns pointing a contract run at a simulator this process started, as if it were a remote sandbox.
import type { RunningSimulator } from '../../simulator/listen.js';

/**
 * For runs that a simulator must outlive (to count its requests, list its tokens, sweep after a
 * kill): the suite's embedded simulator ends with its run. Empty values unset whatever a .env says.
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

/** What the simulator's control route says of the requests it has served. */
export interface SimulatorRequests {
  counts: Record<string, number>;
  tokensIssued: number;
  /** Requests the simulator's rate limit answered 429. */
  throttled: number;
  faultsInjected: number;
}

/** What the simulator (started with `control: true`) has served, as the bench counts it. */
export async function simulatorRequests(simulator: RunningSimulator): Promise<SimulatorRequests> {
  const response = await fetch(`${simulator.baseUrl}/__control/requests`);
  if (!response.ok) throw new Error(`GET /__control/requests answered ${response.status}`);
  return (await response.json()) as SimulatorRequests;
}
