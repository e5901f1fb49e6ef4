/**
 * Authentication, item 1.
 *
 * > OAuth 2.0 client credentials. The client id and client secret are the sandbox credentials of
 * > the registered organization.
 *
 * A secret that is not the organization's is refused: no token is issued. Not asserted (not
 * shown): the status (any 4xx) and the error body.
 *
 * Its requests to the embedded simulator, step by step, and what decided each reading: docs/requests.md.
 */
import { expect } from 'vitest';
import { rule, Given, Then, When } from '../../support/verbs/contract.js';
import { requestToken, TokenError } from '../../support/run/tokens.js';
import { expectRejected } from '../../support/evidence/expectations.js';

rule('auth.wrong-secret-rejected').test(
  'refuses a token to the right client id with a wrong secret',
  async ({ config, data, transport }) => {
    const credentials = await Given('the client id with a secret that is not its own', async () => ({
      clientId: config.client.clientId,
      clientSecret: data.wrongSecret(),
    }));

    // Only the token service's own answer is the outcome: a request it throttled or never answered
    // says nothing about the credentials, and fails as what it is.
    const outcome = await When('the client requests a token', () =>
      requestToken(config.authUrl, credentials, {
        ...transport,
        purpose: 'Request token with a wrong secret',
        maxRps: config.maxRps,
        deadlineMs: config.availabilityTimeoutMs,
      }).then(
        () => undefined,
        (error: unknown) => {
          if (error instanceof TokenError && error.reason !== 'unreachable' && error.reason !== 'unavailable')
            return error;
          throw error;
        },
      ),
    );

    await Then('the token service rejects the credentials', async () => {
      expect(outcome, 'a wrong client secret gets no token').toBeInstanceOf(TokenError);
      // Any 4xx: setup names only 400, 401 and 403 a refusal of the credentials, but nothing here is documented.
      expectRejected({ status: (outcome as TokenError).status ?? 0 }, 'the token request with a wrong secret');
    });
  },
);
