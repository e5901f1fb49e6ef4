// The simulator over https, as the corporate-network checks and the doctor's TLS faults serve it:
// with a certificate from a CA the test makes.
import { afterAll, describe, expect, it } from 'vitest';
import { Agent, request } from 'undici';
import { createPrivateCa } from '../network/private-ca.js';
import { Harness } from './harness.js';

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
      headers: {
        authorization: `Basic ${Buffer.from('contract-client:contract-secret').toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials&scope=bci',
    });
    expect(answer.statusCode).toBe(200);
    expect(((await answer.body.json()) as { access_token?: unknown }).access_token).toEqual(expect.any(String));
  });
});
