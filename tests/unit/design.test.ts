// docs/DESIGN.md is the map a newcomer reads first: every file under support/, simulator/ and
// scripts/ must have a row in its file table, and every row must name a file that exists.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { expect, test } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const design = readFileSync(join(root, 'docs/DESIGN.md'), 'utf8');
const rows = new Set([...design.matchAll(/^\| `([^`]+\.c?[jt]s)` \|/gm)].map((match) => match[1]!));

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.c?[jt]s$/.test(entry.name))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)));
}

test('every file under support/, simulator/ and scripts/ has a row in the DESIGN.md file table', () => {
  const files = ['support', 'simulator', 'scripts'].flatMap(sourceFiles);
  expect(files.filter((file) => !rows.has(file))).toEqual([]);
});

test('every row of the DESIGN.md file table names a file that exists', () => {
  expect([...rows].filter((file) => !existsSync(join(root, file)))).toEqual([]);
});
