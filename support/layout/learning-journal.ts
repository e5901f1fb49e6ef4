// Owns a learning run's files: its journal (each wait's last answer beside its control's, one JSON line per
// observation, written by the workers through support/layout/learned-readings.ts) and the layout file it proposes from
// them (scripts/contract.ts). Answers pass through the reports' redaction first.
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { redact } from '../transport/redact.js';
import { proposeLayout, type JournalEntry } from './learning.js';
import type { LayoutFile } from './layout-file.js';

/** What a learning run says first and last: its verdicts read by key names, and the file a person reviews. */
export const provisional = (into: string) =>
  `contract: learning: no layout file is read, so facts are read by key names and every verdict of this run is ` +
  `provisional; it proposes ${into}: review it with git diff and commit it (README "A new target: its layout file").`;

/** Appends one observation to this worker's own file, so that workers never write to one file at once. */
export function recordObservation(journal: string, observation: JournalEntry): void {
  mkdirSync(journal, { recursive: true });
  appendFileSync(join(journal, `${process.pid}-${threadId}.jsonl`), `${JSON.stringify(redact(observation))}\n`);
}

/** Every observation of the run, in no particular order; none when no wait reached its end. */
export function readObservations(journal: string): JournalEntry[] {
  if (!existsSync(journal)) return [];
  return readdirSync(journal)
    .filter((name) => name.endsWith('.jsonl'))
    .flatMap((name) => readFileSync(join(journal, name), 'utf8').split('\n').filter(Boolean))
    .map((line) => JSON.parse(line) as JournalEntry);
}

/** A learning run starts from an empty journal: observations of an earlier run are not this target's now. */
export function clearJournal(journal: string): void {
  rmSync(journal, { recursive: true, force: true });
}

/** Writes the proposal of the run's observations to `into`, overwriting it (`git diff` is the review). */
export function writeProposal(journal: string, into: string, run: string): LayoutFile {
  const date = new Date().toISOString().slice(0, 10);
  const proposal = proposeLayout(readObservations(journal), { by: 'npm run learn', date, run });
  mkdirSync(dirname(into), { recursive: true });
  writeFileSync(into, `${JSON.stringify(proposal, null, 2)}\n`);
  return proposal;
}
