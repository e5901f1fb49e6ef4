/**
 * HTTP conformance — RFC 9110, section 15.5 (Client Error 4xx).
 *
 * > The 4xx (Client Error) class of status code indicates that the client seems to have erred.
 *
 * Well-formed JSON of the wrong type is still the client's error: an array where the documentation
 * shows an object (operations 1, 2, 4 and 8), an object where it shows an array of consumers
 * (operation 5). Not asserted (not shown): which 4xx, the error body.
 * A 401 or 403 refuses the client, not its body (a target may send it before reading the body):
 * reported as not permitted, never counted as the 4xx asked for. Screening uses the token that may screen.
 *
 * Its requests to the embedded simulator, step by step, and what decided each reading: docs/requests.md.
 */
import { rule, Given, Then, When } from '../../support/verbs/contract.js';
import { bodyOperations, expectClientErrorsFor, sendBadBodies } from '../../support/verbs/conformance.js';

rule('http.wrong-json-type-rejected').test(
  'answers a JSON body of the wrong type with a 4xx, never 2xx or 5xx',
  async ({ api, screeningApi, config }) => {
    const operations = await Given('the operations that take a JSON body, and the type each does not take', async () =>
      bodyOperations(config),
    );

    const answers = await When('the client sends an array for an object and an object for an array', () =>
      sendBadBodies(
        { api, screeningApi },
        config,
        operations,
        (operation) => ({
          contentType: 'application/json',
          text: operation.takes === 'array' ? '{"market": "SE"}' : '[{"market": "SE"}]',
        }),
        'bad input: wrong JSON type',
      ),
    );

    await Then('every operation answers with a client error', async () => {
      expectClientErrorsFor(
        operations,
        answers,
        ({ method, path, takes }) => `${method} ${path} with a JSON ${takes === 'array' ? 'object' : 'array'}`,
      );
    });
  },
);
