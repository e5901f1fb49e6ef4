/**
 * HTTP conformance — RFC 9110, section 15.5 (Client Error 4xx) and 15.6 (Server Error 5xx).
 *
 * > The 4xx (Client Error) class of status code indicates that the client seems to have erred.
 *
 * The documentation shows no error codes, but HTTP's own semantics hold: a body that is not JSON at
 * all, sent as application/json to an operation that takes JSON, is the client's error. Checked on
 * operations 1, 2, 4, 5 and 8. Not asserted (not shown): which 4xx, the error body.
 * A 401 or 403 refuses the client, not its body (a target may send it before reading the body):
 * reported as not permitted, never counted as the 4xx asked for. Screening uses the token that may screen.
 *
 * Its requests to the embedded simulator, step by step, and what decided each reading: docs/requests.md.
 */
import { rule, Given, Then, When } from '../../support/verbs/contract.js';
import { bodyOperations, expectClientErrorsFor, sendBadBodies } from '../../support/verbs/conformance.js';

rule('http.malformed-json-rejected').test(
  'answers malformed JSON with a 4xx on every operation that takes a body, never 2xx or 5xx',
  async ({ api, screeningApi, config }) => {
    const operations = await Given('the operations that take a JSON body', async () => bodyOperations(config));
    const body = { contentType: 'application/json', text: '{"id": "ct-malformed", "country": ' };

    const answers = await When('the client sends each a JSON body cut off in the middle', () =>
      sendBadBodies({ api, screeningApi }, config, operations, body, 'bad input: malformed JSON'),
    );

    await Then('every operation answers with a client error', async () => {
      expectClientErrorsFor(operations, answers, ({ method, path }) => `${method} ${path} with malformed JSON`);
    });
  },
);
