import { describe, expect, it } from 'vitest';
import { expectAccepted, expectRejected, statusClass } from '../../support/evidence/expectations.js';

describe('status expectations', () => {
  it('accept any 2xx and name what answered otherwise', () => {
    for (const status of [200, 201, 202, 204]) expect(() => expectAccepted({ status }, 'the upload')).not.toThrow();
    expect(() => expectAccepted({ status: 422 }, 'the upload')).toThrow(
      /the upload answered 422; any 2xx was expected/,
    );
  });

  it('take any 4xx as a rejection, and neither a 2xx nor a 5xx', () => {
    for (const status of [400, 401, 403, 404, 409, 422])
      expect(() => expectRejected({ status }, 'the merge')).not.toThrow();
    expect(() => expectRejected({ status: 200 }, 'the merge')).toThrow(
      /the merge answered 200; a 4xx rejection was expected/,
    );
    expect(() => expectRejected({ status: 503 }, 'the merge')).toThrow(/answered 503/);
  });

  it('names the class of a status', () => {
    expect([statusClass(204), statusClass(410), statusClass(503)]).toEqual(['2xx', '4xx', '5xx']);
  });
});
