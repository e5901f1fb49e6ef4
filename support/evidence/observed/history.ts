// Owns writing reports/observed/ and keeping each run's contract in reports/history/observed/ (CI carries it between
// nightlies): compared with the last one, and charted so a sandbox that slows down is seen before it breaks a deadline.
import { globSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as echarts from 'echarts';
import type { OperationPaths } from '../../run/config.js';
import type { reportPaths } from '../../run/paths.js';
import { redactText } from '../../transport/redact.js';
import {
  buildContract,
  readObservationLines,
  type ListCost,
  type ObservedContract,
  type StatusObservation,
} from './model.js';
import { observedOpenApi } from './openapi.js';
import { renderObservedPage } from './page.js';

type KeptContract = { at: string; contract: ObservedContract };

const keptNames = (dir: string): string[] => globSync('*.json', { cwd: dir }).sort();

export const keptContracts = (dir: string): KeptContract[] =>
  keptNames(dir).map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as KeptContract);

/** Keeps this run's contract, the `limit` newest in all. */
export function keepContract(dir: string, kept: KeptContract, limit: number): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${kept.at.replace(/[:.]/g, '-')}.json`), redactText(`${JSON.stringify(kept)}\n`));
  const names = keptNames(dir);
  for (const name of names.slice(0, Math.max(0, names.length - limit))) rmSync(join(dir, name));
}

const listOf = (values: Record<string, unknown> | undefined): string =>
  Object.keys(values ?? {})
    .sort()
    .join(', ');

const contentTypes = (seen: StatusObservation): string => seen.headers['content-type']?.join(', ') || 'none';

const pagesOf = ({ longestWholeRead }: ListCost): string => `${longestWholeRead} page(s)`;

/** What changed from the previous run to this one, per kind of request and overall. */
export function changesSince(previous: ObservedContract, current: ObservedContract): string[] {
  const changes: string[] = [];
  const compare = <T>(what: string, sides: T[], show: (side: T) => string) => {
    const [then, now] = sides.map(show);
    if (then !== now) changes.push(`${what} ${then} → ${now}`);
  };
  for (const observed of current.cases) {
    const kind = `${observed.operation} "${observed.purpose}"`;
    const was = previous.cases.find((old) => old.operation === observed.operation && old.purpose === observed.purpose);
    if (!was) continue;
    compare(`${kind}: statuses`, [was, observed], (side) => listOf(side.statuses));
    for (const [status, seen] of Object.entries(observed.statuses)) {
      const before = was.statuses[status];
      if (!before) continue;
      compare(`${kind} ${status}: Content-Type`, [before, seen], contentTypes);
      const [keysThen, keysNow] = [before, seen].map((side) => Object.keys(side.schema?.properties ?? {}));
      const added = keysNow.filter((name) => !keysThen.includes(name)).join(', ');
      const gone = keysThen.filter((name) => !keysNow.includes(name)).join(', ');
      const fields = [added && `new fields ${added}`, gone && `fields no longer seen ${gone}`].filter(Boolean);
      if (keysThen.length && fields.length) changes.push(`${kind} ${status}: ${fields.join('; ')}`);
    }
    compare(`${kind}: paging`, [was, observed], (side) => side.paging ?? 'one page');
  }
  // Contracts kept before list reads were counted have none to compare.
  for (const list of current.lists) {
    const was = previous.lists?.find((old) => old.operation === list.operation && old.purpose === list.purpose);
    if (was) compare(`${list.operation} "${list.purpose}": longest read to the end`, [was, list], pagesOf);
  }
  // Contracts kept before early reads were recorded have none to compare.
  for (const [transition, early] of Object.entries(current.earlyReads)) {
    const then = previous.earlyReads?.[transition];
    if (then)
      compare(`reads before the ${transition} showed:`, [then, early], (side) => listOf(side.statuses) || 'none');
  }
  compare('token lifetime', [previous, current], (side) => `${side.tokenLifetimesS.join(', ') || '?'} s`);
  return changes;
}

/** An SVG chart of p50 time to consistency per transition over the kept runs: by the first read that saw it. */
export function trendChart(kept: KeptContract[]): string {
  const transitions = [...new Set(kept.flatMap((entry) => Object.keys(entry.contract.timings)))].sort();
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width: 900, height: 420 });
  chart.setOption({
    animation: false,
    title: { text: 'Time to consistency, p50 per transition: seen by (ms)' },
    legend: { top: 30, data: transitions },
    grid: { top: 80 },
    xAxis: { type: 'category', data: kept.map((entry) => entry.at.slice(0, 16).replace('T', ' ')) },
    yAxis: { type: 'value', name: 'ms' },
    series: transitions.map((transition) => ({
      name: transition,
      type: 'line',
      // A contract kept before timings were intervals has no `p50`: a gap.
      data: kept.map((entry) => entry.contract.timings[transition]?.p50?.byMs ?? null),
    })),
  });
  const svg = chart.renderToSVGString();
  chart.dispose();
  return svg;
}

/**
 * Writes the run's observed folder from its observation lines and returns the contract; `keep` (off for self-checks)
 * keeps it in the history.
 */
export function writeObservedContract(
  cwd: string,
  folders: Pick<ReturnType<typeof reportPaths>, 'observed' | 'observedHistory'>,
  paths: OperationPaths,
  keep: boolean,
  historyLimit: number,
): ObservedContract {
  const dir = resolve(cwd, folders.observed);
  const historyDir = resolve(cwd, folders.observedHistory);
  mkdirSync(dir, { recursive: true });
  const contract = buildContract(readObservationLines(dir));
  const earlier = keptContracts(historyDir);
  const previous = earlier.at(-1);
  const now = { at: new Date().toISOString(), contract };
  // Bodies were redacted when published; each document passes redaction once more as text (secrets, credentials).
  const write = (name: string, text: string) => writeFileSync(join(dir, name), redactText(text));
  const openapi = observedOpenApi(contract, join(cwd, 'schemas'), paths);
  write('openapi.json', `${JSON.stringify(openapi, null, 2)}\n`);
  write('timings.json', `${JSON.stringify(contract.timings, null, 2)}\n`);
  write('observed-contract.md', renderObservedPage(contract, previous && changesSince(previous.contract, contract)));
  writeFileSync(join(dir, 'time-to-consistency.svg'), trendChart([...earlier, now]));
  if (keep) keepContract(historyDir, now, historyLimit);
  return contract;
}
