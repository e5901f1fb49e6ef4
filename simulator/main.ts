import { startSimulator } from './listen.js';
import { simulatorOptionsFromEnv } from './options.js';

/** `npm run simulator`: the standalone server, configured by SIMULATOR_* variables. */
async function main(): Promise<void> {
  const simulator = await startSimulator(simulatorOptionsFromEnv(process.env));
  const { options } = simulator;
  console.log(
    `Sandbox simulator listening on ${simulator.baseUrl} (layout ` +
      `${options.layout}${options.mutant ? `, mutant ${options.mutant}` : ''})`,
  );
  console.log(`  token endpoint: ${simulator.baseUrl}/sandbox/v1/token.oauth2`);
  console.log(`  client credentials: ${options.clients.map(({ id, secret }) => `${id}:${secret}`).join(', ')}`);
  console.log(`  screening provider code: ${options.provider}`);
  if (options.control) console.log(`  control surface: ${simulator.baseUrl}/__control/`);
  console.log('Press Ctrl-C to stop.');
  const stop = (signal: string) => {
    console.log(`\n${signal}: stopping the simulator`);
    simulator.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
