// The simulator's knobs for the doctor's faults and the corporate-network checks: a market no
// client has the permission for (403), and https with a certificate from a CA the test makes.
import { afterAll, describe, expect, it } from 'vitest';
import { Agent, request } from 'undici';
import { createPrivateCa } from '../network/private-ca.js';
import { findPath, Harness, personPath } from './harness.js';

describe('a market without permission', () => {
  it('answers person lookups there 403, before reading the body, and other markets as usual', async () => {
    const h = await Harness.start({ deniedMarkets: ['SE'] });
    try {
      const token = await h.token();
      expect((await h.request('GET', personPath('any-gedi'), { token })).status).toBe(403);
      expect((await h.request('POST', findPath(), { token, json: {} })).status).toBe(403);
      expect((await h.request('GET', personPath('any-gedi', 'NO'), { token })).status).toBe(404);
      expect((await h.request('GET', '/consumer-intelligence/v3/consumers', { token })).status).toBe(200);
    } finally {
      await h.close();
    }
  });
});

describe('https', () => {
  const closers: (() => Promise<void>)[] = [];
  afterAll(() => Promise.all(closers.map((close) => close())));

  it('serves the same API over https with the certificate it is given', async () => {
    const ca = await createPrivateCa();
    closers.push(async () => ca.remove());
    const h = await Harness.start({ tls: await ca.issue() });
    closers.push(() => h.close());
    expect(h.baseUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const trusting = new Agent({ connect: { ca: ca.cert } });
    closers.push(() => trusting.close());
    const answer = await request(`${h.baseUrl}/sandbox/v1/token.oauth2`, {
      dispatcher: trusting,
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from('contract-client:contract-secret').toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials&scope=bci',
    });
    expect(answer.statusCode).toBe(200);
    expect(((await answer.body.json()) as { access_token?: unknown }).access_token).toEqual(expect.any(String));
  });
});
