import { test } from './fixtures.js';
import { operationById, ruleById, catalogue } from './catalogue.js';
import { attributeToRule } from './rules.js';
import { attachText, labels } from './report.js';
import type { ContractRun } from './global-setup.js';
import type { ContractConfig } from './config.js';
import type { ApiClient } from './http.js';
import type { DataFactory } from './factories.js';
import type { PersonBook } from './persons.js';
import type { ConsumerDesk } from './consumers.js';
import type { ScreeningDesk } from './screening.js';

/** What a contract test may ask for by name; see support/fixtures.ts for who owns each. */
export interface ContractContext {
  run: ContractRun;
  config: ContractConfig;
  api: ApiClient;
  secondApi: ApiClient | undefined;
  data: DataFactory;
  persons: PersonBook;
  consumers: ConsumerDesk;
  screening: ScreeningDesk;
  /** Skips the test with a reason that shows in the console and in the report, not only in a count. */
  skipBecause: (reason: string) => Promise<never>;
}

function anchorOf(section: string): string {
  return section.toLowerCase().replace(/[^a-z0-9 -]/g, '').replace(/ /g, '-');
}

/**
 * A documented rule as a test API: `rule('transition.delete').test('…', async ({ persons }) => …)`.
 * Every test is labelled from the catalogue (epic = interface, feature = operation, story = rule)
 * and any failure inside it is reported as a break of that rule, unless a verb already named a
 * more precise one (a failed precondition names its own rule).
 */
export function rule(id: string) {
  const entry = ruleById(id);
  const operation = operationById(entry.operations[0]!);
  return {
    test(title: string, body: (context: ContractContext) => Promise<void>): void {
      test(title, async ({ run, config, api, secondApi, data, persons, consumers, screening, skip }) => {
        await labels({
          epic: operation.epic,
          feature: operation.feature,
          story: `${entry.id}: ${entry.quote}`,
          severity: entry.severity,
          links: [{ name: `API documentation, section "${entry.section}"`, url: `${catalogue.documentation}#${anchorOf(entry.section)}` }],
        });
        try {
          const skipBecause = async (reason: string): Promise<never> => {
            console.warn(`skipped: ${title}: ${reason}`);
            await attachText('Why this test was skipped', reason);
            return skip(reason);
          };
          await body({ run, config, api, secondApi, data, persons, consumers, screening, skipBecause });
        } catch (error) {
          throw attributeToRule(error, id);
        }
      });
    },
  };
}
