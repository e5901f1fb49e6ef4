// The setting that puts no gedi in records (SIMULATOR_RECORDS_WITHOUT_GEDI): any layout's person
// records, find answers and list items without a field that holds a gedi, as a v3 service that
// dropped `person.gedi` may answer. The PUT answer keeps its gedi: the documentation promises it.
import type { Reply, ResponseLayout } from './layout.js';

type IsGedi = (value: string) => boolean;

const isObject = (value: unknown): value is object => typeof value === 'object' && value !== null;

/** `body` without a `gedi` key or a value that is a gedi, nor an object that leaves empty (`merged: { gedi }`). */
function withoutGedis(body: unknown, isGedi: IsGedi): unknown {
  const named = (value: unknown): boolean => typeof value === 'string' && isGedi(value);
  if (Array.isArray(body)) return body.filter((value) => !named(value)).map((value) => withoutGedis(value, isGedi));
  if (!isObject(body)) return body;
  return Object.fromEntries(
    Object.entries(body).flatMap(([key, value]) => {
      if (key === 'gedi' || named(value)) return [];
      const kept = withoutGedis(value, isGedi);
      const emptied = isObject(kept) && Object.keys(kept).length === 0 && Object.keys(value as object).length > 0;
      return emptied ? [] : [[key, kept]];
    }),
  );
}

/** The layout with every record it renders stripped of gedis; statuses, paging and the rest as they are. */
export function withoutGedi(layout: ResponseLayout, isGedi: IsGedi): ResponseLayout {
  const strip = (reply: Reply): Reply => ({ ...reply, body: withoutGedis(reply.body, isGedi) });
  return {
    ...layout,
    person: (view) => strip(layout.person(view)),
    pending: (gedi) => strip(layout.pending(gedi)),
    found: (views, echo, query) => strip(layout.found(views, echo, query)),
    consumer: (view) => withoutGedis(layout.consumer(view), isGedi),
    subscription: (view) => withoutGedis(layout.subscription(view), isGedi),
  };
}
