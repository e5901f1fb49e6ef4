import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createShapeRecorder, mergeShapes, operationKey, shapeOf } from '../../support/evidence/shapes.js';
import {
  acceptObserved,
  compareWithBaselines,
  diffShapes,
  readObserved,
  writeDriftReport,
  type DriftPaths,
} from '../../support/evidence/drift-report.js';

let root: string;
let paths: DriftPaths;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'drift-'));
  paths = { observedDir: join(root, 'observed'), baselineDir: join(root, 'baselines'), reportFile: join(root, 'drift.md') };
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('shapes', () => {
  test('records types, keys and the merged shape of array items, never values', () => {
    expect(shapeOf({ gedi: 'g-1', tags: [{ a: 1 }, { a: null, b: true }], empty: [] })).toEqual({
      types: ['object'],
      properties: {
        gedi: { types: ['string'] },
        tags: {
          types: ['array'],
          items: {
            types: ['object'],
            properties: { a: { types: ['null', 'number'] }, b: { types: ['boolean'], optional: true } },
          },
        },
        empty: { types: ['array'] },
      },
    });
  });

  test('a key missing from some objects becomes optional, but not because the value was once null', () => {
    const merged = mergeShapes(shapeOf({ a: { x: 1 } }), shapeOf({ a: null, b: 's' }));
    expect(merged.properties?.a).toEqual({ types: ['null', 'object'], properties: { x: { types: ['number'] } } });
    expect(merged.properties?.b?.optional).toBe(true);
  });

  test('the recorder appends one line per new shape, per worker, with no secret value in it', () => {
    const recorder = createShapeRecorder(paths.observedDir);
    recorder.record('op3', { gedi: 'secret-gedi-123', legalId: '198001011234' });
    recorder.record('op3', { gedi: 'other-gedi-456', legalId: '199001011234' });
    recorder.record('op6', [{ consumerId: 'c-1' }]);
    const files = readdirSync(paths.observedDir);
    expect(files).toEqual([expect.stringMatching(new RegExp(`^${process.pid}-\\d+\\.jsonl$`))]);
    const text = readFileSync(join(paths.observedDir, files[0]!), 'utf8');
    expect(text.trim().split('\n')).toHaveLength(2);
    expect(text).not.toMatch(/secret-gedi|other-gedi|1980|c-1/);
  });
});

describe('operation keys', () => {
  test('a request path is filed under its catalogue operation, never under the ids in it', () => {
    expect(operationKey('op3')).toBe('op3');
    expect(operationKey('GET /consumer-intelligence/v3/markets/SE/persons/034cb296-6523-424b-af21-542235e68535')).toBe('op3');
    expect(operationKey('POST /consumer-intelligence/v3/markets/SE/persons/_find')).toBe('op4');
    expect(operationKey('GET /consumer-intelligence/v3/consumers?page=2')).toBe('op6');
    expect(operationKey('PUT /consumer-intelligence/sandbox/v1/persons')).toBe('op1');
    expect(operationKey('GET /unknown/034cb296-6523-424b/items')).toBe('GET /unknown/{id}/items');
  });
});

describe('drift against the baselines', () => {
  test('names new fields, fields not seen and changed types by path', () => {
    const before = shapeOf({ gedi: 'g', status: 'x', list: [{ id: 1 }] });
    const after = shapeOf({ gedi: 'g', status: 3, list: [{ id: 1, extra: true }], added: {} });
    expect(diffShapes(before, after)).toEqual([
      { path: '$.added', kind: 'new field', after: 'object' },
      { path: '$.list[].extra', kind: 'new field', after: 'boolean' },
      { path: '$.status', kind: 'type changed', before: 'string', after: 'number' },
    ]);
    expect(diffShapes(before, shapeOf({ gedi: 'g', list: [] }))).toEqual([
      { path: '$.status', kind: 'field not seen', before: 'string' },
    ]);
  });

  test('operations without a baseline, and baselines this run did not exercise, are reported as such', () => {
    const drift = compareWithBaselines(new Map([['op3', shapeOf({})]]), new Map([['op7', shapeOf([])]]));
    expect(drift.map(({ operation, status }) => [operation, status])).toEqual([
      ['op3', 'no baseline'],
      ['op7', 'not exercised'],
    ]);
  });

  test('drift:accept makes this run the baseline, and the next report shows no drift', () => {
    const recorder = createShapeRecorder(paths.observedDir);
    recorder.record('op3', { gedi: 'g', firstNames: ['A'] });
    expect(writeDriftReport(paths)[0]?.status).toBe('no baseline');
    expect(readFileSync(paths.reportFile, 'utf8')).toContain('1 operation(s) differ');

    expect(acceptObserved(paths)).toEqual(['op3']);
    expect(readdirSync(paths.baselineDir)).toEqual(['op3.json']);
    expect(writeDriftReport(paths)[0]?.status).toBe('unchanged');
    expect(readFileSync(paths.reportFile, 'utf8')).toContain('**No drift.**');

    createShapeRecorder(paths.observedDir).record('op3', { gedi: 1, firstNames: [] });
    const [entry] = writeDriftReport(paths);
    expect(entry?.changes).toEqual([{ path: '$.gedi', kind: 'type changed', before: 'string', after: 'number | string' }]);
    // A pipe inside a cell would split the markdown table.
    expect(readFileSync(paths.reportFile, 'utf8')).toContain('| `$.gedi` | type changed | string | number \\| string |');
    expect(readObserved(paths.observedDir).size).toBe(1);
  });
});
