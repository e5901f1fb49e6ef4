// Allure 3 configuration of the contract report (`npm run report`, `npm run gate`).
// Paths are relative to the project root: every script runs the CLI from there.
// No `import { defineConfig } from 'allure'`: that module is the CLI and runs it on import.
import { readFileSync } from 'node:fs';
import process from 'node:process';
import { URL } from 'node:url';

// support/run/paths.ts reads the same variable: a run with a reports folder of its own.
const reports = process.env.CONTRACT_REPORTS_DIR || 'reports';

const resolutions = JSON.parse(readFileSync(new URL('./docs/resolutions.json', import.meta.url), 'utf8'));

// The failure taxonomy of docs/DESIGN.md. Allure 3 ignores the categories.json that allure-vitest
// writes, so the categories live here; support/evidence/run-results.ts classifies the console summary with the
// same list, so the report and the console always agree. A verdict carries its category as data
// (support/evidence/failures.ts `categoryOf`), written as the result's `category` label
// (support/evidence/report.ts `labelVerdict`); the categories match that label, never a message's words.
// The first match wins: a rule broken by a wait's timeout keeps the name of the failure that broke it
// (BrokenRuleError, "NotConsistentError: ..." at the start of the trace), so it is filed as a timeout first.
const notPassed = ['failed', 'broken'];
/**
 * A failure raised outside a rule's test body (a fixture, a hook) carries no verdict label: it is filed by the class
 * of its error, the first word of its trace, and `message` where the class alone does not decide.
 */
const unlabelled = (trace, message) => (d) =>
  notPassed.includes(d.status) &&
  !d.labels.some((label) => label.name === 'category') &&
  trace.test(d.trace ?? '') &&
  (message === undefined || message.test(d.message ?? ''));
/** A category for the failures whose `category` label is `category`, and the unlabelled ones `fallbacks` match. */
const byVerdict = (id, name, category, ...fallbacks) => ({
  id,
  name,
  matchers: [{ statuses: notPassed, labels: { category: new RegExp(`^${category}$`) } }, ...fallbacks],
});
export const failureTaxonomy = [
  {
    id: 'not-consistent',
    name: 'Not consistent within the deadline',
    matchers: [
      { statuses: notPassed, labels: { category: /^Broken rule$/ }, trace: /^NotConsistentError\b/ },
      unlabelled(/^NotConsistentError\b/),
    ],
    groupBy: [{ label: 'story' }],
  },
  // A token service that cannot be reached, or answers only that it is unavailable, is the target
  // being down, not a wrong secret (support/run/tokens.ts: TokenError reasons 'unreachable' and 'unavailable').
  byVerdict(
    'target-unavailable',
    'Target unavailable',
    'Target unavailable',
    unlabelled(/^TargetUnavailableError\b/),
    unlabelled(/^TokenError\b/, /^Token service (unreachable|unavailable)/),
  ),
  // A request still answered 429 (or 503 with Retry-After) at its deadline: the target protecting
  // itself from the client's rate (support/transport/http.ts, support/transport/pace.ts), never a
  // broken promise, whichever request it was, the token request included; or a test whose own time
  // ran out while the target refused its requests (support/evidence/test-time.ts).
  byVerdict(
    'target-throttled',
    'Target throttled',
    'Target throttled',
    unlabelled(/^(TargetThrottledError|TestOutpacedError)\b/),
  ),
  // A test whose own work (its turn at the pace not counted), or the run, outlasted its time: no rule judged.
  byVerdict('out-of-time', 'Out of time', 'Out of time', unlabelled(/^(TestOutOfTimeError|RunOutOfTimeError)\b/)),
  // support/readings/list-reader.ts: a list whose paging the suite could not follow to its end
  // says nothing about the rule that wanted to look through it.
  byVerdict(
    'list-incomplete',
    'List could not be read completely',
    'List could not be read completely',
    unlabelled(/^ListIncompleteError\b/),
  ),
  // support/evidence/failures.ts: a 403, authenticated but not authorized (a market permission,
  // a screening scope): a setting or a permission to fix, never the rule under test.
  byVerdict('not-permitted', 'Not permitted', 'Not permitted', unlabelled(/^NotPermittedError\b/)),
  // An operation that answers 404 at its configured path while the rest of the API shows what it
  // was asked for exists: the path setting, not the rule.
  byVerdict(
    'operation-not-found',
    'Operation not found',
    'Operation not found',
    unlabelled(/^OperationNotFoundError\b/),
  ),
  // An answer laid out otherwise than the layout learned and reviewed: the reading, not the rule.
  byVerdict('layout-changed', 'Layout changed', 'Layout changed', unlabelled(/^LayoutChangedError\b/)),
  // A Given step, or another rule's promise the test depends on, failed before the rule under
  // test was reached: the test is broken (it could not check), and the rule whose own spec covers
  // that step is named in the message and reported by its own spec.
  byVerdict('precondition-not-met', 'Precondition not met', 'Precondition not met'),
  // The suite's own code crashed (a TypeError, ...) inside a test: no verdict on any rule.
  byVerdict('suite-error', 'Suite error (no verdict)', 'Suite error'),
  // A rejected secret; a connection a setting stands in the way of (TLS trust, host name, proxy credentials:
  // support/transport/network-failures.ts): the host answered. A token answer the documentation does not
  // allow (no access_token) is under a rule (support/run/global-setup.ts): the contract is broken.
  byVerdict(
    'configuration-error',
    'Configuration error',
    'Configuration error',
    unlabelled(/^(ConfigError|NetworkSetupError)\b/),
    unlabelled(/^TokenError\b/, /^(?!Broken rule )/),
  ),
  {
    // The rules of HTTP itself (docs/catalogue.json, source RFC 9110): weighed apart from the
    // documented contract, so the release gate can tell "the API breaks its promise" from "the API
    // answers bad input like a careless server". The story label starts with the rule's id.
    id: 'http-conformance',
    name: 'HTTP conformance broken',
    matchers: { statuses: notPassed, labels: { category: /^Broken rule$/, story: /^http\./ } },
    groupBy: [{ label: 'story' }],
  },
  {
    id: 'contract-broken',
    name: 'Contract broken',
    matchers: [{ statuses: notPassed, labels: { category: /^Broken rule$/ } }, unlabelled(/^/, /^Broken rule /)],
    groupBy: [{ label: 'story' }],
  },
];

/** @type {import('allure').AllureConfig} */
export default {
  name: 'Consumer intelligence contract suite',
  output: `${reports}/allure-report`,
  // Restored in CI from the previous nightly's artifact (see .github/workflows/nightly.yml).
  // The suite's own self-check runs (canary, target-down, leak check) set CONTRACT_REPORT_HISTORY=off:
  // their deliberately broken or synthetic runs must not enter the trend of real runs, nor read it.
  historyPath: process.env.CONTRACT_REPORT_HISTORY === 'off' ? undefined : `${reports}/history/history.jsonl`,
  historyLimit: 60,
  // Failures known before a release: Allure's resolution rules, from docs/resolutions.json (`rules`, and
  // `links` for issue trackers). A rule matches a failed or broken test by the `testCaseId` of its result
  // file (reports/allure-results) and by `messageRegexp` on its failure ("^Broken rule transition[.]delete "):
  // Allure 3.18's resolution matchers take no labels, so the message is the narrowest match they offer.
  // An `accepted` or `muted` rule leaves the failure out of the gate; an `issue` rule links it to its
  // tracker, and the gate still counts it. The failures each `issue` rule matched are listed in the report
  // folder (`knownIssuesPath`).
  resolutions: { ...resolutions, knownIssuesPath: `${reports}/allure-report/known-issues.json` },
  categories: failureTaxonomy,
  // No failure but the accepted ones. That as many tests ran as there are rules, support/evidence/release-gate.ts
  // counts itself: Allure's minTestsCount leaves out the tests whose failure a resolution accepts.
  qualityGate: { rules: [{ maxFailures: 0 }] },
  // The observed contract (support/evidence/observed/), written before the report is generated;
  // shown on the report's start page: the page answering every "not shown", and the trend chart.
  globalAttachments: [`${reports}/observed/observed-contract.md`, `${reports}/observed/time-to-consistency.svg`],
  plugins: {
    // The multi-file report needs a web server (it fetches its data); the single-file one opens from disk.
    awesome: {
      options: { reportName: 'Contract report', groupBy: ['epic', 'feature', 'story'] },
    },
    'single-file': {
      import: '@allurereport/plugin-awesome',
      options: { reportName: 'Contract report', groupBy: ['epic', 'feature', 'story'], singleFile: true },
    },
  },
};
