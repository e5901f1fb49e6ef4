// Owns the judgements specs share: a status's class where none is documented, and facts read on affirmative evidence.
import { expect } from 'vitest';
import type { Reading } from '../readings/facts.js';
import { attachText } from './report.js';
import { notPermitted, refusalQuote, type Answer } from './failures.js';

/** "2xx", "4xx", …: the documentation never fixes a status, only acceptance or rejection. */
export function statusClass(status: number): string {
  return `${Math.floor(status / 100)}xx`;
}

/** Any 2xx is acceptance; a 403 is a permission the client lacks, not a broken promise. */
export function expectAccepted(response: Answer & { status: number }, what: string): void {
  if (response.status === 403 && response.text !== undefined) throw notPermitted(response, what);
  const said =
    response.text === undefined || statusClass(response.status) === '2xx' ? '' : ` (${refusalQuote(response)})`;
  expect(statusClass(response.status), `${what} answered ${response.status}${said}; any 2xx was expected`).toBe('2xx');
}

/** Where only "rejected" is implied, any 4xx is a rejection. */
export function expectRejected(response: { status: number }, what: string): void {
  expect(statusClass(response.status), `${what} answered ${response.status}; a 4xx rejection was expected`).toBe('4xx');
}

/** The fact holds on affirmative evidence; the report shows the evidence, a failure what it found and where. */
export async function expectFact(reading: Reading, fact: string): Promise<void> {
  const instead = `found ${reading.found} (looked at ${reading.looked})`;
  await attachText(`Evidence that ${fact}`, reading.holds ? reading.evidence.join('\n') : `none; ${instead}`);
  expect(reading.holds, `no affirmative evidence that ${fact}: ${instead}`).toBe(true);
}

/** The fact does not hold: no affirmative evidence of it; a failure shows the evidence that was found. */
export async function expectNoFact(reading: Reading, fact: string): Promise<void> {
  const found = reading.holds ? reading.evidence.join('\n') : `none, as expected; looked at ${reading.looked}`;
  await attachText(`Evidence that ${fact}`, found);
  expect(reading.evidence, `evidence that ${fact}`).toEqual([]);
}
