// Owns the sweep: deleting every custom person that ledgers under reports/ledger/ record as created
// on a target and never as deleted — what an interrupted run left behind. Only persons of the given
// clients on this target are touched, and never on the production host.
import type { ContractConfig, Credentials } from './config.js';
import { ApiClient, systemClock } from '../transport/http.js';
import { sharedPace } from '../transport/pace.js';
import { LEDGER_DIR, leftovers, pruneLedgers, recordInLedger } from '../data/ledger.js';
import { deleteSandboxPerson, GONE_STATUSES } from '../verbs/persons.js';
import { requestToken, TokenProvider } from './tokens.js';

export interface SweepResult {
  deleted: number;
  failed: number;
}

/** Deletes the leftovers of `target` (an API origin) with the given clients' credentials. */
export async function sweep(
  config: Pick<ContractConfig, 'baseUrl' | 'authUrl' | 'prodBaseUrl' | 'paths'>,
  clients: Credentials[],
  ledgerDir = LEDGER_DIR,
): Promise<SweepResult> {
  const { baseUrl, authUrl } = config;
  const target = new URL(baseUrl).origin;
  const found = leftovers(target, ledgerDir);
  const result: SweepResult = { deleted: 0, failed: 0 };
  const apis = new Map<string, ApiClient>();
  for (const leftover of found) {
    const credentials = clients.find((client) => client.clientId === leftover.clientId);
    if (!credentials) {
      console.warn(
        `sweep: person ${leftover.personId} belongs to client ${leftover.clientId}, whose credentials are not ` +
          `configured; left in ${leftover.file}`,
      );
      result.failed += 1;
      continue;
    }
    if (!apis.has(credentials.clientId)) {
      const { token } = await requestToken(authUrl, credentials);
      apis.set(
        credentials.clientId,
        new ApiClient({
          baseUrl,
          addressSetting: 'CONTRACT_BASE_URL',
          pace: sharedPace(target, credentials.clientId, systemClock),
          auth: { kind: 'bearer', tokens: new TokenProvider(authUrl, credentials, token) },
        }),
      );
    }
    const response = await deleteSandboxPerson(apis.get(credentials.clientId)!, config, leftover.personId);
    if (response.ok || GONE_STATUSES.has(response.status)) {
      recordInLedger(leftover.file, {
        event: 'deleted',
        personId: leftover.personId,
        target,
        clientId: leftover.clientId,
      });
      result.deleted += 1;
    } else {
      console.warn(
        `sweep: DELETE of person ${leftover.personId} answered ${response.status}; left in ${leftover.file}`,
      );
      result.failed += 1;
    }
  }
  pruneLedgers(ledgerDir);
  return result;
}
