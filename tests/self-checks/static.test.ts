// Real processes: tsc, eslint and prettier, run as a developer runs them.
// Types, lint and formatting, as part of npm test: strict tsc, eslint and prettier over the whole project.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { expect, test } from 'vitest';
import { runNode } from '../../support/run/child-runs.js';

const require = createRequire(import.meta.url);
// Neither package's exports list its bin; package.json is exported and the bin sits beside it.
const binOf = (name: string, bin: string) => join(dirname(require.resolve(`${name}/package.json`)), 'bin', bin);
// TypeScript 7, the native compiler, checks the types (package.json `typescript-7`): a cold check costs a third of
// TypeScript 6's CPU. TypeScript 6 stays for typescript-eslint's parser, which TypeScript 7's API does not serve.
const tscBin = binOf('typescript-7', 'tsc');
const eslintBin = binOf('eslint', 'eslint.js');
const ESLINT_CACHE = 'node_modules/.cache/eslint/';

// Each keeps what it checked under node_modules/.cache and checks again only what changed: tsc (tsconfig.json's
// `incremental`), eslint (`--cache`; no rule of eslint.config.js reads another file) and prettier (`--cache`).
// The three at once: a clean checkout's first check takes seconds of CPU each, and comes last in npm test (vitest
// starts the largest self-check files first when it knows no durations).
test.concurrent('the project type-checks (tsc --noEmit, strict)', async () => {
  const { code, output } = await runNode([tscBin, '--noEmit']);
  expect(code, output).toBe(0);
});

test.concurrent('the project is lint clean (eslint .)', async () => {
  const { code, output } = await runNode([eslintBin, '--cache', '--cache-location', ESLINT_CACHE, '.']);
  expect(code, output).toBe(0);
});

test.concurrent('the project is formatted (prettier --check .)', async () => {
  const { code, output } = await runNode([require.resolve('prettier/bin/prettier.cjs'), '--check', '--cache', '.']);
  expect(code, `${output}\nnpm run format rewrites the files named above.`).toBe(0);
});
