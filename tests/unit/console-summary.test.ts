// The console summary of a run, from hand-written results classified by allurerc.mjs's categories: the promises not
// kept first, then only the categories that hold failures; and the lines on list pages when they were most of a run.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { brokenRuleMessage } from '../../support/evidence/failures.js';
import { formatSummary, listPagesNote } from '../../support/evidence/console-summary.js';
import type { ListCost } from '../../support/evidence/observed/model.js';
import { readRun } from '../../support/evidence/run-results.js';
import { brokenPromise, green, scratchProject, writeResults, type Spec } from './allure-results.js';

let project: string;
beforeAll(() => {
  project = scratchProject();
});
afterAll(() => rmSync(project, { recursive: true, force: true }));

describe('the console summary', () => {
  const summaryOf = async (name: string, specs: Spec[]) => {
    const dir = join(project, name);
    writeResults(dir, specs);
    return formatSummary((await readRun([dir], project)).summary);
  };
  const notShown: Spec = {
    name: 'marks the person deregistered, with the reason given',
    status: 'broken',
    story: 'transition.deregister: PUT sandbox person | deregistered is true',
    message: brokenRuleMessage(
      'transition.deregister',
      'Not shown within 30 s: person g1 (id p1) to be marked deregistered; $.deregistered = false (23 read(s) over ' +
        '30 s; looked at deregistered and isDeregistered (true), and the state fields (status, state, statuses, ' +
        'states, …) for "DEREGISTERED"); last answer 200 {"id":"p1","country":"SE","legalId":"198001011234"}',
    ),
    trace: 'NotConsistentError: Broken rule transition.deregister …\n    at specs/persons/deregister.spec.ts:33:7',
    verdict: {
      category: 'Broken rule',
      evidence:
        'Not shown within 30 s: person g1 (id p1) to be marked deregistered; $.deregistered = false (23 read(s) over ' +
        '30 s; looked at deregistered and isDeregistered (true), and the state fields (status, state, statuses, ' +
        'states, …) for "DEREGISTERED"); last answer 200 {"id":"p1","country":"SE","legalId":"198001011234"}',
    },
  };
  const unavailable: Spec = {
    name: 'answers at all',
    status: 'broken',
    message: 'h did not answer (refused)',
    trace: 'TargetUnavailableError: h did not answer',
  };

  test(
    'starts with the documented promises not kept, an effect not shown in time among them, and lists only ' +
      'categories that hold failures',
    async () => {
      const text = await summaryOf('summary-broken', [...green, brokenPromise, notShown, unavailable]);
      const lines = text.split('\n');
      expect(lines.slice(0, 2)).toEqual([
        'Contract run: 2 documented promise(s) not kept: transition.deregister, transition.delete',
        '  6 test(s) — 3 passed, 3 not passed, 0 skipped',
      ]);
      expect(lines.filter((line) => /^ {2}\S/.test(line)).map((line) => line.trim().replace(/\s+/g, ' '))).toEqual([
        '6 test(s) — 3 passed, 3 not passed, 0 skipped',
        'Not consistent within the deadline 1',
        'Target unavailable 1',
        'Contract broken 1',
      ]);
      const line = lines.find((each) => each.includes('[transition.deregister]'))!;
      expect(line).toMatch(
        /^ {6}✗ \[transition\.deregister\] marks the person .* — Broken: not shown within 30 s: person g1 /,
      );
      expect(line).toContain('to be marked deregistered; $.deregistered = false (23 read(s) over 30 s; looked at');
      expect(line).not.toContain('States and transitions');
      expect(line, 'cut at a word, with an ellipsis').toMatch(/[\w)"]…$/);
      expect(text).toContain('[transition.delete] deletes the person with that id — Broken: the person is still');
    },
  );

  test('says that no documented promise was found broken when the failures blame none', async () => {
    const text = await summaryOf('summary-unavailable', [...green, unavailable]);
    expect(text.split('\n')[0]).toBe('Contract run: no documented promise found broken');
    expect(text).not.toMatch(/Contract broken|Not consistent/);
  });

  test('is one line of counts for a run without failures', async () => {
    const text = await summaryOf('summary-green', green);
    expect(text).toBe('Contract run: 3 test(s) — 3 passed, 0 not passed, 0 skipped');
  });

  // A failure's line is cut at 240 characters, at a word.
  const x = 'x'.repeat(220);
  test.each([
    [
      'at the last word boundary, with an ellipsis',
      `${x} Person is marked deregistered at once`,
      `${x} Person is marked…`,
    ],
    ['not at all when it fits', 'Person is marked deregistered', 'Person is marked deregistered'],
    ['not at all when no word boundary comes before the end', 'x'.repeat(300), 'x'.repeat(300)],
  ])('cuts a line %s', (_name, message, expected) => {
    const counts = {
      total: 1,
      passed: 0,
      skipped: 0,
      shownAsSent: 0,
      notPassed: 1,
      brokenRules: { documented: [], http: [] },
    };
    const byCategory = [{ name: 'Product errors', tests: [{ name: 'a test', message }] }];
    expect(
      formatSummary({ ...counts, byCategory })
        .split('\n')
        .at(-1),
    ).toBe(`      ✗ a test — ${expected}`);
  });
});

describe('the console line on list pages', () => {
  // The vendor's night: ten records a page, 300 consumers from earlier nights behind every whole read.
  const consumers: ListCost = {
    operation: 'op6',
    purpose: 'list consumers',
    reads: 12,
    wholeReads: 8,
    pages: 260,
    longestWholeRead: 31,
    fullestPage: 10,
    requests: 270,
    pagesAtAdvisedSize: 28,
  };
  const subscribed: ListCost = { ...consumers, operation: 'op7', purpose: 'list subscribed persons', reads: 10 };

  test('says when list pages were most of the run, and what CONTRACT_PAGE_SIZE would save', () => {
    expect(listPagesNote({ lists: [consumers, subscribed], requests: 615 }, undefined)).toBe(
      [
        'List pages were most of this run: 540 of its 615 requests (88 %).',
        '  list consumers: 12 reads, 260 pages, 270 requests; the longest to the end 31 pages of up to 10 records',
        '  list subscribed persons: 10 reads, 260 pages, 270 requests; the longest to the end 31 pages of up to 10 ' +
          'records',
        '  CONTRACT_PAGE_SIZE=100 would read them in about 56 pages instead of 520: 464 requests fewer,',
        '  if the sandbox takes a page size (named by CONTRACT_PAGE_SIZE_PARAMETER, default pageSize).',
      ].join('\n'),
    );
  });

  test('says nothing when list pages were half of the run or less', () => {
    expect(listPagesNote({ lists: [consumers], requests: 540 }, undefined)).toBeUndefined();
    expect(listPagesNote({ lists: [], requests: 0 }, undefined)).toBeUndefined();
  });

  test.each([
    [
      'a page size the sandbox does not take',
      { size: 100, parameter: 'pageSize' },
      consumers,
      'CONTRACT_PAGE_SIZE=100 is set, but pages held up to 10 records: the sandbox does not take `pageSize`\n',
    ],
    [
      'a page size the sandbox takes',
      { size: 10, parameter: 'limit' },
      consumers,
      'Pages hold the 10 records CONTRACT_PAGE_SIZE asks for: a larger size, if the sandbox takes one, saves more.',
    ],
    [
      'pages larger than the advised size',
      undefined,
      { ...consumers, fullestPage: 500, pagesAtAdvisedSize: 1300 },
      'Pages already hold up to 500 records: CONTRACT_PAGE_SIZE=100 would save none.',
    ],
    [
      'reads of one page each',
      undefined,
      { ...consumers, reads: 260, longestWholeRead: 1 },
      'Every read was one page: the reads are many, not long, and no page size saves any.',
    ],
  ])('says what to do about %s', (_name, pageSize, list, advice) => {
    // The advice follows the head line and the list's own.
    const advised = listPagesNote({ lists: [list], requests: 300 }, pageSize)
      ?.split('\n')
      .slice(2)
      .join('\n');
    expect(advised).toContain(advice);
  });
});

describe('formatSummary of passes shown as sent', () => {
  test('counts them apart from the rules proven', () => {
    const summary = {
      ...{ total: 3, passed: 3, skipped: 0, shownAsSent: 2, notPassed: 0 },
      ...{ byCategory: [], brokenRules: { documented: [], http: [] } },
    };
    expect(formatSummary(summary)).toBe(
      'Contract run: 3 test(s) — 3 passed (2 of them shown as sent: this target shows back what it was sent, and ' +
        'cannot show that it acted), 0 not passed, 0 skipped',
    );
  });
});
