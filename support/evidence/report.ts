// Owns what reaches the Allure report: steps, attachments, labels and the evidence of every HTTP
// exchange. Everything is redacted before it reaches Allure, because allure-results is written as
// plain files (even "masked" parameters are stored raw).
import { AsyncLocalStorage } from 'node:async_hooks';
import * as allure from 'allure-js-commons';
import { getMessageAndTraceFromError, getStatusFromError } from 'allure-js-commons/sdk';
import { observeExchanges, type HttpExchange } from '../transport/exchanges.js';
import { redact, redactText } from '../transport/redact.js';

import { failedInGiven } from './refusals.js';

export type Severity = 'blocker' | 'critical' | 'normal' | 'minor' | 'trivial';

export interface ReportLabels {
  epic?: string;
  feature?: string;
  story?: string;
  severity?: Severity;
  links?: { url: string; name?: string }[];
}

/** Handle passed to a step body; `rename` sets the final title once the outcome is known (e.g. the HTTP status). */
export interface StepHandle {
  rename(name: string): Promise<void>;
}

const noStepHandle: StepHandle = { rename: async () => {} };

// Without a test runtime (scripts, unit tests without the Allure reporter) allure-js-commons
// falls back to a no-op runtime that prints "no test runtime is found" on every call, after
// trying to import allure-playwright. Checking first keeps scripts quiet and fast. Adapters
// (allure-vitest's setup file) install their runtime under this global key, shared by every
// copy of allure-js-commons; the no-op runtime is not exported, so the key is the signal.
const RUNTIME_KEY = 'allureTestRuntime';

function reporting(): boolean {
  return typeof (globalThis as Record<string, unknown>)[RUNTIME_KEY] === 'function';
}

// Allure keeps one stack of open steps per test, so steps of concurrent async work (two waits in a
// Promise.all, a request still running when a sibling failed) nest into each other and stop each
// other, and a step that ends after its test closes a step of the next one ("no step is running").
// Here each async chain keeps its own open step: every message sent while it is open (its own
// steps, attachments, allure-vitest's expect steps) is held in it and handed, complete, to the
// enclosing step when it ends, or to Allure in one go at the top. Work that outlives its test
// delivers into a step that was already written and is dropped.
interface OpenStep {
  messages: unknown[];
}

interface MessageSink {
  deliver(message: unknown): void;
}

const openSteps = new AsyncLocalStorage<OpenStep>();
const sinks = new WeakMap<object, MessageSink>();

/** The runtime of the running test file, with its message intake routed through the open steps. */
function routedRuntime(): MessageSink {
  const runtime = (globalThis as unknown as Record<string, () => Record<string, unknown>>)[RUNTIME_KEY]!();
  const known = sinks.get(runtime);
  if (known) return known;
  // allure-vitest's runtime takes every message (async and sync API alike) through processMessage;
  // other runtimes (the unit tests' message holder) through sendMessage.
  const intake = typeof runtime.processMessage === 'function' ? 'processMessage' : 'sendMessage';
  const original = (runtime[intake] as (message: unknown) => unknown).bind(runtime);
  runtime[intake] = (message: unknown) => {
    const open = openSteps.getStore();
    if (!open) return original(message);
    open.messages.push(message);
    return intake === 'processMessage' ? true : Promise.resolve();
  };
  const sink = { deliver: (message: unknown) => void original(message) };
  sinks.set(runtime, sink);
  return sink;
}

/** Runs `body` as a report step (a plain call when no report is being written). */
export async function step<T>(name: string, body: (handle: StepHandle) => Promise<T> | T): Promise<T> {
  if (!reporting()) return body(noStepHandle);
  const sink = routedRuntime();
  const own: OpenStep = { messages: [{ type: 'step_start', data: { name: redactText(name), start: Date.now() } }] };
  const handle: StepHandle = {
    rename: async (next) => {
      own.messages.push({ type: 'step_metadata', data: { name: redactText(next) } });
    },
  };
  try {
    const result = await openSteps.run(own, () => body(handle));
    own.messages.push({ type: 'step_stop', data: { status: 'passed', stop: Date.now() } });
    return result;
  } catch (error) {
    const details = redact(getMessageAndTraceFromError(error as Error));
    own.messages.push({
      type: 'step_stop',
      data: { status: getStatusFromError(error as Error), stop: Date.now(), statusDetails: details },
    });
    throw error;
  } finally {
    const enclosing = openSteps.getStore();
    if (enclosing) enclosing.messages.push(...own.messages);
    else for (const message of own.messages) sink.deliver(message);
  }
}

// Capitalised, as the phases read in the report. A lower-case `then` export is impossible anyway:
// a module that exports `then` is a thenable namespace, so every dynamic import of it (vitest's
// module runner imports each module that way) calls it instead of resolving to the module.
/**
 * A failure inside a Given step did not test the rule: support/evidence/failures.ts reports it as a precondition not
 * met.
 */
export function Given<T>(name: string, body: (handle: StepHandle) => Promise<T> | T): Promise<T> {
  return step(`Given ${name}`, body).catch((error: unknown) => {
    failedInGiven(error, name);
    throw error;
  });
}

export function When<T>(name: string, body: (handle: StepHandle) => Promise<T> | T): Promise<T> {
  return step(`When ${name}`, body);
}

export function Then<T>(name: string, body: (handle: StepHandle) => Promise<T> | T): Promise<T> {
  return step(`Then ${name}`, body);
}

export async function attachJson(name: string, value: unknown): Promise<void> {
  if (!reporting()) return;
  await allure.attachment(redactText(name), JSON.stringify(redact(value), null, 2), {
    contentType: allure.ContentType.JSON,
  });
}

export async function attachText(name: string, text: string): Promise<void> {
  if (!reporting()) return;
  await allure.attachment(redactText(name), redactText(text), { contentType: allure.ContentType.TEXT });
}

/** How an exchange is named in the report: `Request token: POST /sandbox/v1/token.oauth2 → 200 (attempt 1)`. */
export function exchangeTitle(exchange: HttpExchange): string {
  const outcome = exchange.status ?? exchange.error?.split(':')[0] ?? 'no answer';
  const purpose = exchange.purpose ? `${exchange.purpose}: ` : '';
  return `${purpose}${exchange.method} ${new URL(exchange.url).pathname} → ${outcome} (attempt ${exchange.attempt})`;
}

/**
 * The report's observer of the HTTP client: every finished exchange becomes a redacted attachment
 * of the step that is running. An attachment is written in one synchronous message, so exchanges
 * of concurrent requests cannot leave a step half-open the way a step per request could.
 */
export function attachExchanges(): () => void {
  return observeExchanges((exchange) => {
    void attachJson(exchangeTitle(exchange), exchange);
  });
}

export async function labels(values: ReportLabels): Promise<void> {
  if (!reporting()) return;
  const named: [string, string | undefined][] = [
    [allure.LabelName.EPIC, values.epic],
    [allure.LabelName.FEATURE, values.feature],
    [allure.LabelName.STORY, values.story],
    [allure.LabelName.SEVERITY, values.severity],
  ];
  const present = named.filter((entry): entry is [string, string] => entry[1] !== undefined);
  if (present.length > 0) await allure.labels(...present.map(([name, value]) => ({ name, value })));
  if (values.links?.length) await allure.links(...values.links.map((link) => ({ url: link.url, name: link.name })));
}
