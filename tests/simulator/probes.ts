import type { FactName } from '../../support/layout/layout-file.js';
import { CONSUMERS, findPath, type Harness, PERSONS, personPath, screeningPath, SUBSCRIPTIONS } from './harness.js';

/**
 * One probe per server-side rule of docs/catalogue.json: true when the rule holds on the
 * simulator (standard layout, manual clock). `dependsOn` names the rules a probe needs to observe
 * its own (a probe cannot see a deregistration when persons never become readable), so the mutant
 * matrix lets exactly those probes fail along with the broken rule.
 */
export interface Probe {
  dependsOn: string[];
  holds(h: Harness): Promise<boolean>;
  /**
   * The fact of a layout file that a PUT of a person with these fields leaves: every layout must show it where its
   * layout file says (tests/simulator/layout-files.test.ts), and a person without them must not.
   */
  shows?: { fact: FactName; fields: Record<string, unknown> };
}

const PROVIDER = 'SANDBOX-AML';
const AUTHED = ['auth.token-issued'];
const READS = [...AUTHED, 'person.create-returns-gedi', 'person.eventually-available'];

async function put(h: Harness, body: Record<string, unknown>, clientIndex = 0) {
  return h.request('PUT', PERSONS, { token: await h.token(clientIndex), json: body });
}

async function created(h: Harness, body: Record<string, unknown>): Promise<string> {
  return (await put(h, body)).body?.gedi;
}

async function read(h: Harness, gedi: string) {
  return h.request('GET', personPath(gedi), { token: await h.token() });
}

async function createdAndSettled(h: Harness, body: Record<string, unknown>): Promise<string> {
  const gedi = await created(h, body);
  h.settle();
  return gedi;
}

/** The probe of a relationship rule: a person created with `relative` shows `flag` true on it once settled. */
function relativeProbe(relative: Record<string, unknown>, flag: string): Probe {
  return {
    dependsOn: READS,
    holds: async (h) => {
      const gedi = await createdAndSettled(h, h.person({ relationshipList: [relative] }));
      return (await read(h, gedi)).body?.relationshipList?.[0]?.[flag] === true;
    },
  };
}

/** The probe of a person's own mark: a person created with `fields` reads back `flag` true once settled. */
function markProbe(fact: FactName, fields: Record<string, unknown>, flag: string): Probe {
  return {
    dependsOn: READS,
    shows: { fact, fields },
    holds: async (h) => (await read(h, await createdAndSettled(h, h.person(fields)))).body?.[flag] === true,
  };
}

async function consumerStates(h: Harness, clientIndex = 0): Promise<Map<string, string>> {
  const answer = await h.request('GET', `${CONSUMERS}?limit=1000`, { token: await h.token(clientIndex) });
  return new Map(
    (answer.body?.items ?? []).map((item: { consumerId: string; state: string }) => [item.consumerId, item.state]),
  );
}

type Entry = Record<string, unknown>;

/** A list entry's person ids, under the layout's keys or the personGedi ones. */
const gediOf = (item: Entry) => item.gedi ?? item.personGedi;
const legalIdOf = (item: Entry) => item.legalId ?? item.nin;

/** Every page of the subscribed persons, following `next`, or the `@odata.nextLink` token; `ok`: each answered 200. */
async function subscriptionList(h: Harness, clientIndex = 0): Promise<{ ok: boolean; items: Entry[] }> {
  const token = await h.token(clientIndex);
  const items: Entry[] = [];
  for (let path: string | undefined = `${SUBSCRIPTIONS}?limit=1000`; path !== undefined;) {
    const answer = await h.request('GET', path, { token });
    if (answer.status !== 200) return { ok: false, items };
    items.push(...(answer.body?.items ?? []));
    const { next, '@odata.nextLink': skipToken } = answer.body ?? {};
    if (typeof next === 'string') path = `${new URL(next).pathname}${new URL(next).search}`;
    else path = typeof skipToken === 'string' ? `${SUBSCRIPTIONS}?limit=1000&skipToken=${skipToken}` : undefined;
  }
  return { ok: true, items };
}

async function subscriptions(h: Harness, clientIndex = 0): Promise<Entry[]> {
  return (await subscriptionList(h, clientIndex)).items;
}

async function upload(h: Harness, consumerId: string, legalId: string, clientIndex = 0) {
  return h.request('POST', CONSUMERS, {
    token: await h.token(clientIndex),
    json: [{ consumerId, market: 'SE', data: { legalId } }],
  });
}

/** A person, settled, with a consumer of the same legal id uploaded and settled. */
async function subscribedPerson(h: Harness, consumerId: string) {
  const person = h.person();
  const gedi = await createdAndSettled(h, person);
  await upload(h, consumerId, person.legalId);
  h.settle();
  return { person, gedi };
}

/** A person, settled, that no consumer names, beside a subscribed person uploaded after it. */
async function personNoConsumerNames(h: Harness) {
  const person = h.person();
  const gedi = await createdAndSettled(h, person);
  await subscribedPerson(h, nextConsumerId());
  return { person, gedi };
}

async function screening(h: Harness, subject: 'person' | 'company', reference: string, root = false) {
  const answer = await h.request('POST', screeningPath(subject, root), {
    token: await h.token(),
    json: { reference, provider: PROVIDER },
  });
  const { screeningId: _id, timestamp: _at, ...result } = answer.body ?? {};
  return { status: answer.status, result: JSON.stringify(result) };
}

const clientError = (answer: { status: number }): boolean => answer.status >= 400 && answer.status < 500;
/** HTTP's verdict on a bad body: a client error that is no refusal for want of authentication or permission. */
const verdictOnBody = (answer: { status: number }) => clientError(answer) && ![401, 403].includes(answer.status);

let unique = 0;
const nextConsumerId = () => `probe-c-${(unique += 1)}`;

export const PROBES: Record<string, Probe> = {
  'auth.token-issued': {
    dependsOn: [],
    holds: async (h) => typeof (await h.tokenRequest()).body?.access_token === 'string',
  },
  'auth.wrong-secret-rejected': {
    dependsOn: [],
    holds: async (h) => (await h.tokenRequest(0, undefined, 'wrong-secret')).status === 401,
  },
  'auth.bearer-required': {
    dependsOn: [],
    holds: async (h) => {
      const statuses = await Promise.all(
        [personPath('any'), CONSUMERS, SUBSCRIPTIONS].map(
          async (path) => (await h.request('GET', path, { token: null })).status,
        ),
      );
      return statuses.every((status) => status === 401);
    },
  },
  'person.create-returns-gedi': {
    dependsOn: AUTHED,
    holds: async (h) => typeof (await created(h, h.person())) === 'string',
  },
  'person.eventually-available': {
    dependsOn: ['auth.token-issued', 'person.create-returns-gedi'],
    holds: async (h) => {
      const gedi = await createdAndSettled(h, h.person());
      const answer = await read(h, gedi);
      // A placeholder (the gedi and a status) is not the record: the record names the person too.
      return answer.status === 200 && answer.body.gedi === gedi && typeof answer.body.legalId === 'string';
    },
  },
  'person.find-by-legal-id': {
    dependsOn: READS,
    holds: async (h) => {
      const wanted = h.person();
      await created(h, wanted);
      await created(h, h.person());
      h.settle();
      const answer = await h.request('POST', findPath(), { token: await h.token(), json: { legalId: wanted.legalId } });
      const results: Array<{ legalId: string }> = answer.body?.results ?? [];
      return results.length > 0 && results.every((result) => result.legalId === wanted.legalId);
    },
  },
  'person.update-by-id': {
    dependsOn: READS,
    holds: async (h) => {
      const person = h.person();
      const first = await createdAndSettled(h, person);
      const second = await created(h, { ...person, familyName: 'Updated' });
      h.settle();
      return first === second && (await read(h, first)).body?.familyName === 'Updated';
    },
  },
  'person.first-sample-accepted': {
    dependsOn: AUTHED,
    holds: async (h) => {
      const { firstNames: _names, ...person } = h.person({ firstName: 'Tolvan' });
      return (await put(h, person)).status < 300;
    },
  },
  'transition.deregister': markProbe(
    'person.deregistered',
    { deregistered: true, deregisteredReason: 'Emigrated' },
    'deregistered',
  ),
  'transition.delete': {
    dependsOn: READS,
    holds: async (h) => {
      const person = h.person();
      const gedi = await createdAndSettled(h, person);
      const visibleBefore = (await read(h, gedi)).status === 200;
      await h.request('DELETE', PERSONS, { token: await h.token(), json: { id: person.id } });
      h.settle();
      const found = await h.request('POST', findPath(), { token: await h.token(), json: { legalId: person.legalId } });
      const stillFound = (found.body?.results ?? []).some((result: { gedi: string }) => result.gedi === gedi);
      return visibleBefore && [404, 410].includes((await read(h, gedi)).status) && !stillFound;
    },
  },
  'transition.remove': {
    dependsOn: READS,
    holds: async (h) => {
      const person = h.person();
      const gedi = await createdAndSettled(h, person);
      await h.request('DELETE', PERSONS, { token: await h.token(), json: { ...person, removed: true } });
      h.settle();
      const answer = await read(h, gedi);
      return answer.status === 200 && answer.body.removed === true;
    },
  },
  'transition.merge': {
    dependsOn: READS,
    holds: async (h) => {
      const target = await createdAndSettled(h, h.person());
      const source = await createdAndSettled(h, h.person({ merged: { gedi: target } }));
      return (await read(h, source)).body?.merged?.gedi === target;
    },
  },
  'transition.merge-unknown-rejected': {
    dependsOn: AUTHED,
    holds: async (h) => {
      const answer = await put(h, h.person({ merged: { gedi: 'no-such-gedi' } }));
      return answer.status >= 400 && answer.status < 500;
    },
  },
  'transition.relationship-death': relativeProbe(
    { hierarchicalRelationship: 'Parent', firstNames: ['Old'], dateOfBirth: '1930-01-01', dateOfDeath: '2020-05-01' },
    'deceased',
  ),
  'transition.relationship-deregistered': relativeProbe(
    { hierarchicalRelationship: 'Parent', firstNames: ['Gone'], deregistered: true, deregisteredReason: 'Emigrated' },
    'deregistered',
  ),
  'transition.consumer-identified': {
    dependsOn: AUTHED,
    holds: async (h) => {
      const consumerId = nextConsumerId();
      await subscribedPerson(h, consumerId);
      return (await consumerStates(h)).get(consumerId) === 'IDENTIFIED';
    },
  },
  'transition.subscription-created': {
    dependsOn: ['auth.token-issued', 'person.create-returns-gedi'],
    holds: async (h) => {
      const { gedi } = await subscribedPerson(h, nextConsumerId());
      return (await subscriptions(h)).some((item) => gediOf(item) === gedi);
    },
  },
  'consumer.unknown-not-identified': {
    dependsOn: [...AUTHED, 'consumer.list-contains-uploaded'],
    holds: async (h) => {
      const [consumerId, legalId] = [nextConsumerId(), h.freshLegalId()];
      await upload(h, consumerId, legalId);
      h.settle();
      const state = (await consumerStates(h)).get(consumerId);
      // No subscription names it, as a list read whole (after a later subscription was shown) says.
      await subscribedPerson(h, nextConsumerId());
      await subscriptionList(h);
      const { ok, items } = await subscriptionList(h);
      return state !== undefined && state !== 'IDENTIFIED' && ok && !items.some((item) => legalIdOf(item) === legalId);
    },
  },
  'consumer.list-contains-uploaded': {
    dependsOn: AUTHED,
    holds: async (h) => {
      const consumerId = nextConsumerId();
      await upload(h, consumerId, h.freshLegalId());
      h.settle();
      return (await consumerStates(h)).has(consumerId);
    },
  },
  'consumer.list-uploaded-only': {
    dependsOn: ['auth.token-issued', 'person.create-returns-gedi'],
    holds: async (h) => {
      const { person, gedi } = await personNoConsumerNames(h);
      const answer = await h.request('GET', `${CONSUMERS}?limit=1000`, { token: await h.token() });
      const items: Array<{ gedi?: string; data?: { legalId?: string } }> = answer.body?.items ?? [];
      return (
        answer.status === 200 && !items.some((item) => item.gedi === gedi || item.data?.legalId === person.legalId)
      );
    },
  },
  'subscription.subscribed-only': {
    dependsOn: ['auth.token-issued', 'person.create-returns-gedi'],
    holds: async (h) => {
      const { person, gedi } = await personNoConsumerNames(h);
      return !(await subscriptions(h)).some((item) => gediOf(item) === gedi || legalIdOf(item) === person.legalId);
    },
  },
  'subscription.latest-version': {
    dependsOn: [
      'auth.token-issued',
      'person.create-returns-gedi',
      'person.update-by-id',
      'transition.subscription-created',
    ],
    holds: async (h) => {
      const { person, gedi } = await subscribedPerson(h, nextConsumerId());
      await put(h, { ...person, familyName: 'Latest' });
      h.settle();
      return (await subscriptions(h)).some((item) => gediOf(item) === gedi && item.familyName === 'Latest');
    },
  },
  'consumer.isolation': {
    dependsOn: AUTHED,
    holds: async (h) => {
      const consumerId = nextConsumerId();
      const person = h.person();
      await put(h, person, 1);
      h.settle();
      await upload(h, consumerId, person.legalId, 1);
      await upload(h, nextConsumerId(), person.legalId, 1);
      h.settle();
      const leakedSubscription = (await subscriptions(h)).some((item) => legalIdOf(item) === person.legalId);
      // An absence is shown only by a list read to its end: every page after the first is served too.
      const token = await h.token(1);
      const statuses: number[] = [];
      for (let path: string | undefined = `${CONSUMERS}?limit=1`; path !== undefined;) {
        const page = await h.request('GET', path, { token });
        statuses.push(page.status);
        const next: unknown = page.body?.next;
        path = typeof next === 'string' ? `${new URL(next).pathname}${new URL(next).search}` : undefined;
      }
      const whole = statuses.length > 1 && statuses.every((status) => status === 200);
      return !(await consumerStates(h)).has(consumerId) && !leakedSubscription && whole;
    },
  },
  'screening.person-test-case': {
    dependsOn: AUTHED,
    holds: async (h) => {
      const answer = await h.request('POST', screeningPath('person'), {
        token: await h.token(),
        json: { reference: 'person_test_case_01', provider: PROVIDER },
      });
      // A match the entry itself denies, or beside an overall count of zero, is no hit.
      const matches: Array<{ pep: boolean; category: string; matched?: boolean }> = answer.body.matches;
      const hit = matches.some((match) => match.pep && match.category === 'PEP' && match.matched !== false);
      return answer.status === 200 && answer.body.matchCount !== 0 && hit;
    },
  },
  'screening.company-test-cases': {
    dependsOn: AUTHED,
    holds: async (h) => {
      const [first, second] = await Promise.all(
        ['company_test_case_01', 'company_test_case_02'].map((reference) => screening(h, 'company', reference)),
      );
      return (
        first.status === 200 &&
        second.status === 200 &&
        first.result !== second.result.replace('company_test_case_02', 'company_test_case_01')
      );
    },
  },
  'screening.deterministic': {
    dependsOn: AUTHED,
    holds: async (h) => {
      const calls = await Promise.all([1, 2, 3].map(() => screening(h, 'person', 'person_test_case_01')));
      return calls.every((call) => call.status === 200 && call.result === calls[0].result);
    },
  },
  'screening.root-path': {
    dependsOn: AUTHED,
    holds: async (h) =>
      (await screening(h, 'person', 'person_test_case_01', true)).status === 200 &&
      (await screening(h, 'company', 'company_test_case_01', true)).status === 200,
  },
  'http.malformed-json-rejected': {
    dependsOn: AUTHED,
    holds: async (h) => {
      const [token, raw] = [await h.token(), { contentType: 'application/json', body: '{"id": "x", ' }];
      const put = await h.request('PUT', PERSONS, { token, raw });
      const screen = await h.request('POST', screeningPath('person'), { token, raw });
      return verdictOnBody(put) && verdictOnBody(screen);
    },
  },
  'http.wrong-json-type-rejected': {
    dependsOn: AUTHED,
    holds: async (h) => {
      const token = await h.token();
      const answers = [
        await h.request('PUT', PERSONS, { token, json: [{ id: 'x' }] }),
        await h.request('POST', CONSUMERS, { token, json: { market: 'SE' } }),
      ];
      return answers.every(clientError);
    },
  },
  'http.unsupported-media-type-rejected': {
    dependsOn: AUTHED,
    holds: async (h) =>
      clientError(
        await h.request('PUT', PERSONS, {
          token: await h.token(),
          raw: { contentType: 'application/xml', body: '<person/>' },
        }),
      ),
  },
  'person.write-isolation': {
    dependsOn: READS,
    holds: async (h) => {
      const mine = h.person();
      const gedi = await createdAndSettled(h, mine);
      const intruder = h.person({ id: mine.id, familyName: 'Intruder' });
      const token = await h.token(1);
      await h.request('DELETE', PERSONS, { token, json: { ...intruder, removed: true } });
      await h.request('DELETE', PERSONS, { token, json: { id: mine.id } });
      await put(h, intruder, 1);
      h.settle();
      const answer = await read(h, gedi);
      return answer.status === 200 && answer.body?.familyName === mine.familyName && answer.body?.removed === false;
    },
  },
};
