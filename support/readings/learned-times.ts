// Owns keeping what a run's waits learned of a target for the next run against the same target
// (its times to consistency, and where its lists show new records), so that run's first waits
// start from them instead of from nothing.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { EffectTime } from './eventually.js';
import type { PagePlace } from './list-reader.js';
import { isRecord } from './lookup.js';
import { redactText } from '../transport/redact.js';
import { LEARNED_TIMES_FILE } from '../run/paths.js';

/** The variable naming the file (the bench's warm runs); `off` keeps nothing. */
export const LEARNED_TIMES_VARIABLE = 'CONTRACT_LEARNED_TIMES';

/**
 * Where a run keeps what it learned: the variable's file, or, for a run that writes reports and
 * keeps their history (npm run contract), the reports' history, which CI carries from run to run.
 */
export function learnedTimesFile(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const named = env[LEARNED_TIMES_VARIABLE];
  if (named) return named === 'off' ? undefined : named;
  return env.CONTRACT_REPORTS === '1' && env.CONTRACT_REPORT_HISTORY !== 'off' ? LEARNED_TIMES_FILE : undefined;
}

/** What one run learned, per transition: the intervals its effects came in (ConsistencyHistory). */
export interface KeptTimes {
  /** The base URL of the target they were learned from: another target's times say nothing. */
  target: string;
  /** When the run kept them (ISO 8601). */
  at: string;
  times: Record<string, EffectTime[]>;
  /**
   * Per client (`clientKey`) and list path, the page where the run's waits last found a record new
   * to the list: where the next run's glances start (support/verbs/consumers.ts).
   */
  newRecords?: Record<string, Record<string, PagePlace>>;
}

/** A client's key in the kept file: a digest of its id, so the file names no client. */
export function clientKey(clientId: string): string {
  return createHash('sha256').update(clientId).digest('hex').slice(0, 16);
}

function isEffectTime(value: unknown): value is EffectTime {
  const { after, by } = (typeof value === 'object' && value !== null ? value : {}) as Partial<EffectTime>;
  return after !== undefined && by !== undefined && Number.isFinite(after) && Number.isFinite(by) && after <= by;
}

function isPagePlace(value: unknown): value is PagePlace {
  if (!isRecord(value) || typeof value.end !== 'boolean' || !isRecord(value.at)) return false;
  const { url, query } = value.at;
  return typeof url === 'string' || (isRecord(query) && Object.values(query).every((each) => typeof each === 'string'));
}

/**
 * The times an earlier run kept in `file` for `target`; undefined when there are none, they are
 * another target's, or the file cannot be read as such (said once: the run then starts from nothing,
 * as it would have without the file).
 */
export function earlierTimes(file: string, target: string): KeptTimes | undefined {
  if (!existsSync(file)) return undefined;
  try {
    const kept = JSON.parse(readFileSync(file, 'utf8')) as Partial<KeptTimes>;
    if (kept.target !== target) return undefined;
    const times = Object.entries(kept.times ?? {});
    if (typeof kept.at !== 'string' || times.length === 0 || !times.every(([, each]) => Array.isArray(each) && each.every(isEffectTime))) throw new Error('not the times a run keeps');
    const lists = Object.values(kept.newRecords ?? {});
    if (!lists.every((places) => isRecord(places) && Object.values(places).every(isPagePlace))) throw new Error('not the pages a run keeps');
    return { target, at: kept.at, times: Object.fromEntries(times), newRecords: kept.newRecords ?? {} };
  } catch (error) {
    console.warn(`contract: ${file} is not what an earlier run keeps (${(error as Error).message}); the waits learn the target's times from nothing. Delete the file to silence this.`);
    return undefined;
  }
}

/** A page asked for with a secret in it (a next link that carries the access token, as some APIs' do) is not kept. */
function carriesNoSecret(place: PagePlace): boolean {
  const text = JSON.stringify(place);
  return redactText(text) === text;
}

/** Keeps what this run learned of `target` in `file` for the next run, replacing what was there. */
export function keepTimes(file: string, target: string, times: Record<string, EffectTime[]>, newRecords: Record<string, Record<string, PagePlace>> = {}): void {
  if (Object.keys(times).length === 0) return;
  mkdirSync(dirname(file), { recursive: true });
  const pages = Object.fromEntries(Object.entries(newRecords).map(([client, places]) => [client, Object.fromEntries(Object.entries(places).filter(([, place]) => carriesNoSecret(place)))]));
  const kept: KeptTimes = { target, at: new Date().toISOString(), times, newRecords: pages };
  writeFileSync(file, `${JSON.stringify(kept)}\n`);
}
