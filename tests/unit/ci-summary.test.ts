// The CI summary from a fixture of Allure results with failures in every category: it names each
// broken rule with its documented words and its spec, counts the categories that hold failures,
// carries the console's lines on list pages, and says where the report is.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ciSummary } from '../../support/evidence/ci-summary.js';

const root = resolve(import.meta.dirname, '../..');
const fixture = join(root, 'tests/fixtures/failed-run');

describe('the CI summary', () => {
  it('turns failed results into Markdown that names each broken rule, its quote and its spec', async () => {
    const summary = await ciSummary({
      resultsDirs: [fixture],
      reportLink: '[report](https://ci.example/run/1#artifacts)',
      timingsFile: join(fixture, 'none.json'),
    });
    expect(summary.passed).toBe(false);
    // An effect not shown by the deadline, under its rule, is a promise not kept like any other.
    expect(summary.brokenRules.sort()).toEqual([
      'http.malformed-json-rejected',
      'screening.person-test-case',
      'transition.consumer-identified',
      'transition.delete',
    ]);
    expect(summary.markdown).toMatch(/^## Contract suite: FAILED/);
    expect(summary.markdown).toContain(
      '| `transition.delete` | States and transitions: "DELETE sandbox person \\| body has only id \\| The ' +
        'custom person with that id is deleted" | `specs/persons/delete.spec.ts` |',
    );
    expect(summary.markdown).toContain('`specs/screening/person-test-case.spec.ts`');
    expect(summary.markdown).toContain('RFC 9110 15.5 Client Error 4xx');
    expect(summary.markdown).toContain('| Not consistent within the deadline | 1 |\n| Target unavailable | 1 |');
    expect(summary.markdown, 'no empty category').not.toMatch(/ \| 0 \|$/m);
    expect(summary.markdown).toContain('Time to consistency: not measured in this run.');
    expect(summary.markdown).toContain('Report: [report](https://ci.example/run/1#artifacts)');
  });

  it("carries the run's lines on list pages, and nothing when it printed none", async () => {
    const note = [
      'List pages were most of this run: 270 of its 300 requests (90 %).',
      '  list consumers: 12 reads, 260 pages, 270 requests; the longest to the end 31 pages of up to 10 records',
    ].join('\n');
    const dir = mkdtempSync(join(tmpdir(), 'list-pages-'));
    try {
      const listPagesFile = join(dir, 'list-pages.txt');
      writeFileSync(listPagesFile, `${note}\n`);
      const run = { resultsDirs: [fixture], timingsFile: join(dir, 'none.json'), listPagesFile };
      expect((await ciSummary(run)).markdown).toContain(`### List pages\n\n\`\`\`text\n${note}\n\`\`\`\n`);
      rmSync(listPagesFile);
      expect((await ciSummary(run)).markdown).not.toContain('List pages');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
