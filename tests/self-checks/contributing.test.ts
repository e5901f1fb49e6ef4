// A real-process check: CONTRIBUTING.md promises what commands print on a copy of the project, so only running them
// on one shows the guide still true. Its example rule (docs/contributing-example.patch) is applied to a scratch copy
// of the tracked files (node_modules linked), one step at a time, with exactly the files that step names; then the
// step's commands run there as the guide writes them, and their output must hold each line of the step's `text`
// block. The last step's commands are the whole run's (the mutant matrix, npm test), which npm test runs itself.
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const GUIDE = join(root, 'CONTRIBUTING.md');
const PATCH = join(root, 'docs/contributing-example.patch');
/** A file a step names that its own command writes, so the patch does not hold it. */
const WRITTEN = / \(written by the command\)/;

interface Step {
  number: number;
  title: string;
  files: string[];
  commands: string[];
  /** Lines the commands' output must hold: the step's `text` block. */
  prints: string[];
}

/** The numbered steps of "Adding a documented rule": their files, `sh` commands and `text` outputs. */
function stepsOf(guide: string): Step[] {
  const section = guide.split('\n## ').find((part) => part.startsWith('Adding a documented rule'))!;
  return section
    .split(/\n(?=\d+\. \*\*)/)
    .slice(1)
    .map((text) => {
      const blocks = (language: string) =>
        [...text.matchAll(new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\\n\\s*\`\`\``, 'g'))].flatMap((match) =>
          match[1]!.split('\n').map((line) => line.trim()),
        );
      const files = (text.match(/\n\s*Files: ([\s\S]*?)\n\s*\n/)?.[1] ?? '')
        .split(/,\s*/)
        .filter((entry) => !WRITTEN.test(entry))
        .flatMap((entry) => [...entry.matchAll(/`([^`]+)`/g)].map((match) => match[1]!));
      return {
        number: Number(text.match(/^\d+/)![0]),
        title: text.match(/\*\*(.+?)\*\*/)![1]!,
        files,
        commands: blocks('sh').filter(Boolean),
        prints: blocks('text').filter(Boolean),
      };
    });
}

/** The files of a patch, as `diff --git a/<file>` names them. */
const patchFiles = (patch: string) => [...patch.matchAll(/^diff --git a\/(\S+) /gm)].map((match) => match[1]!);

/** A step's file names the patch's files it covers: a name, or a folder's `*.json`. */
const covers = (name: string, file: string) =>
  name.endsWith('/*.json') ? dirname(file) === dirname(name) && file.endsWith('.json') : name === file;

/** A scratch copy of the tracked files, node_modules linked: a step's changes never touch the project. */
function scratchCopy(): string {
  const copy = mkdtempSync(join(tmpdir(), 'contributing-'));
  const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' }).split('\0');
  for (const file of tracked.filter(Boolean)) {
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    cpSync(join(root, file), join(copy, file));
  }
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'));
  return copy;
}

/** One command line as a shell runs it in the copy: its exit code and everything it printed, without colours. */
function shell(line: string, cwd: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', CONTRACT_REPORT_HISTORY: 'off' };
    const child = spawn('bash', ['-c', line], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

const guide = readFileSync(GUIDE, 'utf8');
const patch = readFileSync(PATCH, 'utf8');
const steps = stepsOf(guide);
const checked = steps.slice(0, -1);

test("the example patch changes exactly the files the guide's steps name", () => {
  const named = steps.flatMap((step) => step.files);
  const changed = patchFiles(patch);
  expect(
    changed.filter((file) => !named.some((name) => covers(name, file))),
    'files docs/contributing-example.patch changes that no step of CONTRIBUTING.md names',
  ).toEqual([]);
  expect(
    named.filter((name) => !changed.some((file) => covers(name, file))),
    'files a step of CONTRIBUTING.md names that docs/contributing-example.patch does not change',
  ).toEqual([]);
  expect(checked.every((step) => step.commands.length > 0 && step.prints.length > 0)).toBe(true);
});

test('each step of the guide, applied to a copy of the project, prints what the guide says', async (context) => {
  const copy = scratchCopy();
  context.onTestFinished(() => rmSync(copy, { recursive: true, force: true }));
  const changed = patchFiles(patch);
  for (const step of checked) {
    const include = changed.filter((file) => step.files.some((name) => covers(name, file)));
    if (include.length > 0)
      execFileSync('git', ['apply', ...include.map((file) => `--include=${file}`), PATCH], { cwd: copy });
    let output = '';
    let failed = false;
    for (const command of step.commands) {
      const run = await shell(command, copy);
      output += run.output;
      failed ||= run.code !== 0;
    }
    const name = `step ${step.number} (${step.title})`;
    const fails = step.prints.some((line) => /\b[1-9]\d* (failed|not passed)|not kept/.test(line));
    expect(failed, `${name}: ${fails ? 'a command must fail' : 'every command must pass'}\n${output}`).toBe(fails);
    for (const line of step.prints) expect(output, `${name} prints "${line}"`).toContain(line);
  }
});
