// Owns the spec-facing test API: `rule(id).test(title, body)`, a documented rule as a test, labelled from the
// catalogue, whose failures name that rule. Its fixtures are declared in support/verbs/fixtures.ts.
import type { TestAPI, TestContext } from 'vitest';
import { asTest, test } from './fixtures.js';
import { operationById, ruleById, ruleSource } from '../run/catalogue.js';
import { attributeToRule } from '../evidence/failures.js';
import { labels } from '../evidence/report.js';
import { spendTestTime } from '../evidence/test-time.js';
import { testWork } from '../transport/work.js';

/** Everything support/verbs/fixtures.ts declares, by name. */
export type ContractContext = typeof test extends TestAPI<infer Fixtures> ? Fixtures : never;

/**
 * A documented rule as a test API: `rule('transition.delete').test('…', async ({ persons }) => …)`. Every test is
 * labelled from the catalogue (epic = interface, feature = operation, story = rule), and any failure inside it is
 * reported as a break of that rule unless it says nothing about the contract (support/evidence/failures.ts).
 */
export function rule(id: string) {
  const entry = ruleById(id);
  const operation = operationById(entry.operations[0]!);
  const feature = entry.epic ? entry.id : operation.feature;
  return {
    test(title: string, body: (context: ContractContext) => Promise<void>): void {
      test(title, async ({ task, signal }) => {
        // Every fixture is automatic, so the test's context (vitest's `task.context`) holds them all.
        const context = task.context as TestContext & ContractContext;
        await labels({
          epic: entry.epic ?? operation.epic,
          feature,
          story: `${entry.id}: ${entry.quote}`,
          severity: entry.severity,
          links: [ruleSource(entry)],
        });
        try {
          // Its requests stop when it ends, out of time as well (support/transport/work.ts).
          const startedAt = task.result?.startTime ?? Date.now();
          await asTest(title, () =>
            testWork(signal, () => spendTestTime(startedAt, task.timeout, () => body(context))),
          );
        } catch (error) {
          throw attributeToRule(error, id);
        }
      });
    },
  };
}
