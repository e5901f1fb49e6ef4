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
