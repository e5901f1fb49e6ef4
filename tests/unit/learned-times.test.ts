import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { clientKey, earlierTimes, keepTimes, learnedTimesFile, LEARNED_TIMES_VARIABLE } from '../../support/readings/learned-times.js';
import { LEARNED_TIMES_FILE } from '../../support/run/paths.js';
import { registerSecret } from '../../support/transport/redact.js';

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
    ['pages that are not pages', JSON.stringify({ target: TARGET, at: '2026-11-24T00:00:00Z', times, newRecords: { client: { '/v3/consumers': { at: 3, end: true } } } })],
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

  it('keeps where each client\'s lists showed new records, under a digest of the client\'s id', () => {
    const file = fileIn();
    const newRecords = { [clientKey('contract-client')]: { '/v3/consumers': { at: { query: { pageToken: 'eyJhZnRlciI6MzB9' } }, end: true } } };
    keepTimes(file, TARGET, times, newRecords);
    expect(earlierTimes(file, TARGET)?.newRecords).toEqual(newRecords);
    expect(clientKey('contract-client')).not.toBe(clientKey('second-client'));
  });

  it('writes no secret: the target, the times and the pages only, and no client id', () => {
    const file = fileIn();
    keepTimes(file, TARGET, times, { [clientKey('contract-client')]: { '/v3/consumers': { at: { url: `${TARGET}/v3/consumers?page=3` }, end: true } } });
    const text = readFileSync(file, 'utf8');
    expect(Object.keys(JSON.parse(text) as object)).toEqual(['target', 'at', 'times', 'newRecords']);
    expect(text).not.toContain('contract-client');
  });

  it('keeps no page asked for with a secret in it', () => {
    const file = fileIn();
    registerSecret('access-token-of-this-run');
    const client = clientKey('contract-client');
    keepTimes(file, TARGET, times, {
      [client]: {
        '/v3/consumers': { at: { url: `${TARGET}/v3/consumers?page=3&access_token=access-token-of-this-run` }, end: true },
        '/v3/subscriptions/persons': { at: { query: { token: 'eyJhZnRlciI6MzB9' } }, end: true },
      },
    });
    expect(readFileSync(file, 'utf8')).not.toContain('access-token-of-this-run');
    expect(earlierTimes(file, TARGET)?.newRecords).toEqual({ [client]: { '/v3/subscriptions/persons': { at: { query: { token: 'eyJhZnRlciI6MzB9' } }, end: true } } });
  });
});
