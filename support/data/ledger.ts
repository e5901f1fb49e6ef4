// Owns the cleanup ledger: every person the suite creates, written down before its PUT is sent.
import { appendFileSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { LEDGER_DIR } from '../run/paths.js';

/**
 * Every custom person the suite creates is written here before the PUT is sent, and again when it
 * has been deleted. A run that is killed midway leaves its ledger behind; `npm run sweep` deletes
 * what it names. One JSON line per event; appends of short lines are atomic, so parallel workers
 * can share one file.
 */
export { LEDGER_DIR };

export interface LedgerEntry {
  event: 'created' | 'deleted';
  personId: string;
  /** Origin of the API host the person lives on: a sweep only touches its own target. */
  target: string;
  clientId: string;
  at: string;
}

export function ledgerFile(runId: string, dir = LEDGER_DIR): string {
  return join(dir, `${runId}.jsonl`);
}

export function recordInLedger(file: string, entry: Omit<LedgerEntry, 'at'>): void {
  mkdirSync(join(file, '..'), { recursive: true });
  appendFileSync(file, `${JSON.stringify({ ...entry, at: new Date().toISOString() })}\n`);
}

function readEntries(file: string): LedgerEntry[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as LedgerEntry];
      } catch {
        return []; // a line cut short by a killed process names nothing it could clean up
      }
    });
}

export interface Leftover {
  file: string;
  personId: string;
  clientId: string;
}

/** Persons that ledgers under `dir` record as created on `target` and never as deleted. */
export function leftovers(target: string, dir = LEDGER_DIR): Leftover[] {
  let files: string[];
  try {
    files = readdirSync(dir)
      .filter((name) => name.endsWith('.jsonl'))
      .map((name) => join(dir, name));
  } catch {
    return [];
  }
  return files.flatMap((file) => {
    const open = new Map<string, Leftover>();
    // Ids are chosen per client: two clients may have a person with the same id.
    for (const entry of readEntries(file).filter((e) => e.target === target)) {
      const key = `${entry.clientId} ${entry.personId}`;
      if (entry.event === 'created') open.set(key, { file, personId: entry.personId, clientId: entry.clientId });
      else open.delete(key);
    }
    return [...open.values()];
  });
}

/** Drops ledgers that no longer name anything left on any target. */
export function pruneLedgers(dir = LEDGER_DIR): void {
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.jsonl'));
  } catch {
    return;
  }
  for (const name of names) {
    const file = join(dir, name);
    const open = new Set<string>();
    for (const entry of readEntries(file)) {
      const key = `${entry.target} ${entry.clientId} ${entry.personId}`;
      if (entry.event === 'created') open.add(key);
      else open.delete(key);
    }
    if (open.size === 0) rmSync(file);
  }
}
