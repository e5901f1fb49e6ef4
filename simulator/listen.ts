import type { Server } from 'node:net';
import { buildSimulator } from './build.js';
import type { ResolvedSimulatorOptions, SimulatorOptions } from './options.js';

export interface RunningSimulator {
  baseUrl: string;
  options: ResolvedSimulatorOptions;
  /** The node server, for tests that watch its connections (whence each came). */
  server: Server;
  close(): Promise<void>;
}

/** Builds the simulator and listens on loopback (port 0 by default: a free port). */
export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const { app, options: resolved } = buildSimulator(options);
  await app.listen({ host: '127.0.0.1', port: resolved.port });
  const address = app.server.address();
  if (address === null || typeof address === 'string')
    throw new Error(`the simulator is not listening on a TCP port (${String(address)})`);
  return {
    baseUrl: `${resolved.tls ? 'https' : 'http'}://127.0.0.1:${address.port}`,
    options: resolved,
    server: app.server,
    close: () => app.close(),
  };
}
