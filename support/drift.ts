// Stub: replaced by the drift recorder (issue 6). Kept callable so support/http.ts can depend on it.
export function recordShape(_operation: string, _body: unknown): void {}
