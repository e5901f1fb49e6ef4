// On a Node outside package.json's engines, a user's first npm script must stop with one line that says what to do,
// not die on an import with a stack trace. The check runs here as it runs for a user, under a pretended Node version.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const script = join(root, 'scripts/check-node.cjs');
const { scripts, engines } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
  engines: { node: string };
};
const recommended = readFileSync(join(root, '.nvmrc'), 'utf8').trim();

/** The check's exit code and what it printed, as if the running Node were `version`. */
function checkAs(version: string): { status: number | null; stdout: string; stderr: string } {
  const pretend = `Object.defineProperty(process.versions, 'node', { value: '${version}' });
    require(${JSON.stringify(script)})`;
  const { status, stdout, stderr } = spawnSync(process.execPath, ['-e', pretend], { encoding: 'utf8' });
  return { status, stdout, stderr };
}

describe('the Node version check every npm script runs first', () => {
  test.each(['22.19.0', '22.30.1', '24.0.0', '24.21.0', '26.0.0', '27.3.1'])(
    'lets Node %s through silently',
    (version) => {
      expect(checkAs(version)).toEqual({ status: 0, stdout: '', stderr: '' });
    },
  );

  test.each(['20.20.2', '18.20.8', '22.18.0', '23.11.0', '25.9.0'])(
    'stops Node %s with one line: the running Node, the range and how to get the one .nvmrc names',
    (version) => {
      const { status, stdout, stderr } = checkAs(version);
      expect(status).toBe(1);
      expect(stdout).toBe('');
      expect(stderr.trimEnd().split('\n')).toHaveLength(1);
      for (const part of [version, engines.node, `Node ${recommended} (.nvmrc)`, 'nvm install', `node@${recommended}`])
        expect(stderr).toContain(part);
    },
  );

  test('the Node running these tests passes it', () => {
    expect(spawnSync(process.execPath, [script]).status).toBe(0);
  });

  test('every npm script runs it before anything else', () => {
    const unguarded = Object.entries(scripts).filter(
      ([, command]) => !command.startsWith('node scripts/check-node.cjs && '),
    );
    expect(unguarded.map(([name]) => name)).toEqual([]);
  });
});
