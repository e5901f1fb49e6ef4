// The doctor's table of operations and its reading of their answers, without a server (the
// self-check tests/self-checks/doctor.test.ts runs the command against simulators).
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSettings, resolveConfig } from '../../support/run/config.js';
import { doctorOperations, judgeAnswer, rateLimitLine } from '../../support/run/doctor.js';
import { TargetThrottledError } from '../../support/transport/http.js';
import { joinedPattern } from '../patterns.js';

const NO_FILE = join(tmpdir(), 'no-such-dir', '.env');
const remote = {
  CONTRACT_BASE_URL: 'https://sandbox.example.com',
  CONTRACT_CLIENT_ID: 'client',
  CONTRACT_CLIENT_SECRET: 'secret-value',
  CONTRACT_SCREENING_PROVIDER: 'PROVIDER',
  CONTRACT_MARKET: 'NO',
};
const configWith = (env: Record<string, string> = {}) =>
  resolveConfig(readSettings({ ...remote, ...env }, NO_FILE), undefined, 'doctor', 1);

describe('doctorOperations', () => {
  it('probes every operation at its configured path, the market filled in, with the variable that moves it', () => {
    const operations = doctorOperations(
      configWith({
        CONTRACT_PERSON_PATH: '/consumer-intelligence/v3/persons/{gedi}',
        CONTRACT_COMPANY_SCREENING_PATH: '/aml/v2/company/screening',
      }),
    );
    expect(operations.map(({ id }) => id)).toEqual(['op1', 'op2', 'op3', 'op4', 'op5', 'op6', 'op7', 'op8', 'op9']);
    const byId = Object.fromEntries(operations.map((operation) => [operation.id, operation]));
    expect(byId.op3).toMatchObject({
      method: 'GET',
      path: '/consumer-intelligence/v3/persons/doctor-no-such-gedi',
      pathSetting: 'CONTRACT_PERSON_PATH',
      ambiguous: 404,
    });
    expect(byId.op4).toMatchObject({
      method: 'POST',
      path: '/consumer-intelligence/v3/markets/NO/persons/_find',
      pathSetting: 'CONTRACT_FIND_PERSON_PATH',
      permissionSetting: 'CONTRACT_MARKET',
    });
    expect(byId.op9).toMatchObject({
      path: '/aml/v2/company/screening',
      pathSetting: 'CONTRACT_COMPANY_SCREENING_PATH',
      permissionSetting: 'CONTRACT_SCREENING_SCOPE',
    });
  });

  it(
    'sends no write that could create or delete anything: an empty person, a body without id, an empty consumer ' +
      'list',
    () => {
      const byId = Object.fromEntries(doctorOperations(configWith()).map((operation) => [operation.id, operation]));
      expect([byId.op1?.body, byId.op2?.body, byId.op5?.body]).toEqual([{}, {}, []]);
    },
  );
});

describe('judgeAnswer', () => {
  const [op1, , op3, op4, , , , op8] = doctorOperations(configWith());

  it.each([200, 202, 204, 400, 409, 415])('counts %i as the operation being there', (status) => {
    expect(judgeAnswer(op4!, status)).toMatchObject({ verdict: 'ok' });
  });

  it(
    'names the path setting for a 404 or 405, and says a 404 for an ' +
      'unknown gedi proves only that the host answers',
    () => {
      expect(judgeAnswer(op4!, 404)).toMatchObject({ verdict: 'FAIL', setting: 'CONTRACT_FIND_PERSON_PATH' });
      expect(judgeAnswer(op1!, 405)).toMatchObject({ verdict: 'FAIL', setting: 'CONTRACT_SANDBOX_PERSONS_PATH' });
      expect(judgeAnswer(op3!, 404)).toMatchObject({
        verdict: 'ok',
        detail: expect.stringContaining('a wrong path would answer the same'),
      });
    },
  );

  it('names the permission a 403 says is missing, and the credentials or the scope for a 401', () => {
    expect(judgeAnswer(op4!, 403)).toMatchObject({
      verdict: 'FAIL',
      setting: 'CONTRACT_MARKET',
      detail: expect.stringContaining('"onboarding"'),
    });
    expect(judgeAnswer(op8!, 403)).toMatchObject({ verdict: 'FAIL', setting: 'CONTRACT_SCREENING_SCOPE' });
    expect(judgeAnswer(op4!, 401)).toMatchObject({ verdict: 'FAIL', setting: 'CONTRACT_CLIENT_ID' });
    expect(judgeAnswer(op8!, 401)).toMatchObject({ verdict: 'FAIL', setting: 'CONTRACT_SCREENING_SCOPE' });
  });

  it('names the rate, not the path, for a 429', () => {
    expect(judgeAnswer(op4!, 429)).toMatchObject({ verdict: 'FAIL', setting: 'CONTRACT_MAX_RPS' });
  });
});

describe('rateLimitLine', () => {
  const answered = (status: number, responseHeaders: Record<string, string> = {}) => ({ status, responseHeaders });

  it('says how a run meets a rate limit, whether or not the target refused', () => {
    expect(rateLimitLine([answered(200), answered(400)])).toMatchObject({
      verdict: 'ok',
      detail: expect.stringMatching(/^none of 2 answers throttled: a run pauses each client for a Retry-After/),
    });
    expect(rateLimitLine([answered(200), answered(429, { 'retry-after': '1' })])).toMatchObject({
      verdict: 'note',
      detail: expect.stringMatching(/^1 of 2 answers throttled \(429 Retry-After 1\): a run pauses each client/),
    });
  });

  it('fails once, with the setting to lower, when probes were throttled to their deadline', () => {
    const throttled = new TargetThrottledError('h', 1, 0, { throttledAnswers: 1 }, [], 'GET /p', 'status 429', 429);
    expect(rateLimitLine([answered(429, { 'retry-after': '50' })], [throttled, throttled])).toMatchObject({
      verdict: 'FAIL',
      setting: 'CONTRACT_MAX_RPS',
      detail: expect.stringMatching(
        joinedPattern(
          /^1 of 1 answers throttled \(429 Retry-After 50\); 2 probe\(s\) throttled to their deadline, the /,
          /first: Target throttled: h still answered 429/,
        ),
      ),
    });
  });
});
