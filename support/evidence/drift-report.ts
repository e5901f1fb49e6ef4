// Owns the schema drift report: merges the response shapes a run recorded (support/evidence/shapes.ts), compares them with
// the committed baselines in schemas/observed/, and writes reports/drift.md, which allurerc.mjs
// attaches to the report. Drift is information for a human, never a failure: this script exits 0
// whatever it finds.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { OBSERVED_DIR, REPORTS_DIR } from '../run/paths.js';
import { mergeShapes, operationFileStem, type ObservedLine, type Shape } from './shapes.js';

export interface DriftPaths {
  observedDir: string;
  baselineDir: string;
  reportFile: string;
}

export const defaultDriftPaths: DriftPaths = {
  observedDir: OBSERVED_DIR,
  baselineDir: 'schemas/observed',
  reportFile: `${REPORTS_DIR}/drift.md`,
};

export type ChangeKind = 'new field' | 'field not seen' | 'type changed' | 'now optional' | 'now always present';

export interface ShapeChange {
  path: string;
  kind: ChangeKind;
  before?: string;
  after?: string;
}

export interface OperationDrift {
  operation: string;
  status: 'unchanged' | 'drifted' | 'no baseline' | 'not exercised';
  changes: ShapeChange[];
}

interface BaselineFile {
  $comment: string;
  operation: string;
  shape: Shape;
}

export function readObserved(dir: string): Map<string, Shape> {
  const merged = new Map<string, Shape>();
  if (!existsSync(dir)) return merged;
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.jsonl')).sort()) {
    for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const { operation, shape } = JSON.parse(line) as ObservedLine;
      const known = merged.get(operation);
      merged.set(operation, known ? mergeShapes(known, shape) : shape);
    }
  }
  return merged;
}

export function readBaselines(dir: string): Map<string, Shape> {
  const baselines = new Map<string, Shape>();
  if (!existsSync(dir)) return baselines;
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.json')).sort()) {
    const { operation, shape } = JSON.parse(readFileSync(join(dir, file), 'utf8')) as BaselineFile;
    baselines.set(operation, shape);
  }
  return baselines;
}

const describe = (shape: Shape): string => shape.types.join(' | ');

/** What changed from `before` (baseline) to `after` (this run), path by path. */
export function diffShapes(before: Shape, after: Shape, path = '$'): ShapeChange[] {
  const changes: ShapeChange[] = [];
  if (describe(before) !== describe(after)) {
    changes.push({ path, kind: 'type changed', before: describe(before), after: describe(after) });
  }
  if (before.optional !== after.optional) {
    changes.push({ path, kind: after.optional ? 'now optional' : 'now always present' });
  }
  if (before.properties && after.properties) {
    const keys = [...new Set([...Object.keys(before.properties), ...Object.keys(after.properties)])].sort();
    for (const key of keys) {
      const was = before.properties[key];
      const is = after.properties[key];
      const child = `${path}.${key}`;
      if (was && is) changes.push(...diffShapes(was, is, child));
      else if (is) changes.push({ path: child, kind: 'new field', after: describe(is) });
      else if (was) changes.push({ path: child, kind: 'field not seen', before: describe(was) });
    }
  }
  if (before.items && after.items) changes.push(...diffShapes(before.items, after.items, `${path}[]`));
  return changes;
}

export function compareWithBaselines(observed: Map<string, Shape>, baselines: Map<string, Shape>): OperationDrift[] {
  const operations = [...new Set([...observed.keys(), ...baselines.keys()])].sort();
  return operations.map((operation): OperationDrift => {
    const seen = observed.get(operation);
    const baseline = baselines.get(operation);
    if (!seen) return { operation, status: 'not exercised', changes: [] };
    if (!baseline) return { operation, status: 'no baseline', changes: [] };
    const changes = diffShapes(baseline, seen);
    return { operation, status: changes.length ? 'drifted' : 'unchanged', changes };
  });
}

export function renderDriftMarkdown(drift: OperationDrift[]): string {
  const drifted = drift.filter((entry) => entry.status === 'drifted' || entry.status === 'no baseline');
  const lines = [
    '# Response shape drift',
    '',
    'Shapes of the response bodies seen in this run, compared with the baselines in `schemas/observed/`.',
    'Drift never fails the run. If a change is expected, run `npm run drift:accept` and commit `schemas/observed/`.',
    '',
    drift.length === 0
      ? '**No response shapes were recorded in this run.**'
      : drifted.length
        ? `**${drifted.length} operation(s) differ from their baseline.**`
        : '**No drift.**',
    '',
    '| operation | status | changes |',
    '|---|---|---|',
    ...drift.map((entry) => `| ${entry.operation} | ${entry.status} | ${entry.changes.length} |`),
  ];
  for (const entry of drift.filter((candidate) => candidate.changes.length > 0)) {
    lines.push('', `## ${entry.operation}`, '', '| path | change | baseline | this run |', '|---|---|---|---|');
    const cell = (text = ''): string => text.replace(/\|/g, '\\|');
    for (const change of entry.changes) {
      lines.push(`| \`${cell(change.path)}\` | ${change.kind} | ${cell(change.before)} | ${cell(change.after)} |`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** Writes the drift report; returns what it found. */
export function writeDriftReport(paths: DriftPaths = defaultDriftPaths): OperationDrift[] {
  const drift = compareWithBaselines(readObserved(paths.observedDir), readBaselines(paths.baselineDir));
  mkdirSync(dirname(paths.reportFile), { recursive: true });
  writeFileSync(paths.reportFile, renderDriftMarkdown(drift));
  return drift;
}

/**
 * Replaces the baseline of every operation this run exercised with what it saw. Operations the
 * run did not exercise keep their baseline: a partial run (one shard, `--tagsFilter`) must not
 * erase what it did not look at.
 */
export function acceptObserved(paths: DriftPaths = defaultDriftPaths): string[] {
  const observed = readObserved(paths.observedDir);
  mkdirSync(paths.baselineDir, { recursive: true });
  for (const [operation, shape] of observed) {
    const file: BaselineFile = {
      $comment: 'Response shape last accepted by `npm run drift:accept` (support/evidence/drift-report.ts). Shapes only, no values.',
      operation,
      shape,
    };
    writeFileSync(join(paths.baselineDir, `${operationFileStem(operation)}.json`), `${JSON.stringify(file, null, 2)}\n`);
  }
  return [...observed.keys()];
}
