// Owns the HTTP conformance probes: a body sent on purpose in a bad form (malformed JSON, a JSON value of the wrong
// type, a media type the operation does not take) to each operation that takes a body, and HTTP's own verdict on the
// answer: a 4xx, never a 2xx (bad input accepted) nor a 5xx. A 401 or 403 refuses the client, not its body.
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

interface BadBody {
  contentType: string;
  text: string;
}

/**
 * Sends each operation its bad body (`body`, or the one `body` makes for it) exactly as written, all at once: the
 * answers in order. None carries a usable `id`, so a server that wrongly accepts one creates nobody to delete.
 */
export function sendBadBodies(
  clients: { api: ApiClient; screeningApi: ApiClient },
  config: Pick<ContractConfig, 'baseUrl' | 'prodBaseUrl'>,
  operations: BodyOperation[],
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

type Answer = Pick<ApiResponse, 'status' | 'text'> & Partial<Pick<ApiResponse, 'exchanges' | 'url'>>;

/**
 * HTTP's verdict on each bad body, `what(operation)` naming what was sent: a 4xx; the message says which way an answer
 * went wrong. Refusals come last, so a verdict breaking the rule is reported first; a refusal is no verdict on the
 * body, so the rule could not be checked: "Not permitted", naming what the operation needs.
 */
export function expectClientErrorsFor(
  operations: BodyOperation[],
  answers: Answer[],
  what: (operation: BodyOperation) => string,
): void {
  const named = answers.map((response, index) => ({ response, what: what(operations[index]!) }));
  const refused = ({ response }: (typeof named)[number]) => Number(REFUSALS.has(response.status));
  for (const { response, what } of named.sort((a, b) => refused(a) - refused(b))) {
    if (REFUSALS.has(response.status)) {
      const error = notPermitted(response, what);
      error.message += ' A refusal of the client is no verdict on its body: this rule could not be checked.';
      throw error;
    }
    const why =
      response.status >= 500
        ? "a server error for the client's mistake (RFC 9110 15.6)"
        : response.status < 300
          ? 'the bad input was accepted'
          : 'not a client error';
    expect(Math.floor(response.status / 100), `${what} answered ${response.status}: ${why}; a 4xx was expected`).toBe(
      4,
    );
  }
}
