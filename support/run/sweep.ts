// Owns the sweep: deleting every custom person that ledgers under reports/ledger/ record as created on a
// target and never as deleted (what an interrupted run left behind), never on the production host.
import type { ContractConfig, Credentials } from './config.js';
import { ApiClient } from '../transport/http.js';
import { systemClock } from '../transport/clock.js';
import { sharedPace } from '../transport/pace.js';
import { leftovers, pruneLedgers, recordInLedger } from '../data/ledger.js';
import { LEDGER_DIR } from './paths.js';
import { deleteSandboxPerson, GONE_STATUSES } from '../verbs/persons.js';
import { TokenProvider } from './tokens.js';

/** Deletes the leftovers on `config.baseUrl`'s origin with the given clients' credentials. */
export async function sweep(
  config: Pick<ContractConfig, 'baseUrl' | 'authUrl' | 'prodBaseUrl' | 'paths'>,
  clients: Credentials[],
  ledgerDir = LEDGER_DIR,
): Promise<{ deleted: number; failed: number }> {
  const { baseUrl, authUrl } = config;
  const target = new URL(baseUrl).origin;
  // Built for every configured client; each requests its token only at its first deletion.
  const apis = new Map(
    clients.map((credentials) => [
      credentials.clientId,
      new ApiClient({
        baseUrl,
        addressSetting: 'CONTRACT_BASE_URL',
        pace: sharedPace(target, credentials.clientId, systemClock),
        auth: { kind: 'bearer', tokens: new TokenProvider(authUrl, credentials) },
      }),
    ]),
  );
  const result = { deleted: 0, failed: 0 };
  for (const { personId, clientId, file } of leftovers(target, ledgerDir)) {
    const api = apis.get(clientId);
    const response = api && (await deleteSandboxPerson(api, config, personId));
    if (response && (response.ok || GONE_STATUSES.has(response.status))) {
      recordInLedger(file, { event: 'deleted', personId, target, clientId });
      result.deleted += 1;
      continue;
    }
    const why = response
      ? `DELETE of person ${personId} answered ${response.status}`
      : `person ${personId} belongs to client ${clientId}, whose credentials are not configured`;
    console.warn(`sweep: ${why}; left in ${file}`);
    result.failed += 1;
  }
  pruneLedgers(ledgerDir);
  return result;
}
