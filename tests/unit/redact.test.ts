import { describe, expect, it } from 'vitest';
import { redact, redactText, registerSecret } from '../../support/transport/redact.js';

describe('redact', () => {
  it('keeps the scheme of authorization headers and blanks the credential', () => {
    const headers = {
      Authorization: 'Bearer abc.def.ghi',
      'proxy-authorization': 'Basic dXNlcjpwYXNz',
      accept: 'application/json',
    };
    expect(redact(headers)).toEqual({
      Authorization: 'Bearer [REDACTED]',
      'proxy-authorization': 'Basic [REDACTED]',
      accept: 'application/json',
    });
  });

  it('blanks secret-named keys at any depth, whatever their case or separator', () => {
    const body = {
      access_token: 'a',
      data: [{ refreshToken: 'b', CLIENT_SECRET: 'c', password: 'd', nested: { token: { value: 'e' }, secret: 'f' } }],
      gedi: 'kept',
    };
    expect(redact(body)).toEqual({
      access_token: '[REDACTED]',
      data: [
        {
          refreshToken: '[REDACTED]',
          CLIENT_SECRET: '[REDACTED]',
          password: '[REDACTED]',
          nested: { token: '[REDACTED]', secret: '[REDACTED]' },
        },
      ],
      gedi: 'kept',
    });
  });

  it('blanks a registered secret inside any string, and its URL-encoded form', () => {
    registerSecret('s3cr3t/value+x');
    expect(
      redact({ message: 'client secret s3cr3t/value+x was wrong', form: 'client_secret=s3cr3t%2Fvalue%2Bx' }),
    ).toEqual({
      message: 'client secret [REDACTED] was wrong',
      form: 'client_secret=[REDACTED]',
    });
  });

  it('blanks Basic and Bearer credentials in free text but leaves prose alone', () => {
    expect(redactText('sent Basic Y2xpZW50OnNlY3JldDEyMw== and Bearer eyJhbGciOiJIUzI1NiJ9.x')).toBe(
      'sent Basic [REDACTED] and Bearer [REDACTED]',
    );
    expect(redactText('a Bearer token is required')).toBe('a Bearer token is required');
    // The documentation's own words, quoted in every failure of the token rule.
    expect(redactText('HTTP Basic authentication with <CLIENT_ID>:<CLIENT_SECRET>')).toBe(
      'HTTP Basic authentication with <CLIENT_ID>:<CLIENT_SECRET>',
    );
  });

  it('blanks secrets that look like patterns, and a secret containing another whole', () => {
    registerSecret('s3cr.t+(x)*');
    registerSecret('long-s3cr.t+(x)*-tail');
    expect(redactText('a s3cr.t+(x)* b long-s3cr.t+(x)*-tail c s3cr3t+(x)')).toBe(
      'a [REDACTED] b [REDACTED] c s3cr3t+(x)',
    );
  });

  it('returns a copy and never modifies its input', () => {
    const input = { authorization: 'Bearer abcdefghijklmnop', list: [{ token: 'x' }] };
    const copy = redact(input);
    expect(input).toEqual({ authorization: 'Bearer abcdefghijklmnop', list: [{ token: 'x' }] });
    expect(copy.list).not.toBe(input.list);
  });

  it('survives cycles and leaves non-plain objects and scalars as they are', () => {
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    const copy = redact(cyclic);
    expect(copy.self).toBe(copy);
    const date = new Date(0);
    expect(redact({ at: date, n: 1, ok: true, none: null })).toEqual({ at: date, n: 1, ok: true, none: null });
  });

  it('ignores secrets too short to be secrets, so ordinary text is not shredded', () => {
    registerSecret('a');
    registerSecret('');
    registerSecret(undefined);
    expect(redactText('a banana')).toBe('a banana');
  });
});
