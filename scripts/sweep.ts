/**
 * npm run sweep: deletes every custom person that ledgers under reports/ledger/ record as created
 * on the configured target and never as deleted — what an interrupted run left behind. Only
 * persons of the configured clients on this target are touched, and never on the production host.
 */
import type { Credentials } from '../support/config.js';
import { settingsFor } from './settings.js';
import { ApiClient } from '../support/http.js';
import { LEDGER_DIR, leftovers, pruneLedgers, recordInLedger } from '../support/ledger.js';
import { deleteSandboxPerson, GONE_STATUSES } from '../support/persons.js';
import { redactText } from '../support/redact.js';
import { resolveConfig } from '../support/target.js';
import { requestToken, TokenProvider } from '../support/tokens.js';

export interface SweepResult {
  deleted: number;
  failed: number;
}

/** Deletes the leftovers of `target` (an API origin) with the given clients' credentials. */
export async function sweep(baseUrl: string, authUrl: string, clients: Credentials[], prodBaseUrl: string | undefined, ledgerDir = LEDGER_DIR): Promise<SweepResult> {
  const target = new URL(baseUrl).origin;
  const found = leftovers(target, ledgerDir);
  const result: SweepResult = { deleted: 0, failed: 0 };
  const apis = new Map<string, ApiClient>();
  for (const leftover of found) {
    const credentials = clients.find((client) => client.clientId === leftover.clientId);
    if (!credentials) {
      console.warn(`sweep: person ${leftover.personId} belongs to client ${leftover.clientId}, whose credentials are not configured; left in ${leftover.file}`);
      result.failed += 1;
      continue;
    }
    if (!apis.has(credentials.clientId)) {
      const { token } = await requestToken(authUrl, credentials);
      apis.set(credentials.clientId, new ApiClient({ baseUrl, auth: { kind: 'bearer', tokens: new TokenProvider(authUrl, credentials, token) } }));
    }
    const response = await deleteSandboxPerson(apis.get(credentials.clientId)!, { baseUrl, prodBaseUrl }, leftover.personId);
    if (response.ok || GONE_STATUSES.has(response.status)) {
      recordInLedger(leftover.file, { event: 'deleted', personId: leftover.personId, target, clientId: leftover.clientId });
      result.deleted += 1;
    } else {
      console.warn(`sweep: DELETE of person ${leftover.personId} answered ${response.status}; left in ${leftover.file}`);
      result.failed += 1;
    }
  }
  pruneLedgers(ledgerDir);
  return result;
}

async function main(): Promise<number> {
  const settings = settingsFor('sweep');
  if (!settings) return 2;
  if (!settings.baseUrl) {
    // The embedded simulator keeps its persons in memory: they end with the run that started it.
    pruneLedgers();
    console.log('sweep: CONTRACT_BASE_URL is not set; the embedded simulator keeps nothing between runs, so there is nothing to sweep.');
    return 0;
  }
  const config = resolveConfig(settings, undefined, 'sweep', 0);
  const clients = [config.client, config.secondClient].filter((client): client is Credentials => client !== undefined);
  const { deleted, failed } = await sweep(config.baseUrl, config.authUrl, clients, config.prodBaseUrl);
  console.log(`sweep: ${deleted} person(s) deleted on ${new URL(config.baseUrl).origin}, ${failed} left`);
  return failed ? 1 : 0;
}

if (import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  process.exitCode = await main().catch((error: unknown) => {
    console.error(redactText(`sweep: ${error instanceof Error ? error.message : String(error)}`));
    return 1;
  });
}
