// What a reading says it found when a mutant kept a documented effect from the record, read from
// the simulator's answers in every layout; and the timeout message a wait builds from it, which
// names the documented value and what the last answer showed of it before any of the body; and
// the failure of a fact expected of a record.
import { describe, expect, it } from 'vitest';
import { LAYOUT_NAMES, type Layout } from '../../simulator/options.js';
import type { MutantName } from '../../simulator/mutants.js';
import { expectFact } from '../../support/evidence/expectations.js';
import { eventually } from '../../support/readings/eventually.js';
import {
  identified,
  listsPerson,
  mergedInto,
  ownsValue,
  personFlag,
  personWithLegalId,
  type Reading,
  recordsOwning,
  relativeFlag,
} from '../../support/readings/facts.js';
import { findValues } from '../../support/readings/json.js';
import { pepHit } from '../../support/readings/pep-hit.js';
import type { ApiResponse } from '../../support/transport/http.js';
import {
  CONSUMERS,
  findPath,
  type Harness,
  PERSONS,
  personPath,
  screeningPath,
  SUBSCRIPTIONS,
  withHarness,
} from '../simulator/harness.js';
import { fakeClock } from './local-server.js';

/** PUTs the person, lets every effect show, and answers the gedi the PUT named. */
async function stored(h: Harness, token: string, person: Record<string, unknown>): Promise<string> {
  const gedi = findValues((await h.request('PUT', PERSONS, { token, json: person })).body, 'gedi')[0] as string;
  h.settle();
  return gedi;
}

async function record(h: Harness, token: string, gedi: string): Promise<unknown> {
  return (await h.request('GET', personPath(gedi), { token })).body;
}

const relative = { hierarchicalRelationship: 'Parent', firstNames: ['Old'], dateOfBirth: '1930-01-01' };

/** Each documented effect, the mutant that keeps it from the record, and the reading of the record. */
const effects: Record<string, { mutant: MutantName; read: (h: Harness, token: string) => Promise<Reading> }> = {
  'a deregistration': {
    mutant: 'deregistered-dropped',
    read: async (h, token) => {
      const gedi = await stored(h, token, h.person({ deregistered: true, deregisteredReason: 'Emigrated' }));
      return personFlag(await record(h, token, gedi), 'deregistered');
    },
  },
  'a removal': {
    mutant: 'removed-flag-dropped',
    read: async (h, token) => {
      const person = h.person();
      const gedi = await stored(h, token, person);
      await h.request('DELETE', PERSONS, { token, json: { ...person, removed: true } });
      h.settle();
      return personFlag(await record(h, token, gedi), 'removed');
    },
  },
  "a relative's death": {
    mutant: 'relationship-death-ignored',
    read: async (h, token) => {
      const legalId = h.freshLegalId();
      const parent = { ...relative, legalId: { socialSecurityNumber: legalId }, dateOfDeath: '2020-05-01' };
      const gedi = await stored(h, token, h.person({ relationshipList: [parent] }));
      return relativeFlag(await record(h, token, gedi), legalId, 'deceased');
    },
  },
  'a merge': {
    mutant: 'merge-ignored',
    read: async (h, token) => {
      const target = { person: h.person(), gedi: '' };
      target.gedi = await stored(h, token, target.person);
      const source = { person: h.person(), gedi: '' };
      source.gedi = await stored(h, token, source.person);
      await stored(h, token, { ...source.person, merged: { gedi: target.gedi } });
      return mergedInto(await record(h, token, source.gedi), source, target);
    },
  },
  'an update': {
    mutant: 'update-ignored',
    read: async (h, token) => {
      const person = h.person();
      const gedi = await stored(h, token, person);
      await stored(h, token, { ...person, familyName: 'Newname' });
      return ownsValue(await record(h, token, gedi), 'Newname');
    },
  },
  'an identification': {
    mutant: 'consumer-not-identified',
    read: async (h, token) => {
      const person = h.person();
      await stored(h, token, person);
      await h.request('POST', CONSUMERS, {
        token,
        json: [{ consumerId: 'c-found', market: 'SE', data: { legalId: person.legalId } }],
      });
      h.settle();
      const list = (await h.request('GET', `${CONSUMERS}?limit=100`, { token })).body;
      return identified(recordsOwning(list, 'c-found')[0]?.item);
    },
  },
  'a subscription': {
    mutant: 'no-subscription',
    read: async (h, token) => {
      const person = h.person();
      const gedi = await stored(h, token, person);
      await h.request('POST', CONSUMERS, {
        token,
        json: [{ consumerId: 'c-subscribed', market: 'SE', data: { legalId: person.legalId } }],
      });
      h.settle();
      const list = (await h.request('GET', `${SUBSCRIPTIONS}?limit=100`, { token })).body;
      return listsPerson(list, { gedi, person });
    },
  },
  'a person found by legal id': {
    mutant: 'find-echoes-query',
    read: async (h, token) => {
      const person = h.person();
      await stored(h, token, person);
      const answer = await h.request('POST', findPath(), { token, json: { legalId: person.legalId } });
      return personWithLegalId(answer.body, person.legalId);
    },
  },
  'a PEP hit': {
    mutant: 'person-case-without-hit',
    read: async (h, token) => {
      const json = { reference: 'person_test_case_01', provider: 'SANDBOX-AML' };
      return pepHit((await h.request('POST', screeningPath('person'), { token, json })).body);
    },
  },
};

describe.each(LAYOUT_NAMES)("what a reading found, in the simulator's %s layout", (layout) => {
  it.for(Object.keys(effects))('names the documented value it looked for in %s kept from the record', async (name) => {
    const { mutant, read } = effects[name]!;
    const reading = await withHarness({ layout, mutant }, async (h) => read(h, await h.token()));
    expect(reading.holds).toBe(false);
    // Gedis are random; everything else the simulator answers here is seeded.
    expect(reading.found.replace(/"[0-9a-f-]{36}"/g, '"<gedi>"')).toBe(FOUND[layout][name]);
  });
});

describe.each(LAYOUT_NAMES)("a wait for a deregistration in the simulator's %s layout", (layout) => {
  it('times out naming deregistered and what the last record showed of it, before any of the body', async () => {
    const { gedi, error } = await withHarness({ layout, mutant: 'deregistered-dropped' }, async (h) => {
      const token = await h.token();
      const gedi = await stored(h, token, h.person({ deregistered: true }));
      const clock = fakeClock();
      const read = async (): Promise<ApiResponse> => {
        clock.advance(50);
        const { status, body } = await h.request('GET', personPath(gedi), { token });
        return {
          status,
          ok: status === 200,
          headers: {},
          body,
          text: '',
          url: '',
          exchanges: [],
          receivedAt: 0,
          sentAt: 0,
        };
      };
      const shows = (response: ApiResponse) => personFlag(response.body, 'deregistered');
      const what = `person ${gedi} to be marked deregistered`;
      const waited = eventually(what, read, shows, { timeoutMs: 30_000, clock });
      return { gedi, error: await waited.catch((caught: unknown) => caught as Error) };
    });
    const { message } = error as Error;
    expect(message).toMatch(new RegExp(`^Not shown within 30(\\.\\d)? s: person ${gedi} to be marked deregistered; `));
    const clause = message.slice(message.indexOf('; ') + 2, message.indexOf('; last answer 200 '));
    expect(clause).toMatch(/^.* \(\d+ read\(s\) over 30(\.\d)? s; looked at deregistered and isDeregistered /);
    expect(clause.slice(0, clause.indexOf(' ('))).toBe(FOUND[layout]['a deregistration']);
  });
});

describe('a fact expected of a record that does not show it', () => {
  it('fails naming what the reading found, then where it looked', async () => {
    const reading = personFlag({ gedi: 'g1', status: { active: true, deregistered: false } }, 'deregistered');
    await expect(expectFact(reading, 'person g1 is marked deregistered')).rejects.toThrow(
      'no affirmative evidence that person g1 is marked deregistered: found $.status.deregistered = false (looked at ' +
        'deregistered and isDeregistered (true), and the state fields (status, state, statuses, states, …) for ' +
        '"DEREGISTERED")',
    );
  });
});

const FOUND: Record<Layout, Record<string, string>> = {
  standard: {
    'a deregistration': '$.deregistered = false',
    'a removal': '$.removed = false',
    "a relative's death": '$.relationshipList[0].deceased = false',
    'a merge': 'merged: not in the record, $.gedi = "<gedi>"',
    'an update': '"Newname": not among the record\'s own values',
    'an identification': '$.state = "UNIDENTIFIED"',
    'a subscription': 'no person record in the answer',
    'a person found by legal id': 'no person record in the answer',
    'a PEP hit': 'no match entry, and no PEP flag on the subject',
  },
  alternate: {
    'a deregistration': '$.data.attributes.deregistered = false, $.data.status = "ACTIVE"',
    'a removal': '$.data.status = "ACTIVE"',
    "a relative's death": '$.data.attributes.relationshipList[0].deceased = false',
    'a merge': 'merged: not in the record, $.data.gedi = "<gedi>"',
    'an update': '"Newname": not among the record\'s own values',
    'an identification': '$.status = "UNIDENTIFIED"',
    'a subscription': 'no person record in the answer',
    'a person found by legal id': 'no person record in the answer',
    'a PEP hit': 'the answer says there is no match: $.data.outcome = "NO_HIT"',
  },
  vendor: {
    'a deregistration': '$.status.deregistered = false',
    'a removal': '$.status.removed = false',
    "a relative's death": '$.relations[0].status.deceased = false',
    'a merge': '$.status.merged = false, $.legalId.identityNumber = "194404158034", $.legalId.temporary = false',
    'an update': '"Newname": not among the record\'s own values',
    'an identification': '$.state = "NOT_IDENTIFIED"',
    'a subscription': 'no person record in the answer',
    'a person found by legal id': 'no person record in the answer',
    'a PEP hit': 'the answer says there is no match: $.screeningResult.numberOfMatches = 0',
  },
};
