// Owns the status-class judgements: any 2xx is acceptance, any 4xx a rejection, where no status is documented.
import { expect } from 'vitest';

/** "2xx", "4xx", …: the documentation never fixes a status, only acceptance or rejection. */
export function statusClass(status: number): string {
  return `${Math.floor(status / 100)}xx`;
}

/** Where no status is documented, any 2xx is acceptance. */
export function expectAccepted(response: { status: number }, what: string): void {
  expect(statusClass(response.status), `${what} answered ${response.status}; any 2xx was expected`).toBe('2xx');
}

/** Where only "rejected" is implied, any 4xx is a rejection. */
export function expectRejected(response: { status: number }, what: string): void {
  expect(statusClass(response.status), `${what} answered ${response.status}; a 4xx rejection was expected`).toBe('4xx');
}
