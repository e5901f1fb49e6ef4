// The setting that keys the person ids of list entries differently (SIMULATOR_ENTRY_KEYS=personGedi):
// a subscribed person's or consumer's gedi as `personGedi`, a legal id as `nin`, at any depth of
// the entry, as a service with names of its own may answer.
import type { ResponseLayout } from './layout.js';

const RENAMED: Record<string, string> = { gedi: 'personGedi', legalId: 'nin' };

function rekeyed(entry: unknown): unknown {
  if (Array.isArray(entry)) return entry.map(rekeyed);
  if (typeof entry !== 'object' || entry === null) return entry;
  return Object.fromEntries(Object.entries(entry).map(([key, value]) => [RENAMED[key] ?? key, rekeyed(value)]));
}

/** The layout with its consumer and subscription entries keyed `personGedi` and `nin`. */
export function keyedByPersonGedi(layout: ResponseLayout): ResponseLayout {
  return {
    ...layout,
    consumer: (view) => rekeyed(layout.consumer(view)),
    subscription: (view) => rekeyed(layout.subscription(view)),
  };
}
