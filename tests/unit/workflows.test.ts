// The CI workflows are only read by GitHub, so nothing else would notice a script renamed from
// under them or a YAML slip: every `npm run X` they use must exist, on the Node of .nvmrc after `npm ci`.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { expectToContainEach } from '../patterns.js';

const root = resolve(import.meta.dirname, '../..');
const workflowsDir = join(root, '.github', 'workflows');
const { scripts, engines } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
  engines: { node: string };
};
const nvmrc = readFileSync(join(root, '.nvmrc'), 'utf8').trim();

interface Step {
  run?: string;
  uses?: string;
  with?: Record<string, unknown>;
}
interface Workflow {
  on: Record<string, unknown>;
  jobs: Record<string, { container?: string; steps: Step[] }>;
}

const workflows = readdirSync(workflowsDir)
  .filter((name) => name.endsWith('.yml'))
  .map((name) => ({ name, workflow: parse(readFileSync(join(workflowsDir, name), 'utf8')) as Workflow }));

const steps = (workflow: Workflow): Step[] => Object.values(workflow.jobs).flatMap((job) => job.steps);
const runs = (workflow: Workflow): string =>
  steps(workflow)
    .map((step) => step.run ?? '')
    .join('\n');

describe('workflows', () => {
  test('the nightly and the release gate exist', () => {
    expect(workflows.map(({ name }) => name).sort()).toEqual(['nightly.yml', 'release-gate.yml']);
  });

  test.each(workflows)('$name references only npm scripts that exist', ({ workflow }) => {
    const used = [...runs(workflow).matchAll(/npm run (?:--silent )?([\w:-]+)/g)].map((match) => match[1]!);
    expect(used.length).toBeGreaterThan(0);
    expect(used.filter((name) => !(name in scripts))).toEqual([]);
  });

  test('.nvmrc names a major Node version that package.json supports', () => {
    expect(nvmrc).toMatch(/^\d+$/);
    expect(engines.node.split('||').map((range) => range.trim())).toContain(`^${nvmrc}.0.0`);
  });

  test.each(workflows)(
    '$name installs with npm ci on the Node of .nvmrc in every job that runs npm',
    ({ workflow }) => {
      for (const job of Object.values(workflow.jobs)) {
        const text = (job.steps ?? []).map((step) => step.run ?? '').join('\n');
        if (!text.includes('npm run')) continue;
        expect(text).toMatch(/npm ci\b/);
        const setupNode = job.steps.find((step) => step.uses?.startsWith('actions/setup-node@'));
        expect(setupNode?.with).toMatchObject({ 'node-version-file': '.nvmrc' });
        expect(setupNode?.with).not.toHaveProperty('node-version');
        if (job.container) expect(job.container).toMatch(new RegExp(`^node:${nvmrc}-`));
      }
    },
  );

  test('the nightly runs on a schedule, keeps its history, ledger and report, and sweeps before it runs', () => {
    const nightly = workflows.find(({ name }) => name === 'nightly.yml')!.workflow;
    expect(nightly.on.schedule).toBeInstanceOf(Array);
    const uses = steps(nightly).map((step) => step.uses ?? '');
    expect(uses).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^actions\/cache\/restore@/),
        expect.stringMatching(/^actions\/cache\/save@/),
      ]),
    );
    for (const action of ['actions/cache/restore@', 'actions/cache/save@']) {
      const paths = String(steps(nightly).find((step) => step.uses?.startsWith(action))?.with?.path).split('\n');
      expect(paths).toEqual(expect.arrayContaining(['reports/history', 'reports/ledger']));
    }
    const text = runs(nightly);
    expect(text).toContain('npm run contract');
    expect(text.indexOf('npm run sweep'), 'the sweep runs before the contract run').toBeLessThan(
      text.indexOf('npm run contract'),
    );
    expect(text.indexOf('npm run sweep')).toBeGreaterThanOrEqual(0);
  });

  test(
    'the release gate can be called from a client pipeline: typed inputs, the CONTRACT_* secrets, and the verdict ' +
      'as outputs',
    () => {
      const gate = workflows.find(({ name }) => name === 'release-gate.yml')!.workflow as unknown as {
        on: {
          workflow_call: {
            inputs: Record<string, { type: string }>;
            secrets: Record<string, unknown>;
            outputs: Record<string, unknown>;
          };
        };
      };
      const call = gate.on.workflow_call;
      expect(Object.keys(call.inputs)).toEqual(expect.arrayContaining(['target', 'market', 'shards', 'suite-ref']));
      expect(call.inputs.shards?.type).toBe('number');
      expect(Object.keys(call.secrets)).toEqual(
        expect.arrayContaining([
          'CONTRACT_BASE_URL',
          'CONTRACT_CLIENT_ID',
          'CONTRACT_CLIENT_SECRET',
          'CONTRACT_SCREENING_PROVIDER',
        ]),
      );
      expect(Object.keys(call.outputs)).toEqual(['verdict', 'broken-rules', 'report-artifact']);
    },
  );

  test('the nightly opens, updates or closes one contract-nightly issue, with issues: write only in that job', () => {
    const nightly = workflows.find(({ name }) => name === 'nightly.yml')!.workflow as unknown as {
      permissions: Record<string, string>;
      jobs: Record<string, { permissions?: Record<string, string>; steps: Step[] }>;
    };
    expect(nightly.permissions).toEqual({ contents: 'read' });
    const speaking = Object.values(nightly.jobs).filter((job) => job.permissions?.issues === 'write');
    expect(speaking).toHaveLength(1);
    const script = speaking[0]!.steps.map((step) => step.run ?? '').join('\n');
    expectToContainEach(script, [
      'gh issue list --label contract-nightly',
      'gh issue create',
      'gh issue comment',
      'gh issue close',
    ]);
  });

  test('the release gate shards the specs, merges the shards and runs the gate on the merge', () => {
    const gate = workflows.find(({ name }) => name === 'release-gate.yml')!.workflow;
    const text = runs(gate);
    expect(text).toContain('npm run contract -- "--shard=$SHARD/$SHARD_COUNT"');
    expect(text).toContain('npm run report -- shards/*/allure-results');
    expect(text).toContain('npm run gate -- shards/*/allure-results');
  });
});
