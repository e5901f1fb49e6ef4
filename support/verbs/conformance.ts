// Owns the HTTP conformance probes: a bad body (malformed JSON, a wrong JSON type, an unsupported media type) sent to
// each operation that takes one, and HTTP's verdict: a 4xx, never a 2xx nor a 5xx; a 401 or 403 refuses the client.
import { expect } from 'vitest';
import { assertSandboxTarget, expandPath, type ContractConfig } from '../run/config.js';
import { notPermitted } from '../evidence/failures.js';
import type { ApiClient, ApiResponse, RequestOptions } from '../transport/http.js';

/** The operations that take a JSON body (operations 1, 2, 4, 5 and 8), each with the JSON type it documents. */
export function bodyOperations({ market, paths }: Pick<ContractConfig, 'market' | 'paths'>) {
  return [
    { id: 'op1', method: 'PUT', path: paths.sandboxPersons, takes: 'object' },
    { id: 'op2', method: 'DELETE', path: paths.sandboxPersons, takes: 'object' },
    { id: 'op4', method: 'POST', path: expandPath(paths.findPerson, { market }), takes: 'object' },
    { id: 'op5', method: 'POST', path: paths.consumers, takes: 'array' },
    { id: 'op8', method: 'POST', path: paths.personScreening, takes: 'object' },
  ] as const;
}

export type BodyOperation = ReturnType<typeof bodyOperations>[number];

type BadBody = NonNullable<RequestOptions['raw']>;

/** Sends each operation its bad body as written, at once; none has a usable `id`, so an accepted one creates nobody. */
export function sendBadBodies(
  clients: { api: ApiClient; screeningApi: ApiClient },
  config: Pick<ContractConfig, 'baseUrl' | 'prodBaseUrl'>,
  operations: readonly BodyOperation[],
  body: BadBody | ((operation: BodyOperation) => BadBody),
  purpose: string,
): Promise<ApiResponse[]> {
  return Promise.all(
    operations.map((operation) => {
      const { id, method, path } = operation;
      if (id === 'op1' || id === 'op2')
        assertSandboxTarget(config, `operation ${id.slice(2)} (${method} sandbox person)`);
      // Screening with the token that may screen: a refusal for want of scope would pass for HTTP's verdict.
      const api = id === 'op8' ? clients.screeningApi : clients.api;
      const raw = typeof body === 'function' ? body(operation) : body;
      return api.request(method, path, { raw, operation: id, purpose });
    }),
  );
}

/** Answers that refuse the client, not its body: a target may send them before it reads the body at all. */
const REFUSALS = new Set([401, 403]);

/** A 4xx for each bad body, `what` naming it; refusals, no verdict on a body, are reported last as "Not permitted". */
export function expectClientErrorsFor(
  operations: readonly BodyOperation[],
  answers: (Pick<ApiResponse, 'status' | 'text'> & Partial<Pick<ApiResponse, 'exchanges' | 'url'>>)[],
  what: (operation: BodyOperation) => string,
): void {
  const named = answers.map((response, index) => ({ response, what: what(operations[index]!) }));
  const refused = ({ response }: (typeof named)[number]) => Number(REFUSALS.has(response.status));
  for (const { response, what } of named.sort((a, b) => refused(a) - refused(b))) {
    if (REFUSALS.has(response.status)) {
      throw notPermitted(
        response,
        what,
        'A refusal of the client is no verdict on its body: this rule could not be checked.',
      );
    }
    const why =
      response.status >= 500
        ? "a server error for the client's mistake (RFC 9110 15.6)"
        : response.status < 300
          ? 'the bad input was accepted'
          : 'not a client error';
    const message = `${what} answered ${response.status}: ${why}; a 4xx was expected`;
    expect(Math.floor(response.status / 100), message).toBe(4);
  }
}
