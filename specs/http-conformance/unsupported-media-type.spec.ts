/**
 * HTTP conformance — RFC 9110, section 15.5.16 (415 Unsupported Media Type).
 *
 * > The 415 (Unsupported Media Type) status code indicates that the origin server is refusing to
 * > service the request because the content is in a format not supported by this method on the
 * > target resource.
 *
 * Every operation sends `Content-Type: application/json` (Endpoints). A body in another format is
 * the client's error: any 4xx (415 is the precise one, 400 is still a client error). Checked on
 * operations 1, 2, 4, 5 and 8. Not asserted (not shown): which 4xx, the error body.
 * A 401 or 403 refuses the client, not its body (a target may send it before reading the body):
 * reported as not permitted, never counted as the 4xx asked for. Screening uses the token that may screen.
 *
 * Its requests to the embedded simulator, step by step, and what decided each reading: docs/requests.md.
 */
import { rule, Given, Then, When } from '../../support/verbs/contract.js';
import { bodyOperations, expectClientErrorsFor, sendBadBodies } from '../../support/verbs/conformance.js';

rule('http.unsupported-media-type-rejected').test(
  'answers a body that is not JSON with a 4xx, never 2xx or 5xx',
  async ({ api, screeningApi, config }) => {
    const operations = await Given('the operations that take a JSON body', async () => bodyOperations(config));
    const body = { contentType: 'application/xml', text: '<person><market>SE</market></person>' };

    const answers = await When('the client sends each an XML body with Content-Type application/xml', () =>
      sendBadBodies({ api, screeningApi }, config, operations, body, 'bad input: not JSON'),
    );

    await Then('every operation answers with a client error', async () => {
      expectClientErrorsFor(operations, answers, ({ method, path }) => `${method} ${path} with an XML body`);
    });
  },
);
