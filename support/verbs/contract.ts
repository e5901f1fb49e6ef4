// Owns the spec-facing test API: `rule(id).test(title, body)` — a documented rule as a test, labelled
// from the catalogue, whose failures name that rule. The fixtures a body may ask for are declared
// once, in support/verbs/fixtures.ts.
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
 * A documented rule as a test API: `rule('transition.delete').test('…', async ({ persons }) => …)`.
 * Every test is labelled from the catalogue (epic = interface, feature = operation, story = rule)
 * and any failure inside it is reported as a break of that rule, unless it says nothing about the
 * contract (support/evidence/failures.ts).
 */
export function rule(id: string) {
  const entry = ruleById(id);
  const operation = operationById(entry.operations[0]!);
  const feature = entry.epic ? entry.id : operation.feature;
  return {
    test(title: string, body: (context: ContractContext) => Promise<void>): void {
      // vitest builds the fixtures a test function destructures, read from its source: naming each one
      // here builds them all for every test, which costs no request (they act only when called).
      const wrapped = async ({
        run,
        observers,
        config,
        api,
        secondApi,
        data,
        persons,
        secondPersons,
        consumers,
        screeningApi,
        screening,
        skipBecause,
        task,
        signal,
      }: ContractContext & TestContext): Promise<void> => {
        // Typed as the whole context, so a fixture declared later and not named above fails to compile.
        const fixtures: ContractContext = {
          run,
          observers,
          config,
          api,
          secondApi,
          data,
          persons,
          secondPersons,
          consumers,
          screeningApi,
          screening,
          skipBecause,
        };
        await labels({
          epic: entry.epic ?? operation.epic,
          feature,
          story: `${entry.id}: ${entry.quote}`,
          severity: entry.severity,
          links: [ruleSource(entry)],
        });
        try {
          const { timeout, result } = task;
          // Its requests stop when it ends, out of time as well (support/transport/work.ts).
          await asTest(title, () =>
            testWork(signal, () => spendTestTime(result?.startTime ?? Date.now(), timeout, () => body(fixtures))),
          );
        } catch (error) {
          throw attributeToRule(error, id);
        }
      };
      test(title, wrapped);
    },
  };
}
