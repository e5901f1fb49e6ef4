// A spec's phases: each a report step named after it, and a failure in one says which step it was, for the verdict of
// `rule(id).test`; and the fixtures a rule's test is given: what its body destructures.
import { afterEach, beforeEach, describe, expect, it, test as base, type TestContext } from 'vitest';
import { MessageHolderTestRuntime, setGlobalTestRuntime } from 'allure-js-commons/sdk/runtime';
import { askingAs, Given, Then, When } from '../../support/verbs/contract.js';
import { PreconditionError, StepFailure } from '../../support/evidence/failures.js';

const RUNTIME_KEY = 'allureTestRuntime';

describe('the phases of a spec', () => {
  let runtime: MessageHolderTestRuntime;

  beforeEach(() => {
    runtime = new MessageHolderTestRuntime();
    setGlobalTestRuntime(runtime);
  });

  afterEach(() => {
    delete (globalThis as Record<string, unknown>)[RUNTIME_KEY];
  });

  it('names the phases Given, When and Then, returns what the body returns, and applies a rename', async () => {
    const value = await Given('a person', async () => 42);
    await When('the client PUTs it', async () => undefined);
    await Then('it is found', async (handle) => handle.rename('Then it is found (after 2 attempts)'));

    expect(value).toBe(42);
    const names = runtime.messages().flatMap((message) => {
      const data = message.data as { name?: string };
      return message.type === 'step_start' || message.type === 'step_metadata' ? [data.name] : [];
    });
    expect(names).toEqual([
      'Given a person',
      'When the client PUTs it',
      'Then it is found',
      'Then it is found (after 2 attempts)',
    ]);
  });

  it(
    'names the step that failed: a When or Then by its phase and title, a Given as a precondition not met; the ' +
      'innermost step wins and the original failure stays the cause, unchanged',
    async () => {
      const assertion = new Error('the DELETE answered 500; any 2xx was expected');
      const inThen = await Then('the DELETE is accepted', () =>
        When('an inner step', () => Promise.reject(assertion)),
      ).catch((error: unknown) => error);
      expect(inThen).toBeInstanceOf(StepFailure);
      expect(inThen).toMatchObject({ phase: 'When', title: 'an inner step', cause: assertion });
      expect((inThen as Error).message).toBe('When "an inner step": the DELETE answered 500; any 2xx was expected');
      expect(assertion.message).toBe('the DELETE answered 500; any 2xx was expected');

      const inGiven = await Given('an available person', () => Promise.reject(assertion)).catch((error) => error);
      expect(inGiven).toBeInstanceOf(PreconditionError);
      expect(inGiven).toMatchObject({ step: 'Given an available person', cause: assertion });
      const stops = runtime.messages().filter((message) => message.type === 'step_stop');
      expect(
        stops.map((message) => (message.data as { statusDetails: { message: string } }).statusDetails.message),
        "each step's report shows what failed in it",
      ).toEqual([assertion.message, `When "an inner step": ${assertion.message}`, assertion.message]);
    },
  );
});

describe("a rule's test", () => {
  const built: string[] = [];
  const test = base
    .extend('asked', () => {
      built.push('asked');
      return 'asked';
    })
    .extend('unasked', () => {
      built.push('unasked');
      return 'unasked';
    });

  test(
    'is given the fixtures its body destructures, in the context it hands the body, and no other',
    askingAs(
      async ({ asked }: { asked: string }) => expect(asked).toBe('asked'),
      async (context: TestContext & { asked: string }) => {
        expect(built).toEqual(['asked']);
        expect(context.asked).toBe('asked');
        expect('unasked' in context, 'a fixture the body does not ask for').toBe(false);
      },
    ),
  );
});
