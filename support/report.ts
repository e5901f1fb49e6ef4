// Allure wrappers. Everything is redacted before it reaches Allure, because allure-results
// is written as plain files (even "masked" parameters are stored raw).
import * as allure from 'allure-js-commons';
import { observeExchanges, type HttpExchange } from './exchanges.js';
import { redact, redactText } from './redact.js';

/** Where allure-vitest writes results (vitest.config.ts) and where the report is generated from. */
export const ALLURE_RESULTS_DIR = 'reports/allure-results';

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

/** Runs `body` as a report step (a plain call when no report is being written). */
export async function step<T>(name: string, body: (handle: StepHandle) => Promise<T> | T): Promise<T> {
  if (!reporting()) return body(noStepHandle);
  return allure.step(redactText(name), (context) =>
    body({ rename: (next) => Promise.resolve(context.displayName(redactText(next))) }),
  );
}

// Capitalised, as the phases read in the report. A lower-case `then` export is impossible anyway:
// a module that exports `then` is a thenable namespace, so every dynamic import of it (vitest's
// module runner imports each module that way) calls it instead of resolving to the module.
export function Given<T>(name: string, body: (handle: StepHandle) => Promise<T> | T): Promise<T> {
  return step(`Given ${name}`, body);
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
