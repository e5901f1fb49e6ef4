// No line of code or comment over 120 characters: Prettier wraps code at 120 but
// leaves long comments, strings and regular expressions as they are, so this test names them.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, test } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const MAX_LINE = 120;
// Written by `npm run schemas:compile` (ajv's standalone code), never by hand; .prettierignore skips it too.
const GENERATED = new Set(['support/readings/validators.generated.ts']);

/** The code files git tracks, or would track once added (ignored ones left out). */
function codeFiles(): string[] {
  const listed = execFileSync(
    'git',
    ['ls-files', '--cached', '--others', '--exclude-standard', '--', '*.ts', '*.js', '*.mjs', '*.cjs'],
    { cwd: root, encoding: 'utf8' },
  );
  return listed.split('\n').filter((file) => file !== '' && !GENERATED.has(file));
}

test(`no line of a code file (*.ts, *.js, *.mjs, *.cjs) is over ${MAX_LINE} characters`, () => {
  const files = codeFiles();
  expect(files.length, 'code files found').toBeGreaterThan(100);
  const long = files.flatMap((file) =>
    readFileSync(join(root, file), 'utf8')
      .split('\n')
      .flatMap((line, index) => (line.length > MAX_LINE ? [`${file}:${index + 1} (${line.length} characters)`] : [])),
  );
  expect(long, `lines over ${MAX_LINE} characters`).toEqual([]);
});
