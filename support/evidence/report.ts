// Owns what reaches the Allure report: steps, attachments, labels and every HTTP exchange, all redacted first,
// because allure-results is written as plain files (even "masked" parameters are stored raw).
import { AsyncLocalStorage } from 'node:async_hooks';
import * as allure from 'allure-js-commons';
import { getMessageAndTraceFromError, getStatusFromError } from 'allure-js-commons/sdk';
import { observeExchanges } from '../transport/exchanges.js';
import { redact, redactText } from '../transport/redact.js';
import { verdictOf } from './failures.js';

/** `rename` sets the step's final title once the outcome is known (e.g. the HTTP status). */
export type StepBody<T> = (handle: { rename(name: string): Promise<void> }) => Promise<T> | T;

// Without a test runtime allure-js-commons prints "no test runtime is found" on every call; adapters install theirs
// under this global key (the no-op runtime is not exported), so scripts check it first and stay quiet.
const RUNTIME_KEY = 'allureTestRuntime';

const reporting = (): boolean => typeof (globalThis as Record<string, unknown>)[RUNTIME_KEY] === 'function';

// Allure keeps one stack of open steps per test, so concurrent steps would nest into and stop each other: each async
// chain holds the messages of its open step and hands them whole to the enclosing step, or to Allure at the top.
const openSteps = new AsyncLocalStorage<unknown[]>();
const sinks = new WeakMap<object, (message: unknown) => unknown>();

/** Delivers to the running test file's runtime, whose message intake is routed through the open steps. */
function routedRuntime(): (message: unknown) => unknown {
  const runtime = (globalThis as unknown as Record<string, () => Record<string, unknown>>)[RUNTIME_KEY]!();
  const known = sinks.get(runtime);
  if (known) return known;
  // allure-vitest's runtime takes every message through processMessage; others (the unit tests') through sendMessage.
  const intake = typeof runtime.processMessage === 'function' ? 'processMessage' : 'sendMessage';
  const original = (runtime[intake] as (message: unknown) => unknown).bind(runtime);
  runtime[intake] = (message: unknown) => {
    const open = openSteps.getStore();
    if (!open) return original(message);
    open.push(message);
    return intake === 'processMessage' ? true : Promise.resolve();
  };
  sinks.set(runtime, original);
  return original;
}

/** Runs `body` as a report step (a plain call when no report is being written). */
export async function step<T>(name: string, body: StepBody<T>): Promise<T> {
  if (!reporting()) return body({ rename: async () => {} });
  const deliver = routedRuntime();
  const own: unknown[] = [{ type: 'step_start', data: { name: redactText(name), start: Date.now() } }];
  const rename = async (next: string) => void own.push({ type: 'step_metadata', data: { name: redactText(next) } });
  let outcome: object = { status: 'passed' };
  try {
    return await openSteps.run(own, () => body({ rename }));
  } catch (error) {
    outcome = {
      status: getStatusFromError(error as Error),
      statusDetails: redact(getMessageAndTraceFromError(error as Error)),
    };
    throw error;
  } finally {
    own.push({ type: 'step_stop', data: { ...outcome, stop: Date.now() } });
    const enclosing = openSteps.getStore();
    if (enclosing) enclosing.push(...own);
    else for (const message of own) void deliver(message);
  }
}

/**
 * Runs `body` outside every test's report, keeping what it would have reported (its exchanges, as attachments) for
 * `replay` into the reports of the tests it served: work done for several tests at once (a list's scan).
 */
export async function recorded<T>(body: () => Promise<T>): Promise<{ value?: T; error?: unknown; report: unknown[] }> {
  const report: unknown[] = [];
  if (reporting()) routedRuntime();
  try {
    return { value: await openSteps.run(report, body), report };
  } catch (error) {
    return { error, report };
  }
}

/** Reports what `recorded` kept, in the running step, or the running test's report at the top. */
export function replay(report: readonly unknown[]): void {
  if (!reporting() || report.length === 0) return;
  const deliver = routedRuntime();
  const enclosing = openSteps.getStore();
  if (enclosing) enclosing.push(...report);
  else for (const message of report) void deliver(message);
}

async function attach(name: string, content: () => string, contentType: string): Promise<void> {
  if (reporting()) await allure.attachment(redactText(name), content(), { contentType });
}

export const attachJson = (name: string, value: unknown): Promise<void> =>
  attach(name, () => JSON.stringify(redact(value), null, 2), allure.ContentType.JSON);

export const attachText = (name: string, text: string): Promise<void> =>
  attach(name, () => redactText(text), allure.ContentType.TEXT);

/** Attaches each finished exchange to the running step in one synchronous message, so no step is left half-open. */
export function attachExchanges(): () => void {
  return observeExchanges((exchange) => {
    const outcome = exchange.status ?? exchange.error?.split(':')[0] ?? 'no answer';
    const purpose = exchange.purpose ? `${exchange.purpose}: ` : '';
    // Path and query, not the host: a list's pages differ only in their query.
    const { pathname, search } = new URL(exchange.url);
    void attachJson(
      `${purpose}${exchange.method} ${pathname}${search} → ${outcome} (attempt ${exchange.attempt})`,
      exchange,
    );
  });
}

interface ReportLabels {
  epic?: string;
  feature?: string;
  story?: string;
  severity?: 'blocker' | 'critical' | 'normal' | 'minor' | 'trivial';
  /** `as-sent`: the verdict held on the client's own value shown back (a layout file's `by: as-sent`). */
  evidence?: 'as-sent';
  /** The run whose id the test's persons and consumers carry: results of several runs read together tell apart. */
  run?: string;
  links: { url: string; name?: string }[];
}

export async function labels({ links, ...values }: ReportLabels): Promise<void> {
  if (!reporting()) return;
  const named = Object.entries(values).flatMap(([name, value]) => (value === undefined ? [] : [{ name, value }]));
  await allure.labels(...named);
  await allure.links(...links);
}

/**
 * A failure's verdict as labels (category, step, evidence), which allurerc.mjs files it by and the console summary
 * reads: the results keep a message only as text.
 */
export async function labelVerdict(failure: unknown): Promise<void> {
  const verdict = verdictOf(failure);
  if (!reporting() || verdict === undefined) return;
  const { category, step, evidence } = verdict;
  const values = Object.entries({ category, step, evidence });
  await allure.labels(...values.flatMap(([name, value]) => (value ? [{ name, value: redactText(value) }] : [])));
}
