// The options and mutants that reproduce the answers a generous reading mistakes for evidence: a body
// stored as sent, a copy of the request in records, placeholders, entries keyed differently,
// screening entries that deny, a page behind an unknown marker, a refused list, a query repeated
// beside empty results. Each is shown answering as simulator/README.md says, in every layout.
import { describe, expect, it } from 'vitest';
import type { MutantName } from '../../simulator/mutants.js';
import type { Layout } from '../../simulator/options.js';
import {
  CONSUMERS,
  findPath,
  PERSONS,
  personPath,
  screeningPath,
  SUBSCRIPTIONS,
  withHarness,
  type Answer,
  type Harness,
  type HarnessOptions,
} from './harness.js';

const LAYOUTS: Layout[] = ['standard', 'alternate', 'vendor'];
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- bodies are inspected freely
type Json = Record<string, any>;

/** The person record of an operation 3 answer, a find answer's first person, a subscription entry's person. */
const recordOf: Record<Layout, { person(body: Json): Json; found(body: Json): Json; entry(entry: Json): Json }> = {
  standard: { person: (body) => body, found: (body) => body.results[0], entry: (entry) => entry },
  alternate: { person: (body) => body.data, found: (body) => body.data[0], entry: (entry) => entry.person },
  vendor: { person: (body) => body, found: (body) => body, entry: (entry) => entry },
};
const LIST_KEYS: Record<Layout, string> = { standard: 'items', alternate: 'data', vendor: 'persons' };

/** The gedi the PUT answers (the alternate layout's under `data`). */
async function put(h: Harness, json: unknown): Promise<string> {
  const { body } = await h.request('PUT', PERSONS, { token: await h.token(), json });
  return body.gedi ?? body.data.gedi;
}

const read = async (h: Harness, gedi: string): Promise<Answer> =>
  h.request('GET', personPath(gedi), { token: await h.token() });

async function upload(h: Harness, consumerId: string, legalId: string) {
  await h.request('POST', CONSUMERS, {
    token: await h.token(),
    json: [{ consumerId, market: 'SE', data: { legalId } }],
  });
}

/** A settled person with a consumer of its legal id uploaded and settled. */
async function subscribed(h: Harness, consumerId: string) {
  const person = h.person();
  const gedi = await put(h, person);
  h.settle();
  await upload(h, consumerId, person.legalId);
  h.settle();
  return { person, gedi };
}

const subscriptionPage = async (h: Harness, path = SUBSCRIPTIONS) => h.request('GET', path, { token: await h.token() });

describe('storeAsSent', () => {
  it.each([
    ['flat', (body: Json) => body],
    ['person', (body: Json) => body.person],
    ['data', (body: Json) => body.data],
  ] as const)('answers operation 3 with the body as sent, %s', async (form, record) =>
    withHarness({ storeAsSent: form }, async (h) => {
      const person = h.person({ deregistered: true, deregisteredReason: 'Emigrated' });
      const gedi = await put(h, person);
      h.settle();
      expect(record((await read(h, gedi)).body)).toEqual({ ...person, gedi });
      await h.request('DELETE', PERSONS, { token: await h.token(), json: { ...person, removed: true } });
      h.settle();
      expect(record((await read(h, gedi)).body)).toEqual({ ...person, removed: true, gedi });
    }),
  );

  it('answers the body under attributes beside the gedi', () =>
    withHarness({ storeAsSent: 'attributes', layout: 'vendor' }, async (h) => {
      const person = h.person();
      const gedi = await put(h, person);
      h.settle();
      expect((await read(h, gedi)).body).toEqual({ gedi, attributes: person });
    }));
});

describe.each(LAYOUTS)('requestCopyInRecords, the %s layout', (layout) => {
  it('puts the last body as sent under lastWrite in operation 3, _find and the subscription entries', () =>
    withHarness({ layout, requestCopyInRecords: true }, async (h) => {
      const { person, gedi } = await subscribed(h, 'copy-1');
      expect(recordOf[layout].person((await read(h, gedi)).body).lastWrite).toEqual(person);
      const found = await h.request('POST', findPath(), { token: await h.token(), json: { legalId: person.legalId } });
      expect(recordOf[layout].found(found.body).lastWrite).toEqual(person);
      const [entry] = (await subscriptionPage(h)).body[LIST_KEYS[layout]];
      expect(recordOf[layout].entry(entry).lastWrite).toEqual(person);
    }));
});

/** The person's own record, without its copy of the request, in JSON. */
const ownRecord = (record: Json): string => JSON.stringify({ ...record, lastWrite: undefined });

describe.each(LAYOUTS)('the mutants that apply a transition only in the copy, the %s layout', (layout) => {
  const relative = { hierarchicalRelationship: 'Parent', firstNames: ['Old'], dateOfBirth: '1930-01-01' };
  it.each<[MutantName, (h: Harness, target: string) => Json, RegExp]>([
    ['deregistered-only-in-copy', (h) => h.person({ deregistered: true, deregisteredReason: 'Emigrated' }), /Emigrat/],
    ['merge-only-in-copy', (h, target) => h.person({ merged: { gedi: target } }), /merged":(true|\{)|MERGED/],
    [
      'relationship-death-only-in-copy',
      (h) => h.person({ relationshipList: [{ ...relative, dateOfDeath: '2020-05-01' }] }),
      /2020-05-01|"deceased":true/,
    ],
    [
      'relationship-deregistration-only-in-copy',
      (h) => h.person({ relationshipList: [{ ...relative, deregistered: true }] }),
      /"deregistered":true/,
    ],
  ])('%s: the copy holds the marks as sent, the record none', (mutant, body, mark) =>
    withHarness({ layout, mutant }, async (h) => {
      const target = await put(h, h.person());
      const sent = body(h, target);
      const gedi = await put(h, sent);
      h.settle();
      const record = recordOf[layout].person((await read(h, gedi)).body);
      expect(record.lastWrite).toEqual(sent);
      expect(ownRecord(record)).not.toMatch(mark);
    }),
  );

  it('removed-only-in-copy: the copy holds removed true, the record shows the person not removed', () =>
    withHarness({ layout, mutant: 'removed-only-in-copy' }, async (h) => {
      const person = h.person();
      const gedi = await put(h, person);
      await h.request('DELETE', PERSONS, { token: await h.token(), json: { ...person, removed: true } });
      h.settle();
      const record = recordOf[layout].person((await read(h, gedi)).body);
      expect(record.lastWrite).toEqual({ ...person, removed: true });
      expect(ownRecord(record)).not.toMatch(/"removed":true|REMOVED/);
    }));
});

describe.each(LAYOUTS)('placeholders, the %s layout', (layout) => {
  const placeholder: Record<Layout, (gedi: string) => Json> = {
    standard: (gedi) => ({ gedi, status: 'PENDING' }),
    alternate: (gedi) => ({ data: { gedi, status: 'PENDING' } }),
    vendor: (gedi) => ({ gedi, status: { active: false, pending: true } }),
  };

  it('placeholdersBeforeAvailable: 200 with a placeholder until the person is available, then the record', () =>
    withHarness({ layout, placeholdersBeforeAvailable: true }, async (h) => {
      const person = h.person();
      const gedi = await put(h, person);
      expect(await read(h, gedi)).toMatchObject({ status: 200, body: placeholder[layout](gedi) });
      h.settle();
      expect(JSON.stringify((await read(h, gedi)).body)).toContain(person.familyName);
      expect((await read(h, 'no-such-gedi')).status).toBe(404);
    }));

  it('placeholders-forever: the placeholder, never the record; _find still finds the person', () =>
    withHarness({ layout, mutant: 'placeholders-forever' }, async (h) => {
      const person = h.person();
      const gedi = await put(h, person);
      h.settle();
      expect((await read(h, gedi)).body).toEqual(placeholder[layout](gedi));
      const found = await h.request('POST', findPath(), { token: await h.token(), json: { legalId: person.legalId } });
      expect(JSON.stringify(found.body)).toContain(person.familyName);
    }));
});

describe.each(LAYOUTS)('entries keyed personGedi and nin, the %s layout', (layout) => {
  const CONSUMER_KEYS: Record<Layout, string> = { standard: 'items', alternate: 'data', vendor: 'consumers' };

  it.each<[string, HarnessOptions]>([
    ['entryKeys: personGedi', { entryKeys: 'personGedi' }],
    ['unsubscribed-listed-as-person-gedi', { mutant: 'unsubscribed-listed-as-person-gedi' }],
  ])('%s: subscription and consumer entries name the person as personGedi and nin', (_name, options) =>
    withHarness({ layout, ...options }, async (h) => {
      const { person, gedi } = await subscribed(h, 'keyed-1');
      const listed = JSON.stringify((await subscriptionPage(h)).body);
      expect(listed).not.toMatch(/"(gedi|legalId)":/);
      if (layout !== 'vendor') expect(listed).toContain(`"personGedi":"${gedi}"`);
      expect(listed).toContain(`"nin":`);
      expect(listed).toContain(person.legalId);
      const [consumer] = (await h.request('GET', CONSUMERS, { token: await h.token() })).body[CONSUMER_KEYS[layout]];
      expect(consumer).toMatchObject({ personGedi: gedi, data: { nin: person.legalId } });
    }),
  );

  it('unsubscribed-listed-as-person-gedi lists a person no consumer identified, keyed personGedi', () =>
    withHarness({ layout, mutant: 'unsubscribed-listed-as-person-gedi' }, async (h) => {
      const unsubscribed = h.person();
      await put(h, unsubscribed);
      await subscribed(h, 'keyed-2');
      expect(JSON.stringify((await subscriptionPage(h)).body)).toContain(unsubscribed.legalId);
    }));
});

describe.each(LAYOUTS)('the person case mutants that list a PEP entry and deny it, the %s layout', (layout) => {
  const screen = (h: Harness) =>
    h.token().then((token) =>
      h.request('POST', screeningPath('person'), {
        token,
        json: { reference: 'person_test_case_01', provider: 'SANDBOX-AML' },
      }),
    );
  const shapes: Record<Layout, Record<string, (body: Json) => unknown>> = {
    standard: {
      'person-case-pep-entries-deny': (body) => body.matches[0].matched,
      'person-case-pep-count-zero': (body) => body.matchCount,
      'person-case-sanctions-lists-pep': (body) => body.matches,
    },
    alternate: {
      'person-case-pep-entries-deny': (body) => body.data.hits[0].status,
      'person-case-pep-count-zero': (body) => body.data.hitCount,
      'person-case-sanctions-lists-pep': (body) => body.data.hits,
    },
    vendor: {
      'person-case-pep-entries-deny': (body) => body.screeningResult.matches[0].status,
      'person-case-pep-count-zero': (body) => body.screeningResult.numberOfMatches,
      'person-case-sanctions-lists-pep': (body) => body.screeningResult.matches,
    },
  };
  const expected: Record<string, unknown> = {
    'person-case-pep-entries-deny': layout === 'standard' ? false : 'NO_MATCH',
    'person-case-pep-count-zero': 0,
    'person-case-sanctions-lists-pep': [expect.objectContaining({ datasets: ['PEP', 'SANCTIONS'] })],
  };

  it.each(Object.keys(expected) as MutantName[])('%s', (mutant) =>
    withHarness({ layout, mutant }, async (h) => {
      const answer = await screen(h);
      expect(shapes[layout][mutant]!(answer.body)).toEqual(expected[mutant]);
      // Every entry still names PEP: as its category, or among its datasets.
      expect(JSON.stringify(answer.body)).toContain('PEP');
    }),
  );
});

describe.each<Layout>(['standard', 'vendor'])('unsubscribed-behind-unknown-marker, the %s layout', (layout) => {
  const [sizeKey, marker] = layout === 'vendor' ? ['pageSize', 'nextPage'] : ['limit', '@odata.nextLink'];

  it('serves a first page full to its stated limit, the unsubscribed person only past the unknown marker', () =>
    withHarness(
      { layout, mutant: 'unsubscribed-behind-unknown-marker', backgroundRecords: 8, pageSize: 5 },
      async (h) => {
        const unsubscribed = h.person();
        await put(h, unsubscribed);
        const { person } = await subscribed(h, 'marker-1');
        const first = (await subscriptionPage(h)).body;
        expect(first[LIST_KEYS[layout]]).toHaveLength(5);
        expect(first[sizeKey]).toBe(5);
        expect(first).not.toHaveProperty(layout === 'vendor' ? 'nextPageToken' : 'next');
        expect(JSON.stringify(first), 'the newest subscription on the first page').toContain(person.legalId);
        expect(JSON.stringify(first)).not.toContain(unsubscribed.legalId);
        const pages = [first];
        expect(first[marker], 'a token, not an address').not.toMatch(/[/?]/);
        for (let next = first[marker]; typeof next === 'string'; next = pages.at(-1)![marker])
          pages.push((await subscriptionPage(h, `${SUBSCRIPTIONS}?skipToken=${next}`)).body);
        expect(JSON.stringify(pages.at(-1))).toContain(unsubscribed.legalId);
      },
    ));
});

describe.each(LAYOUTS)('unknown-subscribed-list-refused, the %s layout', (layout) => {
  it('refuses the subscriptions once a later subscription was shown, until the next upload', () =>
    withHarness({ layout, mutant: 'unknown-subscribed-list-refused' }, async (h) => {
      await upload(h, 'unknown-1', h.freshLegalId());
      h.settle();
      expect((await subscriptionPage(h)).status).toBe(200);
      await subscribed(h, 'later-1');
      expect((await subscriptionPage(h)).status).toBe(200);
      const refused = await subscriptionPage(h);
      expect(refused.status).toBe(400);
      expect(JSON.stringify(refused.body)).toContain('cannot be listed');
      await upload(h, 'later-2', h.freshLegalId());
      expect((await subscriptionPage(h)).status).toBe(200);
    }));
});

describe.each<[Layout, (legalId: string) => Json]>([
  ['standard', (legalId) => ({ legalId, results: [], count: 0 })],
  ['alternate', (legalId) => ({ data: [], meta: { legalId } })],
  ['vendor', (legalId) => ({ results: [], meta: { legalId } })],
])('find-repeats-query-beside-results, the %s layout', (layout, answer) => {
  it('answers the legal id asked for beside empty results', () =>
    withHarness({ layout, mutant: 'find-repeats-query-beside-results' }, async (h) => {
      const person = h.person();
      await put(h, person);
      h.settle();
      const found = await h.request('POST', findPath(), { token: await h.token(), json: { legalId: person.legalId } });
      expect(found).toMatchObject({ status: 200, body: answer(person.legalId) });
    }));
});
