import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MessageHolderTestRuntime, setGlobalTestRuntime } from 'allure-js-commons/sdk/runtime';
import { attachExchanges, attachJson, labels, step } from '../../support/evidence/report.js';
import { publishExchange } from '../../support/transport/exchanges.js';
import { registerSecret } from '../../support/transport/redact.js';
import { expectToContainEach } from '../patterns.js';

const RUNTIME_KEY = 'allureTestRuntime';

/** Everything report.ts sends to Allure, as the JSON the results writer would receive. */
function sent(runtime: MessageHolderTestRuntime): string {
  return JSON.stringify(runtime.messages());
}

describe('report wrappers', () => {
  let runtime: MessageHolderTestRuntime;

  beforeEach(() => {
    runtime = new MessageHolderTestRuntime();
    setGlobalTestRuntime(runtime);
  });

  afterEach(() => {
    delete (globalThis as Record<string, unknown>)[RUNTIME_KEY];
  });

  it(
    'keeps the steps of concurrent work apart: ' + 'each arrives whole, nested where it ran, even when one fails',
    async () => {
      // A goes on once B has ended, so both are in flight at once and the order they end in is no race of timers.
      await step('Given two waits at once', () => {
        const waitB = Promise.withResolvers<{ ended: Promise<unknown> }>();
        const a = step('Wait A', async () => {
          await (await waitB.promise).ended.catch(() => undefined);
          await attachJson('a', { n: 1 });
          await step('attempt A1', async () => undefined);
        });
        const b = step('Wait B', async () => {
          await attachJson('b', { n: 2 });
          throw new Error('B gave up');
        });
        waitB.resolve({ ended: b });
        return Promise.allSettled([a, b]);
      });

      const trail = runtime.messages().map((message) => {
        const data = message.data as { name?: string; status?: string };
        return `${message.type}:${data.name ?? data.status ?? ''}`;
      });
      expect(trail).toEqual([
        'step_start:Given two waits at once',
        'step_start:Wait B',
        'attachment_content:b',
        'step_stop:broken',
        'step_start:Wait A',
        'attachment_content:a',
        'step_start:attempt A1',
        'step_stop:passed',
        'step_stop:passed',
        'step_stop:passed',
      ]);
    },
  );

  it('redacts registered secrets and token fields before anything reaches Allure', async () => {
    registerSecret('canary-secret-0123456789');
    await step('login with canary-secret-0123456789', async () => undefined);
    await attachJson('exchange', {
      headers: { authorization: 'Bearer abcdefghijklmnopqrstuvwxyz' },
      body: { access_token: 'tok-98765432109876543210' },
    });

    const text = sent(runtime);
    expect(text).not.toContain('canary-secret-0123456789');
    expect(text).not.toContain('abcdefghijklmnopqrstuvwxyz');
    expect(text).not.toContain('tok-98765432109876543210');
    expect(text).toContain('[REDACTED]');
  });

  it('attaches every published exchange, named by purpose, method, path, status and attempt', () => {
    const stop = attachExchanges();
    publishExchange({
      method: 'PUT',
      url: 'http://sandbox.test/consumer-intelligence/sandbox/v1/persons',
      status: 200,
      durationMs: 3,
      pacedMs: 0,
      attempt: 1,
      requestHeaders: { authorization: 'Bearer [REDACTED]' },
      responseHeaders: {},
      responseBody: { gedi: 'g-1' },
      purpose: 'Create person',
    });
    stop();
    publishExchange({
      method: 'GET',
      url: 'http://sandbox.test/after',
      status: 200,
      durationMs: 1,
      pacedMs: 0,
      attempt: 1,
      requestHeaders: {},
      responseHeaders: {},
    });

    const attachments = runtime
      .messages()
      .filter((message) => message.type === 'attachment_content')
      .map((message) => (message.data as { name: string }).name);
    expect(attachments).toEqual(['Create person: PUT /consumer-intelligence/sandbox/v1/persons → 200 (attempt 1)']);
  });

  it('labels a test with epic, feature, story, severity and a link', async () => {
    await labels({
      epic: 'Authentication',
      feature: 'Token request',
      story: 'auth.token-issued',
      severity: 'blocker',
      links: [{ url: 'docs#authentication', name: 'doc' }],
    });

    expectToContainEach(sent(runtime), [
      '"epic"',
      'Authentication',
      'Token request',
      'auth.token-issued',
      'blocker',
      'docs#authentication',
    ]);
  });
});

describe('report wrappers without a test runtime', () => {
  it('run the step body and write nothing', async () => {
    expect((globalThis as Record<string, unknown>)[RUNTIME_KEY]).toBeUndefined();
    await expect(step('a plain call', async () => 'ran')).resolves.toBe('ran');
    await expect(attachJson('ignored', { a: 1 })).resolves.toBeUndefined();
  });
});
