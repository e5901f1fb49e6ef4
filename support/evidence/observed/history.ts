// Owns the observed contract over nights: each run's contract is kept beside the Allure history
// (reports/history/observed/, which CI carries from one nightly to the next), compared with the one
// before it, and its time to consistency drawn as a trend chart, so a sandbox that slows down is
// seen before it breaks a deadline.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as echarts from 'echarts';
import { redactText } from '../../transport/redact.js';
import type { ObservedContract } from './model.js';

export interface KeptContract {
  at: string;
  contract: ObservedContract;
}

export function keptContracts(dir: string): KeptContract[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as KeptContract);
}

/** Keeps this run's contract, the `limit` newest in all. */
export function keepContract(dir: string, kept: KeptContract, limit: number): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${kept.at.replace(/[:.]/g, '-')}.json`), redactText(`${JSON.stringify(kept)}\n`));
  const names = readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort();
  for (const name of names.slice(0, Math.max(0, names.length - limit))) rmSync(join(dir, name));
}

/**
 * What changed from the previous run to this one: statuses, media types, response keys, paging, token lifetime, the
 * status of early reads.
 */
export function changesSince(previous: ObservedContract, current: ObservedContract): string[] {
  const changes: string[] = [];
  const key = (operation: string, purpose: string) => `${operation} "${purpose}"`;
  const before = new Map(previous.cases.map((observed) => [key(observed.operation, observed.purpose), observed]));
  for (const observed of current.cases) {
    const was = before.get(key(observed.operation, observed.purpose));
    if (!was) continue;
    const statuses = Object.keys(observed.statuses).sort().join(', ');
    const earlier = Object.keys(was.statuses).sort().join(', ');
    if (statuses !== earlier)
      changes.push(`${key(observed.operation, observed.purpose)}: statuses ${earlier} → ${statuses}`);
    for (const [status, seen] of Object.entries(observed.statuses)) {
      const keysNow = Object.keys((seen.schema?.properties as Record<string, unknown> | undefined) ?? {});
      const keysThen = Object.keys(
        (was.statuses[status]?.schema?.properties as Record<string, unknown> | undefined) ?? {},
      );
      const mediaNow = (seen.headers['content-type'] ?? []).join(', ');
      const mediaThen = (was.statuses[status]?.headers['content-type'] ?? []).join(', ');
      if (was.statuses[status] && mediaNow !== mediaThen)
        changes.push(
          `${key(observed.operation, observed.purpose)} ${status}: Content-Type ${mediaThen || 'none'} → ` +
            `${mediaNow || 'none'}`,
        );
      if (!was.statuses[status] || keysThen.length === 0) continue;
      const added = keysNow.filter((name) => !keysThen.includes(name));
      const gone = keysThen.filter((name) => !keysNow.includes(name));
      const fieldChanges = [
        added.length ? `new fields ${added.join(', ')}` : '',
        gone.length ? `fields no longer seen ${gone.join(', ')}` : '',
      ].filter(Boolean);
      if (fieldChanges.length)
        changes.push(`${key(observed.operation, observed.purpose)} ${status}: ${fieldChanges.join('; ')}`);
    }
    if ((observed.paging ?? '') !== (was.paging ?? ''))
      changes.push(
        `${key(observed.operation, observed.purpose)}: paging ${was.paging ?? 'one page'} → ` +
          `${observed.paging ?? 'one page'}`,
      );
  }
  // Contracts kept before early reads were recorded have none to compare.
  const earlier = (previous.earlyReads as ObservedContract['earlyReads'] | undefined) ?? {};
  for (const [transition, early] of Object.entries(current.earlyReads)) {
    const then = Object.keys(earlier[transition]?.statuses ?? {})
      .sort()
      .join(', ');
    const now = Object.keys(early.statuses).sort().join(', ');
    if (earlier[transition] && then !== now)
      changes.push(`reads before the ${transition} showed: ${then || 'none'} → ${now || 'none'}`);
  }
  if (previous.tokenLifetimesS.join() !== current.tokenLifetimesS.join())
    changes.push(
      `token lifetime ${previous.tokenLifetimesS.join(', ') || '?'} s → ` +
        `${current.tokenLifetimesS.join(', ') || '?'} s`,
    );
  return changes;
}

/** An SVG chart of p50 time to consistency per transition over the kept runs. */
export function trendChart(kept: KeptContract[]): string {
  const transitions = [...new Set(kept.flatMap((entry) => Object.keys(entry.contract.timings)))].sort();
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width: 900, height: 420 });
  try {
    chart.setOption({
      animation: false,
      title: { text: 'Time to consistency, p50 per transition (ms)' },
      legend: { top: 30, data: transitions },
      grid: { top: 80 },
      xAxis: { type: 'category', data: kept.map((entry) => entry.at.slice(0, 16).replace('T', ' ')) },
      yAxis: { type: 'value', name: 'ms' },
      series: transitions.map((transition) => ({
        name: transition,
        type: 'line',
        data: kept.map((entry) => entry.contract.timings[transition]?.p50Ms ?? null),
      })),
    });
    return chart.renderToSVGString();
  } finally {
    chart.dispose();
  }
}
