// Owns the cleanup ledger: each custom person is written down before its PUT and again once deleted, so `npm run sweep`
// can delete what a killed run left. One JSON line per event: short appends are atomic, so workers share one file.
import { appendFileSync, globSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { LEDGER_DIR } from '../run/paths.js';

export interface LedgerEntry {
  event: 'created' | 'deleted';
  personId: string;
  /** Origin of the API host the person lives on: a sweep only touches its own target. */
  target: string;
  clientId: string;
  at: string;
}

export type Leftover = Pick<LedgerEntry, 'personId' | 'clientId'> & { file: string };

export function ledgerFile(runId: string, dir = LEDGER_DIR): string {
  return join(dir, `${runId}.jsonl`);
}

export function recordInLedger(file: string, entry: Omit<LedgerEntry, 'at'>): void {
  mkdirSync(join(file, '..'), { recursive: true });
  appendFileSync(file, `${JSON.stringify({ ...entry, at: new Date().toISOString() })}\n`);
}

/** Per ledger under `dir`, its persons created and not deleted (on `target`, or on any target). */
function openPersons(dir: string, target?: string): Map<string, Leftover[]> {
  return new Map(
    globSync('*.jsonl', { cwd: dir }).map((name) => {
      const file = join(dir, name);
      const open = new Map<string, Leftover>();
      for (const line of readFileSync(file, 'utf8').split('\n')) {
        let entry: LedgerEntry;
        try {
          entry = JSON.parse(line) as LedgerEntry;
        } catch {
          continue; // an empty line, or one cut short by a killed process: it names nothing to clean up
        }
        if (target !== undefined && entry.target !== target) continue;
        // Ids are chosen per client: two clients may have a person with the same id.
        const key = `${entry.target} ${entry.clientId} ${entry.personId}`;
        if (entry.event === 'created') open.set(key, { file, personId: entry.personId, clientId: entry.clientId });
        else open.delete(key);
      }
      return [file, [...open.values()]];
    }),
  );
}

/** Persons that ledgers under `dir` record as created on `target` and never as deleted. */
export function leftovers(target: string, dir = LEDGER_DIR): Leftover[] {
  return [...openPersons(dir, target).values()].flat();
}

/** Drops ledgers that no longer name anything left on any target. */
export function pruneLedgers(dir = LEDGER_DIR): void {
  for (const [file, open] of openPersons(dir)) if (open.length === 0) rmSync(file);
}
