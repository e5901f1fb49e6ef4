/**
 * Authentication, items 2 and 3.
 *
 * > Token request: POST {auth_url}/sandbox/v1/token.oauth2 with Content-Type:
 * > application/x-www-form-urlencoded, form fields grant_type = client_credentials and scope = bci,
 * > and HTTP Basic authentication with <CLIENT_ID>:<CLIENT_SECRET>.
 * > The response property access_token is sent on every other request as Authorization: Bearer.
 *
 * The run requests one token per client in its global setup and shares it with every worker; this
 * spec reads that exchange (redacted) instead of spending another token request.
 * Not asserted (not shown): token lifetime and the other response properties.
 */
import { expect } from 'vitest';
import { rule } from '../../support/verbs/contract.js';
import { attachJson, Given, Then, When } from '../../support/evidence/report.js';
import { expectAccepted } from '../../support/evidence/expectations.js';

rule('auth.token-issued').test(
  'issues an access_token for the documented client-credentials request, and accepts it as a bearer token',
  async ({ run, api, config }) => {
    const evidence = await Given('the token request this run sent', async () => {
      await attachJson('token exchange (redacted)', run.tokenEvidence);
      return run.tokenEvidence;
    });

    await Then('it answered 2xx with an access_token property', async () => {
      expectAccepted(evidence, 'the token request');
      expect(evidence.bodyKeys, 'the token response has an access_token property').toContain('access_token');
    });

    const response = await When('the client lists its consumers with Authorization: Bearer <access_token>', () =>
      api.request('GET', config.paths.consumers, { operation: 'op6', purpose: 'list consumers with the issued token' }),
    );

    await Then('the call is accepted', async () => {
      expectAccepted(response, 'the call with the issued token');
    });
  },
);
