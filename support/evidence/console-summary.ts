// Owns what the console says of a run after its report: the documented promises not kept and the categories that hold
// failures, one line a failure, and what list pages cost when they were most of the run's requests.
import type { readSettings } from '../run/config.js';
import { ADVISED_PAGE_SIZE, type ListCost, type ObservedContract } from './observed/model.js';
import { brokenDetail, type RunSummary, type TestOutcome } from './run-results.js';

/** The console's lines on list pages, in reports/observed/ when the run printed them, for the CI summary. */
export const LIST_PAGES_FILE = 'list-pages.txt';

/** `text`, cut at the last word boundary before `max` characters with an ellipsis; whole when it has none. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const boundary = text.lastIndexOf(' ', max - 1);
  return boundary <= 0 ? text : `${text.slice(0, boundary).replace(/[\s,;:(—-]+$/, '')}…`;
}

/** A failure on its summary line: under a rule, "Broken: " and what broke; the rule's words are in the report. */
function failureDetail(test: TestOutcome): string {
  const broken = brokenDetail(test);
  return broken === undefined
    ? (test.message ?? '')
    : `Broken: ${broken.replace(/^(?!(?:When|Then) ")[A-Z](?=[a-z])/, (first) => first.toLowerCase())}`;
}

/** The console summary: the promises found not kept, then only the categories that hold failures, one line each. */
export function formatSummary(summary: RunSummary): string {
  const { total, passed, notPassed, skipped, byCategory, brokenRules, shownAsSent } = summary;
  const asSent =
    shownAsSent === 0
      ? ''
      : ` (${shownAsSent} of them shown as sent: this target shows back what it was sent, and cannot show ` +
        'that it acted)';
  const counts = `${total} test(s) — ${passed} passed${asSent}, ${notPassed} not passed, ${skipped} skipped`;
  if (total === 0)
    return `Contract run: ${counts}\n  No test results: nothing ran (see the run output above for the reason).`;
  if (notPassed === 0) return `Contract run: ${counts}`;
  const { documented, http } = brokenRules;
  const promises =
    documented.length === 0
      ? 'no documented promise found broken'
      : `${documented.length} documented promise(s) not kept: ${documented.join(', ')}`;
  const httpRules = http.length === 0 ? '' : `; ${http.length} rule(s) of HTTP broken: ${http.join(', ')}`;
  const failing = byCategory.filter((entry) => entry.tests.length > 0);
  const width = Math.max(...failing.map((entry) => entry.name.length));
  const lines = [`Contract run: ${promises}${httpRules}`, `  ${counts}`];
  for (const { name, tests } of failing) {
    lines.push(`  ${name.padEnd(width)}  ${tests.length}`);
    for (const test of tests) {
      const rule = test.rule ? `[${test.rule}] ` : '';
      const detail = test.message ? ` — ${clip(failureDetail(test), 240)}` : '';
      lines.push(`      ✗ ${rule}${test.name}${detail}`);
    }
  }
  return lines.join('\n');
}

type PageSize = ReturnType<typeof readSettings>['pageSize'];

/** What a page size would change, judged by the pages the lists were read in: one or two console lines. */
function pageSizeAdvice(lists: ObservedContract['lists'], pageSize: PageSize): string {
  const total = (pick: (list: ListCost) => number) => lists.reduce((sum, list) => sum + pick(list), 0);
  const [pages, reads] = [total((list) => list.pages), total((list) => list.reads)];
  const fullest = Math.max(...lists.map((list) => list.fullestPage));
  if (pages <= reads) return 'Every read was one page: the reads are many, not long, and no page size saves any.';
  if (pageSize && fullest === pageSize.size)
    return (
      `Pages hold the ${pageSize.size} records CONTRACT_PAGE_SIZE asks for: a larger size, if the sandbox takes ` +
      'one, saves more.'
    );
  if (pageSize)
    return (
      `CONTRACT_PAGE_SIZE=${pageSize.size} is set, but pages held up to ${fullest} records: the sandbox does not ` +
      `take \`${pageSize.parameter}\`\n  (CONTRACT_PAGE_SIZE_PARAMETER names the parameter) or caps its pages.`
    );
  const atAdvised = total((list) => list.pagesAtAdvisedSize);
  if (atAdvised >= pages)
    return `Pages already hold up to ${fullest} records: CONTRACT_PAGE_SIZE=${ADVISED_PAGE_SIZE} would save none.`;
  return (
    `CONTRACT_PAGE_SIZE=${ADVISED_PAGE_SIZE} would read them in about ${atAdvised} pages instead of ${pages}: ` +
    `${pages - atAdvised} requests fewer,\n  if the sandbox takes a page size (named by ` +
    'CONTRACT_PAGE_SIZE_PARAMETER, default pageSize).'
  );
}

/**
 * When pages of lists were more than half of the run's requests: what each list's reads cost and what a page size
 * would save (CONTRACT_PAGE_SIZE); nothing otherwise.
 */
export function listPagesNote(contract: Pick<ObservedContract, 'lists' | 'requests'>, pageSize: PageSize) {
  const { lists, requests } = contract;
  const listRequests = lists.reduce((sum, list) => sum + list.requests, 0);
  if (listRequests * 2 <= requests) return undefined;
  const share = Math.round((100 * listRequests) / requests);
  return [
    `List pages were most of this run: ${listRequests} of its ${requests} requests (${share} %).`,
    ...lists.map(
      (list) =>
        `  ${list.purpose}: ${list.reads} reads, ${list.pages} pages, ${list.requests} requests; the longest to ` +
        `the end ${list.longestWholeRead} pages of up to ${list.fullestPage} records`,
    ),
    `  ${pageSizeAdvice(lists, pageSize)}`,
  ].join('\n');
}
