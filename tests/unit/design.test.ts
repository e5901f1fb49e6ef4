// docs/DESIGN.md is what a newcomer reads before changing the code: it describes the code as it is, in a size one reads
// through, and leaves history to git. So it keeps its headings, stays within 20 KB, holds no dated figures, names only
// files that exist and symbols that exist in the file named beside them, and has every heading the code cites.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, test } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const design = readFileSync(join(root, 'docs/DESIGN.md'), 'utf8');
const headings = [...design.matchAll(/^#{2,3} (.+)$/gm)].map((match) => match[1]!);

test('DESIGN.md keeps the headings a newcomer looks for', () => {
  const wanted: Record<string, RegExp> = {
    'the layers and their one concern each': /layers.*one concern/i,
    'how a request flows': /how a request flows/i,
    'how a verdict flows': /how a verdict flows/i,
    'the rule of evidence': /rule of evidence/i,
    'the layout format': /layout file.*format/i,
    'the categories': /categories/i,
    'the pace and the list scan': /pace and the list scan/i,
    'each mechanism, with the bar it keeps': /each .*mechanism.*bar/i,
  };
  const missing = Object.entries(wanted).filter(([, heading]) => !headings.some((each) => heading.test(each)));
  expect(missing.map(([what]) => what)).toEqual([]);
});

test('DESIGN.md is at most 20 KB, so that a newcomer reads it through', () => {
  expect(Buffer.byteLength(design, 'utf8')).toBeLessThanOrEqual(20 * 1024);
});

test('DESIGN.md holds no dated figures: history is in git, current figures in the bench', () => {
  const MONTH = '(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*';
  const dated = [
    new RegExp(`\\b\\d{1,2} ${MONTH}\\b`, 'g'), // 26 Nov, (4 Dec)
    new RegExp(`\\b${MONTH} \\d{4}\\b`, 'g'), // Dec 2026
    /\b(19|20)\d\d-\d\d-\d\d\b/g, // 2026-12-02
    /\bseeds? \d/gi, // seed 7, seeds 1 to 10
  ];
  expect(dated.flatMap((pattern) => design.match(pattern) ?? [])).toEqual([]);
});

test('DESIGN.md wraps its prose at 100 characters', () => {
  let fenced = false;
  const long = design.split('\n').flatMap((line, index) => {
    if (line.startsWith('```')) fenced = !fenced;
    return !fenced && !line.startsWith('|') && [...line].length > 100 ? [`line ${index + 1}`] : [];
  });
  expect(long).toEqual([]);
});

/** Backticked names in DESIGN.md that are paths in this repository: a folder (`specs/`) or a file (`allurerc.mjs`). */
const FILE = /^[\w-]+\.(ts|js|mjs|cjs|json|md)$/;
const PATH = /^[\w.-]+(\/[\w.-]+)*\/?$/;
const isPath = (name: string): boolean => FILE.test(name) || (name.includes('/') && PATH.test(name));
const isCode = (name: string): boolean => /\.(ts|js|mjs|cjs)$/.test(name);

test('every file and folder of the repository DESIGN.md names exists', () => {
  // The documentation beside the repository (`../shared/`) is not in a clone, CI's included.
  const named = [...design.matchAll(/`([^`\s]+)`/g)]
    .map((match) => match[1]!)
    .filter((name) => isPath(name) && !name.startsWith('../'));
  expect(named.length, 'paths named').toBeGreaterThan(30);
  expect([...new Set(named)].filter((path) => !existsSync(join(root, path)))).toEqual([]);
});

test('every symbol DESIGN.md names beside a code file is in that file', () => {
  const prose = design.replace(/\s*\n\s*/g, ' ');
  const symbol = '`([A-Za-z_$][\\w$]*(?:\\.[\\w$]+)?)`';
  const file = '`([^`\\s]+\\.(?:ts|js|mjs|cjs))`';
  const pairs: [string, string][] = [];
  // `RETRY_POLICY` in `support/transport/retry.ts`, and `LearnedFacts` (`support/layout/learned-readings.ts`)
  for (const [, name, path] of prose.matchAll(new RegExp(`${symbol},? (?:in |\\()${file}`, 'g')))
    pairs.push([name!, path!]);
  // A parenthesis naming one code file: every symbol in it is that file's (`sharedPace` in …, settings in `PACING`).
  // `support/readings/json.ts` (`containsValue`): the parenthesis right after a file holds that file's symbols.
  for (const [whole, before, inside] of prose.matchAll(/(`[^`\s]+` )?\(([^()]*)\)/g)) {
    const files = [...(before ?? '').matchAll(/`([^`\s]+)`/g), ...inside!.matchAll(/`([^`\s]+)`/g)]
      .map((match) => match[1]!)
      .filter(isCode);
    if (files.length !== 1 || !whole) continue;
    for (const [, name] of inside!.matchAll(new RegExp(symbol, 'g'))) pairs.push([name!, files[0]!]);
  }
  const named = [...new Map(pairs.map((pair) => [pair.join(' '), pair])).values()];
  expect(named.length, 'symbols named beside a file').toBeGreaterThan(10);
  const absent = named.filter(([name, path]) => {
    const source = existsSync(join(root, path)) ? readFileSync(join(root, path), 'utf8') : '';
    return !name.split('.').every((part) => new RegExp(`\\b${part.replace('$', '\\$')}\\b`).test(source));
  });
  expect(absent.map(([name, path]) => `${name} in ${path}`)).toEqual([]);
});

test('every section of DESIGN.md the code and the README cite is one of its headings', () => {
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
  })
    .split('\n')
    .filter((path) => /\.(ts|js|mjs|cjs)$/.test(path) || ['README.md', 'CONTRIBUTING.md'].includes(path));
  const cited = files.flatMap((path) => {
    // A citation may wrap onto the next comment line.
    const text = readFileSync(join(root, path), 'utf8').replace(/\n\s*(\/\/|\*)?\s*/g, ' ');
    return [...text.matchAll(/docs\/DESIGN\.md`?,? "([^"]+)"/g)].map((match) => ({ path, section: match[1]! }));
  });
  expect(cited.length, 'citations found').toBeGreaterThan(5);
  const unknown = cited.filter(({ section }) => !headings.some((heading) => heading.startsWith(section)));
  expect(unknown.map(({ path, section }) => `${path}: "${section}"`)).toEqual([]);
});
