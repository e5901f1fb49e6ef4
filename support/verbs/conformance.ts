// Owns the HTTP conformance probes: one body the client sends on purpose in a bad form (malformed
// JSON, a JSON value of the wrong type, a media type the operation does not take), to each of the
// operations that take a body, and the judgement HTTP itself makes of the answer: a 4xx (the
// client erred), never a 2xx (bad input accepted) nor a 5xx (the server failed at a client's mistake).
// A 401 or 403 refuses the client before any judgement of its body, and is reported as such.
import { expect } from 'vitest';
import { expandPath, type ContractConfig } from '../run/config.js';
import { assertSandboxTarget } from '../run/target.js';
import { notPermitted } from '../evidence/refusals.js';
import type { ApiClient, ApiResponse } from '../transport/http.js';

export interface BodyOperation {
  id: 'op1' | 'op2' | 'op4' | 'op5' | 'op8';
  method: 'PUT' | 'DELETE' | 'POST';
  path: string;
  /** The JSON type the operation documents for its body. */
  takes: 'object' | 'array';
}

/** The operations that take a JSON body (operations 1, 2, 4, 5 and 8). */
export function bodyOperations({ market, paths }: Pick<ContractConfig, 'market' | 'paths'>): BodyOperation[] {
  return [
    { id: 'op1', method: 'PUT', path: paths.sandboxPersons, takes: 'object' },
    { id: 'op2', method: 'DELETE', path: paths.sandboxPersons, takes: 'object' },
    { id: 'op4', method: 'POST', path: expandPath(paths.findPerson, { market }), takes: 'object' },
    { id: 'op5', method: 'POST', path: paths.consumers, takes: 'array' },
    { id: 'op8', method: 'POST', path: paths.personScreening, takes: 'object' },
  ];
}

export interface BadBody {
  contentType: string;
  text: string;
}

/**
 * Sends `body` exactly as written to the operation. None of these bodies carries a usable `id`, so
 * even a server that wrongly accepts one has no person to create that a test would have to delete.
 */
export function sendBadBody(
  clients: { api: ApiClient; screeningApi: ApiClient },
  config: Pick<ContractConfig, 'baseUrl' | 'prodBaseUrl'>,
  operation: BodyOperation,
  body: BadBody,
  purpose: string,
): Promise<ApiResponse> {
  if (operation.id === 'op1' || operation.id === 'op2')
    assertSandboxTarget(config, `operation ${operation.id.slice(2)} (${operation.method} sandbox person)`);
  // Screening with the token that may screen: a refusal for want of scope would pass for HTTP's verdict on the body.
  const api = operation.id === 'op8' ? clients.screeningApi : clients.api;
  return api.request(operation.method, operation.path, { raw: body, operation: operation.id, purpose });
}

/** Sends each operation its bad body (`body`, or the one `body` makes for it), all at once; the answers in order. */
export function sendBadBodies(
  clients: { api: ApiClient; screeningApi: ApiClient },
  config: Pick<ContractConfig, 'baseUrl' | 'prodBaseUrl'>,
  operations: BodyOperation[],
  body: BadBody | ((operation: BodyOperation) => BadBody),
  purpose: string,
): Promise<ApiResponse[]> {
  return Promise.all(
    operations.map((operation) =>
      sendBadBody(clients, config, operation, typeof body === 'function' ? body(operation) : body, purpose),
    ),
  );
}

/** Answers that refuse the client, not its body: a target may send them before it reads the body at all. */
const REFUSALS = new Set([401, 403]);

type Answer = Pick<ApiResponse, 'status' | 'text'> & Partial<Pick<ApiResponse, 'exchanges' | 'url'>>;

/**
 * HTTP's verdict on bad input: a 4xx. A 401 or 403 is no verdict on the body, so the rule could not
 * be checked: "Not permitted", naming what the operation needs. Otherwise the message says which
 * way the answer went wrong.
 */
export function expectClientError(response: Answer, what: string): void {
  if (REFUSALS.has(response.status)) {
    const refused = notPermitted(response, what);
    refused.message += ' A refusal of the client is no verdict on its body: this rule could not be checked.';
    throw refused;
  }
  const why =
    response.status >= 500
      ? "a server error for the client's mistake (RFC 9110 15.6)"
      : response.status < 300
        ? 'the bad input was accepted'
        : 'not a client error';
  expect(Math.floor(response.status / 100), `${what} answered ${response.status}: ${why}; a 4xx was expected`).toBe(4);
}

/** Each answer is HTTP's verdict on its bad body; refusals last, so a verdict breaking the rule is reported first. */
export function expectClientErrors(answers: { response: Answer; what: string }[]): void {
  const refused = answers.filter(({ response }) => REFUSALS.has(response.status));
  const judged = answers.filter((answer) => !refused.includes(answer));
  for (const { response, what } of [...judged, ...refused]) expectClientError(response, what);
}

/** expectClientErrors for the answers of sendBadBodies, each named by `what` was sent to its operation. */
export function expectClientErrorsFor(
  operations: BodyOperation[],
  answers: Answer[],
  what: (operation: BodyOperation) => string,
): void {
  expectClientErrors(answers.map((response, index) => ({ response, what: what(operations[index]!) })));
}
