/**
 * A rejection the handlers throw; the layout decides how it is rendered. `field` names the
 * offending input so every 400 says what to fix.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
    readonly headers: Record<string, string> = {},
    /** The offending value, where the check had it (the vendor layout's error model shows it). */
    readonly rejected?: { value: unknown },
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export function badRequest(field: string, message: string, rejected?: { value: unknown }): HttpError {
  return new HttpError(400, 'invalid_request', `${field}: ${message}`, field, {}, rejected);
}

export function notFound(message: string): HttpError {
  return new HttpError(404, 'not_found', message);
}

/** Well-formed JSON of another type than the operation takes (an array for an object, or the reverse). */
export function wrongJsonType(expected: string, got: unknown): HttpError {
  return new HttpError(400, 'wrong_json_type', `body: expected ${expected}, got ${JSON.stringify(got)}`, 'body');
}
