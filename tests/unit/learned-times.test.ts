import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { earlierTimes, keepTimes, learnedTimesFile, LEARNED_TIMES_VARIABLE } from '../../support/readings/learned-times.js';
import { LEARNED_TIMES_FILE } from '../../support/run/paths.js';

const TARGET = 'https://sandbox.example.com';
const times = { create: [{ after: 1_000, by: 1_400 }, { after: 0, by: 2_000 }], subscription: [{ after: 1_500, by: 1_500 }] };
const fileIn = () => join(mkdtempSync(join(tmpdir(), 'learned-times-')), 'history', 'learned-times.json');

describe('learned times', () => {
  it('keeps what a run learned for the next run against the same target, and for no other', () => {
    const file = fileIn();
    expect(earlierTimes(file, TARGET), 'no earlier run').toBeUndefined();
    keepTimes(file, TARGET, times);
    expect(earlierTimes(file, TARGET)).toMatchObject({ target: TARGET, times });
    expect(earlierTimes(file, 'http://127.0.0.1:4010'), 'another target\'s times say nothing of this one').toBeUndefined();
  });

  it('keeps nothing when nothing was learned', () => {
    const file = fileIn();
    keepTimes(file, TARGET, {});
    expect(earlierTimes(file, TARGET)).toBeUndefined();
  });

  it.each([
    ['not JSON', '{"target": '],
    ['times that are not intervals', JSON.stringify({ target: TARGET, at: '2026-11-24T00:00:00Z', times: { create: [{ after: 2_000, by: 1_000 }] } })],
    ['no times', JSON.stringify({ target: TARGET, at: '2026-11-24T00:00:00Z', times: {} })],
  ])('starts from nothing, saying why once, when the file is %s', (_name, text) => {
    const file = fileIn();
    keepTimes(file, TARGET, times);
    writeFileSync(file, text);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      expect(earlierTimes(file, TARGET)).toBeUndefined();
      expect(warn).toHaveBeenCalledOnce();
      expect(String(warn.mock.calls[0]![0])).toMatch(/is not what an earlier run keeps .*learn the target's times from nothing/);
    } finally {
      warn.mockRestore();
    }
  });

  it('is kept by a run that keeps its reports\' history, or where the variable says', () => {
    expect(learnedTimesFile({ CONTRACT_REPORTS: '1' })).toBe(LEARNED_TIMES_FILE);
    expect(learnedTimesFile({ CONTRACT_REPORTS: '1', CONTRACT_REPORT_HISTORY: 'off' }), 'a self-check\'s run').toBeUndefined();
    expect(learnedTimesFile({}), 'the project\'s own tests').toBeUndefined();
    expect(learnedTimesFile({ [LEARNED_TIMES_VARIABLE]: '/tmp/times.json' })).toBe('/tmp/times.json');
    expect(learnedTimesFile({ CONTRACT_REPORTS: '1', [LEARNED_TIMES_VARIABLE]: 'off' })).toBeUndefined();
  });

  it('writes no secret: the target and the times only', () => {
    const file = fileIn();
    keepTimes(file, TARGET, times);
    expect(Object.keys(JSON.parse(readFileSync(file, 'utf8')) as object)).toEqual(['target', 'at', 'times']);
  });
});
