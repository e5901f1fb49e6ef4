// The honest options: answers that put a documented fact somewhere else and keep every promise. Each is
// shown answering as simulator/README.md says in every layout, with the server's own facts in it (a
// mutant that skips a transition shows in the computed place, never hidden by what the client sent).
import { describe, expect, it } from 'vitest';
import type { Layout } from '../../simulator/options.js';
import {
  CONSUMERS,
  findPath,
  PERSONS,
  personPath,
  screeningPath,
  SUBSCRIPTIONS,
  withHarness,
  type Harness,
} from './harness.js';

const LAYOUTS: Layout[] = ['standard', 'alternate', 'vendor'];
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- bodies are inspected freely
type Json = Record<string, any>;

/** The person record of an operation 3 answer, and a subscription entry's. */
const recordOf: Record<Layout, { person(body: Json): Json; entry(entry: Json): Json; fields(record: Json): Json }> = {
  standard: { person: (body) => body, entry: (entry) => entry, fields: (record) => record },
  alternate: { person: (body) => body.data, entry: (entry) => entry.person, fields: (record) => record.attributes },
  vendor: { person: (body) => body, entry: (entry) => entry, fields: (record) => record },
};
const LIST_KEYS: Record<Layout, string> = { standard: 'items', alternate: 'data', vendor: 'persons' };

async function put(h: Harness, json: unknown): Promise<string> {
  const { body } = await h.request('PUT', PERSONS, { token: await h.token(), json });
  return body.gedi ?? body.data.gedi;
}

async function readRecord(h: Harness, layout: Layout, gedi: string): Promise<Json> {
  const answer = await h.request('GET', personPath(gedi), { token: await h.token() });
  expect(answer.status).toBe(200);
  return recordOf[layout].person(answer.body);
}

const find = async (h: Harness, legalId: string) =>
  h.request('POST', findPath(), { token: await h.token(), json: { legalId } });

/** A settled person with a consumer of its legal id uploaded and settled: its subscription entry. */
async function subscriptionEntry(h: Harness, layout: Layout, person: Json): Promise<Json> {
  await put(h, person);
  h.settle();
  await h.request('POST', CONSUMERS, {
    token: await h.token(),
    json: [{ consumerId: `c-${person.id}`, market: 'SE', data: { legalId: person.legalId } }],
  });
  h.settle();
  const { body } = await h.request('GET', SUBSCRIPTIONS, { token: await h.token() });
  return recordOf[layout].entry(body[LIST_KEYS[layout]][0]);
}

/** Flat flags a layout shows beside or instead of its status. */
const flatFlags = (layout: Layout, record: Json) => {
  const fields = recordOf[layout].fields(record);
  return { removed: fields.removed, deregistered: fields.deregistered };
};

describe.each(LAYOUTS)('statusForm, the %s layout', (layout) => {
  it('sparse: the status lists only the true marks, and no flat flag is shown', () =>
    withHarness({ layout, statusForm: 'sparse' }, async (h) => {
      const person = h.person();
      const gedi = await put(h, person);
      h.settle();
      const plain = await readRecord(h, layout, gedi);
      expect(plain.status).toEqual({ active: true });
      expect(flatFlags(layout, plain)).toEqual({ removed: undefined, deregistered: undefined });
      await put(h, { ...person, deregistered: true, deregisteredReason: 'Emigrated' });
      h.settle();
      expect((await readRecord(h, layout, gedi)).status).toEqual({ deregistered: true });
      const other = h.person();
      const removed = await put(h, other);
      await h.request('DELETE', PERSONS, { token: await h.token(), json: { ...other, removed: true } });
      h.settle();
      expect((await readRecord(h, layout, removed)).status).toEqual({ removed: true });
      const target = await put(h, h.person());
      const merged = await put(h, h.person({ merged: { gedi: target } }));
      h.settle();
      expect((await readRecord(h, layout, merged)).status).toEqual({ merged: true });
    }));

  it('sparse with requestCopyInRecords: the marks sent are in lastWrite, the state in status', () =>
    withHarness({ layout, statusForm: 'sparse', requestCopyInRecords: true }, async (h) => {
      const person = h.person({ deregistered: true, deregisteredReason: 'Emigrated' });
      const gedi = await put(h, person);
      h.settle();
      const record = await readRecord(h, layout, gedi);
      expect(record.status).toEqual({ deregistered: true });
      expect(record.lastWrite).toEqual(person);
    }));

  it('sparse under deregistered-dropped: the status says active, only the copy says deregistered', () =>
    withHarness(
      { layout, statusForm: 'sparse', mutant: 'deregistered-dropped', requestCopyInRecords: true },
      async (h) => {
        const person = h.person({ deregistered: true });
        const gedi = await put(h, person);
        h.settle();
        const record = await readRecord(h, layout, gedi);
        expect(record.status).toEqual({ active: true });
        expect(record.lastWrite.deregistered).toBe(true);
      },
    ));

  it('word: one word, REMOVED over DEREGISTERED over ACTIVE, in operation 3, _find and the subscriptions', () =>
    withHarness({ layout, statusForm: 'word' }, async (h) => {
      const person = h.person();
      const entry = await subscriptionEntry(h, layout, person);
      expect(entry.status).toBe('ACTIVE');
      const found = (await find(h, person.legalId)).body;
      expect((layout === 'vendor' ? found : (found.results ?? found.data)[0]).status).toBe('ACTIVE');
      expect((await find(h, h.freshLegalId())).status).toBe(
        layout === 'alternate' ? 404 : layout === 'vendor' ? 204 : 200,
      );
      const gedi = await put(h, { ...person, deregistered: true });
      h.settle();
      const deregistered = await readRecord(h, layout, gedi);
      expect(deregistered.status).toBe('DEREGISTERED');
      expect(flatFlags(layout, deregistered)).toEqual({ removed: undefined, deregistered: undefined });
      await h.request('DELETE', PERSONS, {
        token: await h.token(),
        json: { ...person, deregistered: true, removed: true },
      });
      h.settle();
      expect((await readRecord(h, layout, gedi)).status).toBe('REMOVED');
      const target = await put(h, h.person());
      const merged = await put(h, h.person({ merged: { gedi: target } }));
      h.settle();
      expect((await readRecord(h, layout, merged)).status).toBe('MERGED');
    }));
});

describe.each(LAYOUTS)('relationsAsSent, the %s layout', (layout) => {
  const relative = (h: Harness, marks: Json) => ({
    hierarchicalRelationship: 'Parent',
    legalId: { socialSecurityNumber: h.freshLegalId() },
    firstNames: ['Old'],
    dateOfBirth: '1930-01-01',
    ...marks,
  });
  /** The computed entry's marks: the standard and alternate `relations` entry's, the vendor's `status`. */
  const computed = (record: Json) => {
    const [entry] = recordOf[layout].fields(record).relations ?? record.relations;
    return layout === 'vendor' ? entry.status : { deceased: entry.deceased, deregistered: entry.deregistered };
  };

  it.each([
    [undefined, { deceased: true, deregistered: true }],
    ['relationship-death-ignored', { deceased: false, deregistered: true }],
    ['relationship-deregistration-ignored', { deceased: true, deregistered: false }],
  ] as const)('mutant %s: the list as sent beside the relations as computed', (mutant, marks) =>
    withHarness({ layout, relationsAsSent: true, ...(mutant ? { mutant } : {}) }, async (h) => {
      const sent = [relative(h, { dateOfDeath: '2020-05-01', deregistered: true })];
      const gedi = await put(h, h.person({ relationshipList: sent }));
      h.settle();
      const record = await readRecord(h, layout, gedi);
      expect(recordOf[layout].fields(record).relationshipList).toEqual(sent);
      expect(computed(record)).toEqual(marks);
      if (layout !== 'vendor')
        expect(recordOf[layout].fields(record).relations[0].legalId).toBe(sent[0].legalId.socialSecurityNumber);
    }),
  );
});

describe.each(LAYOUTS)('screeningPerList, the %s layout', (layout) => {
  const lists = (body: Json): Json[] =>
    layout === 'standard' ? body.matches : layout === 'alternate' ? body.data.hits : body.screeningResult.matches;
  const screen = async (h: Harness, reference: string) =>
    (
      await h.request('POST', screeningPath(reference.startsWith('person') ? 'person' : 'company'), {
        token: await h.token(),
        json: { reference, provider: 'SANDBOX-AML' },
      })
    ).body;

  it('answers one entry per list, the PEP entry holding the politician', () =>
    withHarness({ layout, screeningPerList: true }, async (h) => {
      const [pep, sanction, rca] = lists(await screen(h, 'person_test_case_01'));
      expect(pep).toMatchObject({ listType: 'PEP', numberOfMatches: 1 });
      expect(pep.matches).toHaveLength(1);
      expect(JSON.stringify(pep.matches)).toContain('Test Politician');
      expect(sanction).toEqual({ listType: 'SANCTION', numberOfMatches: 0, matches: [] });
      expect(rca).toEqual({ listType: 'RCA', numberOfMatches: 0, matches: [] });
      const company = lists(await screen(h, 'company_test_case_02'));
      expect(company.find((entry) => entry.listType === 'SANCTION')).toMatchObject({ numberOfMatches: 1 });
    }));

  it('person-case-without-hit: the PEP entry counts no match', () =>
    withHarness({ layout, screeningPerList: true, mutant: 'person-case-without-hit' }, async (h) => {
      const [pep] = lists(await screen(h, 'person_test_case_01'));
      expect(pep).toEqual({ listType: 'PEP', numberOfMatches: 0, matches: [] });
    }));
});

describe.each(LAYOUTS)('findEcho searchParameters, the %s layout', (layout) => {
  it('wraps the persons found beside the query, and answers 200 with no result when none matches', () =>
    withHarness({ layout, findEcho: 'searchParameters' }, async (h) => {
      const person = h.person();
      const gedi = await put(h, person);
      h.settle();
      const found = await find(h, person.legalId);
      expect(found.status).toBe(200);
      expect(Object.keys(found.body).sort()).toEqual(['results', 'searchParameters']);
      expect(found.body.searchParameters).toEqual({ legalId: person.legalId });
      expect(found.body.results).toEqual([await readRecord(h, layout, gedi)]);
      const none = await find(h, h.freshLegalId());
      expect(none.status).toBe(200);
      expect(none.body).toEqual({ results: [], searchParameters: { legalId: none.body.searchParameters.legalId } });
    }));

  it('find-ignores-legal-id still shows in the results', () =>
    withHarness({ layout, findEcho: 'searchParameters', mutant: 'find-ignores-legal-id' }, async (h) => {
      await put(h, h.person());
      h.settle();
      const asked = h.freshLegalId();
      const found = await find(h, asked);
      expect(found.body.results).toHaveLength(1);
      expect(found.body.searchParameters).toEqual({ legalId: asked });
    }));
});

describe.each(LAYOUTS)('statedPageSize, the %s layout', (layout) => {
  /** The query of the page after `body`, or undefined where the page names none. */
  const nextQuery = (body: Json): string | undefined => {
    if (layout === 'standard') return body.next === undefined ? undefined : new URL(body.next).search;
    if (layout === 'alternate')
      return body.meta.nextCursor === undefined ? undefined : `?cursor=${body.meta.nextCursor}&limit=2`;
    return body.nextPageToken === undefined ? undefined : `?pageToken=${body.nextPageToken}&pageSize=2`;
  };

  it.each([
    ['consumers', CONSUMERS, { standard: 'items', alternate: 'data', vendor: 'consumers' }],
    ['subscriptions', SUBSCRIPTIONS, LIST_KEYS],
  ] as const)('%s: each page states its size; a full last page names no next page', (_list, path, keys) =>
    withHarness({ layout, statedPageSize: true, backgroundRecords: 4, pageSize: 2 }, async (h) => {
      const token = await h.token();
      const first = (await h.request('GET', path, { token })).body;
      expect(first.pageSize).toBe(2);
      expect(first[keys[layout]]).toHaveLength(2);
      const query = nextQuery(first);
      expect(query).toBeDefined();
      const last = await h.request('GET', `${path}${query}`, { token });
      expect(last.body.pageSize).toBe(2);
      expect(last.body[keys[layout]]).toHaveLength(2);
      expect(nextQuery(last.body)).toBeUndefined();
      expect(JSON.stringify(last.body)).not.toMatch(/"next(PageToken|Cursor)?":/);
      expect(last.headers.get('link')).toBeNull();
    }),
  );

  it('page-number and offset paging state the size too', async () => {
    for (const paging of ['page-number', 'offset'] as const)
      await withHarness({ layout, paging, statedPageSize: true, backgroundRecords: 4, pageSize: 2 }, async (h) => {
        const { body } = await h.request('GET', SUBSCRIPTIONS, { token: await h.token() });
        expect(body.pageSize).toBe(2);
      });
  });
});
