// What the unit tests of failures and verdicts hand them: an answer as the client returns it, and the failure a body
// throws.
import type { ApiResponse } from '../../support/transport/http.js';

/** An answer of `status` with the body `text`, as operation `operation` at `path` returned it. */
export function answer(
  status: number,
  text: string,
  operation = 'op4',
  path = '/consumer-intelligence/v3/markets/SE/persons/_find',
): ApiResponse {
  return {
    status,
    ok: status < 300,
    headers: {},
    body: text ? JSON.parse(text) : undefined,
    text,
    url: `https://sandbox.example.com${path}`,
    exchanges: [{ operation, method: 'POST', url: path } as unknown as ApiResponse['exchanges'][number]],
    receivedAt: 0,
    sentAt: 0,
  };
}

/** What `body` threw; a test fails when it throws nothing. */
export async function failureOf(body: () => Promise<unknown> | unknown): Promise<Error> {
  try {
    await body();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a failure');
}
