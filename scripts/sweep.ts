// npm run sweep: deletes the persons interrupted runs left on the configured target (support/run/sweep.ts).
import { resolveConfig, settingsFor, type Credentials } from '../support/run/config.js';
import { pruneLedgers } from '../support/data/ledger.js';
import { redactText } from '../support/transport/redact.js';
import { sweep } from '../support/run/sweep.js';

async function main(): Promise<number> {
  const settings = settingsFor('sweep');
  if (!settings) return 2;
  if (!settings.baseUrl) {
    // The embedded simulator keeps its persons in memory: they end with the run that started it.
    pruneLedgers();
    console.log(
      'sweep: CONTRACT_BASE_URL is not set; the embedded simulator keeps nothing between runs, so there is ' +
        'nothing to sweep.',
    );
    return 0;
  }
  const config = resolveConfig(settings, undefined, 'sweep', 0);
  const clients = [config.client, config.secondClient].filter((client): client is Credentials => client !== undefined);
  const { deleted, failed } = await sweep(config, clients);
  console.log(`sweep: ${deleted} person(s) deleted on ${new URL(config.baseUrl).origin}, ${failed} left`);
  return failed ? 1 : 0;
}

process.exitCode = await main().catch((error: unknown) => {
  console.error(redactText(`sweep: ${error instanceof Error ? error.message : String(error)}`));
  return 1;
});
