// Each reading of a documented fact against realistic vendor-style answers: several layouts that
// affirm it, and at least five that say the opposite or put the fact on another record.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAYOUT_NAMES } from '../../simulator/options.js';
import {
  identified,
  listsPerson,
  mergedInto,
  ownsValue,
  personFlag,
  personRecords,
  personsWithoutLegalId,
  personWithLegalId,
  recordsOwning,
  relativeFlag,
} from '../../support/readings/facts.js';
import { findValues, isRecord, type JsonRecord } from '../../support/readings/json.js';
import { Harness, PERSONS, personPath } from '../simulator/harness.js';
import { LAYOUTS } from '../../simulator/layouts/index.js';
import { withoutGedi } from '../../simulator/layouts/without-gedi.js';
import type { PersonState } from '../../simulator/persons.js';

/** How an evidence line says which kind of evidence counted. */
const COMPUTED = ' (a state the server computed)';
const AS_SENT = ' (the mark as the client sent it, on the record itself)';

describe('IDENTIFIED', () => {
  it.each([
    ['a state', { consumerId: 'c1', state: 'IDENTIFIED' }, '$.state = "IDENTIFIED"'],
    ['a status in an envelope', { consumer: { id: 'c1', status: 'IDENTIFIED' } }, '$.consumer.status = "IDENTIFIED"'],
    [
      'a nested status code',
      { consumerId: 'c1', status: { state: 'identified', since: '2026-01-01' } },
      '$.status.state = "identified"',
    ],
    ['an identified flag', { consumerId: 'c1', identified: true }, '$.identified = true'],
    [
      'an identification status',
      { consumerId: 'c1', identificationStatus: 'IDENTIFIED' },
      '$.identificationStatus = "IDENTIFIED"',
    ],
  ])('holds for %s', (_name, record, evidence) => {
    expect(identified(record)).toMatchObject({ holds: true, evidence: [evidence] });
  });

  it.each([
    ['UNIDENTIFIED', { consumerId: 'c1', state: 'UNIDENTIFIED' }],
    ['NOT_IDENTIFIED and a false flag', { consumerId: 'c1', status: 'NOT_IDENTIFIED', identified: false }],
    ['a previous state', { consumerId: 'c1', state: 'PENDING', previousState: 'IDENTIFIED' }],
    [
      'a message naming the state',
      { consumerId: 'c1', state: 'PENDING', message: 'will be IDENTIFIED when a person matches' },
    ],
    [
      'the state of a match in a nested list',
      { consumerId: 'c1', state: 'PENDING', candidates: [{ gedi: 'g', status: 'IDENTIFIED' }] },
    ],
    ['an empty state', { consumerId: 'c1', state: '' }],
  ])('does not hold for %s', (_name, record) => {
    expect(identified(record).holds).toBe(false);
  });

  it('is read on the consumer asked about, not another consumer of the list', () => {
    const list = {
      content: [
        { consumerId: 'other', state: 'IDENTIFIED' },
        { consumerId: 'mine', state: 'PENDING' },
      ],
    };
    const [own] = recordsOwning(list, 'mine');
    expect(own?.path).toBe('$.content[1]');
    expect(identified(own?.item).holds).toBe(false);
  });
});

describe('a flag of the person (removed, deregistered)', () => {
  it.each([
    ['a flat flag', { gedi: 'g', removed: true }, 'removed', `$.removed = true${AS_SENT}`],
    [
      'a status word in an envelope',
      { data: { gedi: 'g', status: 'REMOVED' } },
      'removed',
      `$.data.status = "REMOVED"${COMPUTED}`,
    ],
    [
      'an is-flag in attributes',
      { data: { attributes: { isDeregistered: true } } },
      'deregistered',
      `$.data.attributes.isDeregistered = true${COMPUTED}`,
    ],
    [
      'a list of states',
      { gedi: 'g', states: ['ACTIVE', 'DEREGISTERED'] },
      'deregistered',
      `$.states = ["ACTIVE","DEREGISTERED"]${COMPUTED}`,
    ],
    [
      'a nested status object',
      { gedi: 'g', status: { removed: true } },
      'removed',
      `$.status.removed = true${COMPUTED}`,
    ],
  ])('holds for %s', (_name, record, flag, evidence) => {
    expect(personFlag(record, flag)).toMatchObject({ holds: true, evidence: [evidence] });
  });

  it.each([
    ['a false flag', { gedi: 'g', removed: false, deregistered: false }, 'removed'],
    ['NOT_REMOVED', { gedi: 'g', status: 'NOT_REMOVED' }, 'removed'],
    ['a reason without the flag', { gedi: 'g', deregistered: false, deregisteredReason: 'Emigrated' }, 'deregistered'],
    [
      'a relative marked deregistered',
      { gedi: 'g', relationshipList: [{ legalId: { socialSecurityNumber: '1' }, deregistered: true }] },
      'deregistered',
    ],
    ['a history entry', { gedi: 'g', status: 'ACTIVE', history: [{ status: 'REMOVED', at: '2020-01-01' }] }, 'removed'],
    [
      'a key that only contains the word',
      { gedi: 'g', removedAt: null, wasRemovable: true, removedStatus: 'NO' },
      'removed',
    ],
  ])('does not hold for %s', (_name, record, flag) => {
    expect(personFlag(record, flag).holds).toBe(false);
  });
});

describe('a flag of a related person (deceased, deregistered)', () => {
  const relative = (fields: Record<string, unknown>) => ({
    legalId: { socialSecurityNumber: '194001011234' },
    hierarchicalRelationship: 'Parent',
    ...fields,
  });

  it.each([
    [
      'a deceased flag on the relative',
      { relationshipList: [relative({ deceased: true })] },
      'deceased',
      `$.relationshipList[0].deceased = true${COMPUTED}`,
    ],
    [
      'a status on the relative in an envelope',
      { data: { attributes: { relationshipList: [relative({ status: 'DECEASED' })] } } },
      'deceased',
      `$.data.attributes.relationshipList[0].status = "DECEASED"${COMPUTED}`,
    ],
    [
      'a deregistered flag',
      { relatives: [relative({ isDeregistered: 'true' })] },
      'deregistered',
      `$.relatives[0].isDeregistered = "true"${COMPUTED}`,
    ],
    [
      'the legal id as a plain field',
      { relationshipList: [{ legalId: '194001011234', deceased: true }] },
      'deceased',
      `$.relationshipList[0].deceased = true${COMPUTED}`,
    ],
  ])('holds for %s', (_name, record, flag, evidence) => {
    expect(relativeFlag(record, '194001011234', flag)).toMatchObject({ holds: true, evidence: [evidence] });
  });

  it.each([
    [
      'the person deceased, not the relative',
      { deceased: true, relationshipList: [relative({ deceased: false })] },
      'deceased',
    ],
    [
      'another relative deceased',
      { relationshipList: [relative({}), { legalId: { socialSecurityNumber: '195001011234' }, deceased: true }] },
      'deceased',
    ],
    [
      'a date of death beside a deceased flag the record sets false',
      { relationshipList: [relative({ dateOfDeath: '2020-01-01', deceased: false })] },
      'deceased',
    ],
    [
      'a relative not deregistered',
      { relationshipList: [relative({ deregistered: false, deregisteredReason: 'x' })] },
      'deregistered',
    ],
    [
      'no entry with the legal id',
      { relationshipList: [{ legalId: { socialSecurityNumber: '195001011234' }, deregistered: true }] },
      'deregistered',
    ],
    [
      'the person deregistered, the relative not',
      { status: 'DEREGISTERED', relationshipList: [relative({ status: 'ACTIVE' })] },
      'deregistered',
    ],
  ])('does not hold for %s', (_name, record, flag) => {
    const reading = relativeFlag(record, '194001011234', flag);
    expect(reading.holds).toBe(false);
    expect(reading.looked).toMatch(/legal id 194001011234/);
  });
});

describe('merged into a person', () => {
  // The source and the target as the suite knows them: the gedi each PUT answered, the legal id it sent.
  const [SRC, TGT, OTHER] = ['198001011234', '199003033456', '197005054567'];
  const source = { gedi: 'src', person: { legalId: SRC } };
  const target = { gedi: 'tgt', person: { legalId: TGT } };
  const v3 = (legalId: string, more: Record<string, unknown> = {}) => ({
    legalId: { identityNumber: legalId, temporary: false, history: [] },
    firstNames: ['Eva'],
    familyName: 'Lund',
    status: { active: true, merged: false },
    ...more,
  });
  const v3Parent = (legalId: string) => ({
    relations: [{ relationType: 'Parent', legalId: { identityNumber: legalId } }],
  });
  const BY_LEGAL_ID =
    " (a state the server computed: the source gedi answers the target's record, which names no gedi, by the " +
    "target's legal id)";

  it.each([
    ['merged.gedi', { gedi: 'src', merged: { gedi: 'tgt' } }, `$.merged = {"gedi":"tgt"}${AS_SENT}`],
    [
      'mergedInto in an envelope',
      { data: { gedi: 'src', status: 'MERGED', mergedInto: 'tgt' } },
      '$.data.mergedInto = "tgt" (a state the server computed: a merge field the client does not send)',
    ],
    [
      'the target record itself',
      { data: { gedi: 'tgt', familyName: 'x' } },
      '$.data.gedi = "tgt" (a state the server computed: the source gedi answers the target\'s own record)',
    ],
    ["the target's v3 record, which names no gedi", v3(TGT), `$.legalId.identityNumber = "${TGT}"${BY_LEGAL_ID}`],
    ["the target's flat record without a gedi", { id: 'p-2', legalId: TGT }, `$.legalId = "${TGT}"${BY_LEGAL_ID}`],
    [
      "the target's record in an envelope without a gedi",
      { data: { attributes: { legalId: TGT } } },
      `$.data.attributes.legalId = "${TGT}"${BY_LEGAL_ID}`,
    ],
  ])('holds for %s', (_name, record, evidence) => {
    expect(mergedInto(record, source, target)).toMatchObject({ holds: true, evidence: [evidence] });
  });

  it.each([
    ['the target only in a relative entry', { gedi: 'src', relationshipList: [{ gedi: 'tgt' }] }],
    ['a merge into another person', { gedi: 'src', merged: { gedi: 'other' } }],
    ['an empty merge field', { gedi: 'src', merged: null, mergedInto: '' }],
    ['merge candidates', { gedi: 'src', mergeCandidates: ['tgt'] }],
    ['a MERGED status without the target', { gedi: 'src', status: 'MERGED' }],
    [
      'a record without any gedi naming the target in its history',
      { familyName: 'x', history: [{ mergedInto: 'tgt' }] },
    ],
    ["the source's own v3 record, unchanged, without a gedi", v3(SRC)],
    ["the source's record marked merged, not saying into whom", v3(SRC, { status: { active: false, merged: true } })],
    ["the source's record with a relative carrying the target's legal id", v3(SRC, v3Parent(TGT))],
    [
      "a flat record whose relative carries the target's legal id",
      { legalId: SRC, relationshipList: [{ legalId: { socialSecurityNumber: TGT } }] },
    ],
    ["a third person's record without a gedi", v3(OTHER)],
    ["a third person's record whose relative carries the target's legal id", v3(OTHER, v3Parent(TGT))],
    [
      "a record holding the source's legal id beside the target's",
      v3(TGT, { legalId: { identityNumber: TGT, history: [{ identityNumber: SRC }] } }),
    ],
    ["the target's legal id on a record whose own gedi is the source's", { gedi: 'src', legalId: TGT }],
    ["the target's legal id only in a merge field", v3(SRC, { mergedInto: { legalId: TGT } })],
  ])('does not hold for %s', (_name, record) => {
    expect(mergedInto(record, source, target)).toMatchObject({ holds: false, evidence: [] });
  });
});

// The same answers as the simulator gives them in each of its layouts, set to name no gedi in
// records and to show a merge by answering the target's record for the source's gedi.
describe.each(LAYOUT_NAMES)("merged into a person, read from the simulator's %s layout without a gedi", (layout) => {
  let h: Harness;
  let token: string;
  beforeAll(async () => {
    h = await Harness.start({ layout, recordsWithoutGedi: true, mergesShownByTarget: true });
    token = await h.token();
  });
  afterAll(() => h.close());

  /** PUTs the person and knows it as the suite does: the gedi its answer named and the legal id sent. */
  const store = async (person: { legalId: string } & Record<string, unknown>) => {
    const answer = await h.request('PUT', PERSONS, { token, json: person });
    return { gedi: findValues(answer.body, 'gedi')[0] as string, person };
  };
  /** Operation 3 once every effect is visible; the record names none of these gedis. */
  const read = async (gedi: string, ...gedis: string[]) => {
    h.settle();
    const answer = await h.request('GET', personPath(gedi), { token });
    expect(answer.status).toBe(200);
    for (const named of [gedi, ...gedis]) expect(JSON.stringify(answer.body)).not.toContain(named);
    return answer.body as unknown;
  };

  it("holds for the target's record, which the source's gedi answers after the merge", async () => {
    const target = await store(h.person());
    const source = await store(h.person());
    await store({ ...source.person, merged: { gedi: target.gedi } });
    const reading = mergedInto(await read(source.gedi, target.gedi), source, target);
    expect(reading.holds).toBe(true);
    expect(reading.evidence.join('\n')).toContain(`"${target.person.legalId}" (a state the server computed`);
  });

  it("does not hold for the source's own record, unchanged", async () => {
    const target = await store(h.person());
    const source = await store(h.person());
    const record = await read(source.gedi, target.gedi);
    expect(mergedInto(record, source, target)).toMatchObject({ holds: false, evidence: [] });
  });

  it.each([
    ['the source, merged into a child of the target', true],
    ['the source itself, not merged', false],
  ])("does not hold for a record whose relative carries the target's legal id: %s", async (_name, mergedIntoChild) => {
    const target = await store(h.person());
    const legalId = { socialSecurityNumber: target.person.legalId };
    const parent = { hierarchicalRelationship: 'Parent', legalId, firstName: 'Olof' };
    const child = await store(h.person({ relationshipList: [parent] }));
    const source = await store(h.person(mergedIntoChild ? {} : { relationshipList: [parent] }));
    if (mergedIntoChild) await store({ ...source.person, merged: { gedi: child.gedi } });
    const record = await read(source.gedi, target.gedi, child.gedi);
    expect(JSON.stringify(record)).toContain(target.person.legalId);
    expect(mergedInto(record, source, target)).toMatchObject({ holds: false, evidence: [] });
  });
});

describe('a value on the record itself (subscribed person, latest version)', () => {
  it('holds for the record or its envelope', () => {
    expect(ownsValue({ person: { gedi: 'g', familyName: 'Newname' } }, 'Newname')).toMatchObject({
      holds: true,
      evidence: ['$.person.familyName = "Newname"'],
    });
  });

  it.each([
    ['in a relative entry', { gedi: 'g', familyName: 'Old', relationshipList: [{ familyName: 'Newname' }] }],
    ['in a history of versions', { gedi: 'g', familyName: 'Old', versions: [{ familyName: 'Newname' }] }],
    ['as part of a longer value', { gedi: 'g', familyName: 'Newname-Old' }],
    ['in a message', { gedi: 'g', familyName: 'Old', note: 'renamed to Newname' }],
    [
      'under another record of the list',
      [
        { gedi: 'x', familyName: 'Newname' },
        { gedi: 'g', familyName: 'Old' },
      ][1],
    ],
  ])('does not hold %s', (_name, record) => {
    expect(ownsValue(record, 'Newname').holds).toBe(false);
  });
});

// Realistic persons: the asked-for person X with a parent R and an earlier legal id, another person Y.
const X = '198001011234';
const R = '195002022345';
const Y = '199003033456';
const parent = {
  hierarchicalRelationship: 'Parent',
  legalId: { socialSecurityNumber: R },
  firstNames: ['Karin'],
  familyName: 'Berg',
};
const flatPerson = (legalId: string, gedi: string, more: Record<string, unknown> = {}) => ({
  id: `p-${gedi}`,
  gedi,
  country: 'SE',
  legalId,
  familyName: 'Lund',
  relationshipList: [parent],
  ...more,
});
const vendorPerson = (legalId: string, more: Record<string, unknown> = {}) => ({
  legalId: { identityNumber: legalId, temporary: false, history: [{ identityNumber: '198001019999' }] },
  names: { firstNames: ['Eva'], familyName: 'Lund' },
  status: { active: true },
  metadata: {
    updatedTimestamp: '2026-11-20T10:00:00Z',
    sources: [{ name: 'SANDBOX', market: 'SE', updatedTimestamp: '2026-11-20T10:00:00Z' }],
  },
  relationshipList: [parent],
  ...more,
});

describe('the person records of a find answer, each carrying the legal id asked for', () => {
  it.each([
    ['a list in an envelope (relatives inside)', { results: [flatPerson(X, 'g1')], count: 1 }, ['$.results[0]']],
    [
      'a list under data, the person under attributes',
      {
        data: [{ gedi: 'g1', market: 'SE', status: 'ACTIVE', attributes: { legalId: X, relationshipList: [parent] } }],
      },
      ['$.data[0]'],
    ],
    ["the vendor's single object, legalId as an object with its history", vendorPerson(X), ['$']],
    ['a bare list', [flatPerson(X, 'g1'), flatPerson(X, 'g2')], ['$[0]', '$[1]']],
    [
      'matches with a score around each person',
      { matches: [{ score: 0.99, person: flatPerson(X, 'g1') }] },
      ['$.matches[0]'],
    ],
    [
      'a HAL answer',
      {
        _embedded: { persons: [{ legalId: X, _links: { self: { href: '/persons/g1' } } }] },
        _links: { self: { href: '/_find' } },
        page: { size: 20, totalElements: 1 },
      },
      ['$._embedded.persons[0]'],
    ],
    [
      'an echo of the query beside the results',
      { query: { legalId: X }, results: [flatPerson(X, 'g1')] },
      ['$.results[0]'],
    ],
    [
      'the legal id in a list of identifiers',
      { persons: [{ gedi: 'g1', identifiers: [{ type: 'SSN', value: X }] }] },
      ['$.persons[0]'],
    ],
    [
      'the matching person naming the person merged into it',
      flatPerson(X, 'g1', { mergedFrom: [{ gedi: 'g0', legalId: Y, status: 'MERGED' }] }),
      ['$'],
    ],
    [
      'a person found by an earlier legal id of its own',
      { results: [flatPerson(Y, 'g1', { deprecatedLegalIds: [{ socialSecurityNumber: X }] })] },
      ['$.results[0]'],
    ],
    ["the vendor's one person object", { legalId: X, firstName: 'Eva' }, ['$']],
    ['one result', { results: [{ legalId: X, firstName: 'Eva' }] }, ['$.results[0]']],
    ['an entry keyed personGedi and nin', { items: [{ personGedi: 'g1', nin: X }] }, ['$.items[0]']],
  ])('holds only matching persons: %s', (_name, answer, paths) => {
    expect(personRecords(answer).map(({ path }) => path)).toEqual(paths);
    expect(personsWithoutLegalId(answer, X)).toMatchObject({ holds: false, evidence: [] });
    expect(personWithLegalId(answer, X).holds).toBe(true);
  });

  it.each([
    ['no content (204)', undefined],
    ['an empty list', { results: [], count: 0 }],
    ['a problem document', { type: 'about:blank', title: 'No match', status: 404 }],
    // The find-echoes-query mutant's answers, one per simulator layout: the legal id asked for, and nobody.
    ['the query echoed beside no results', { query: { legalId: X }, results: [], count: 0 }],
    ['the request echoed in the metadata of an empty list', { data: [], meta: { request: { legalId: X } } }],
    ["the request echoed as the vendor's company answers echo theirs", { personInput: { legalId: X } }],
    ['the legal id asked for beside empty results', { legalId: X, results: [] }],
    [
      'the legal id asked for, as the vendor writes one, beside empty results',
      { legalId: { identityNumber: X }, results: [] },
    ],
    ['the legal id asked for in metadata beside empty results', { metadata: { legalId: X }, results: [] }],
    ['the legal id asked for in the metadata', { meta: { legalId: X } }],
  ])('holds no person at all for %s', (_name, answer) => {
    expect(personsWithoutLegalId(answer, X).holds).toBe(false);
    expect(personWithLegalId(answer, X).holds).toBe(false);
    expect(listsPerson(answer, { gedi: 'g1', person: { legalId: X } }).holds).toBe(false);
  });

  it.each([
    [
      'the matching person and two others (a bare list)',
      [flatPerson(X, 'g1'), flatPerson(Y, 'g2'), flatPerson(R, 'g3')],
      ['$[1]', '$[2]'],
    ],
    [
      'a relative listed as a person of its own',
      { results: [flatPerson(X, 'g1'), flatPerson(R, 'g3', { relationshipList: [] })], count: 2 },
      ['$.results[1]'],
    ],
    [
      'a merged-away person beside the one it was merged into',
      {
        data: [
          { gedi: 'g1', attributes: { legalId: X } },
          { gedi: 'g0', status: 'MERGED', mergedInto: 'g1', attributes: { legalId: Y } },
        ],
      },
      ['$.data[1]'],
    ],
    [
      'a merged-away person naming the matching person only in its merge field',
      [vendorPerson(X), vendorPerson(Y, { merged: { gedi: 'g1', legalId: X } })],
      ['$[1]'],
    ],
    ['vendor-style persons, legalId as an object', [vendorPerson(X), vendorPerson(Y)], ['$[1]']],
    [
      'a person carrying the legal id only in a relative',
      { results: [flatPerson(Y, 'g2', { relationshipList: [{ ...parent, legalId: { socialSecurityNumber: X } }] })] },
      ['$.results[0]'],
    ],
    [
      'a person that only echoes the legal id asked for',
      { results: [flatPerson(X, 'g1'), flatPerson(Y, 'g2', { searchedLegalId: X })] },
      ['$.results[1]'],
    ],
    [
      'a stranger beside an echo of the query',
      { query: { legalId: X }, results: [flatPerson(X, 'g1'), flatPerson(Y, 'g2')] },
      ['$.results[1]'],
    ],
    ['one stranger echoing the request', vendorPerson(Y, { personInput: { legalId: X, gedi: 'g1' } }), ['$']],
    [
      'a stranger beside the legal id asked for',
      { legalId: X, results: [flatPerson(Y, 'g2')], count: 1 },
      ['$.results[0]'],
    ],
  ])('shows each record that should not be there: %s', (_name, answer, paths) => {
    const reading = personsWithoutLegalId(answer, X);
    expect(reading.holds).toBe(true);
    expect(reading.evidence.map((line) => line.split(' ')[0])).toEqual(paths);
    expect(reading.found).toBe(`${paths.length} record(s) without it: ${paths.join(', ')}`);
    // The evidence says whose record it is, then shows the record.
    expect(reading.evidence[0]).toMatch(/^\$\S* \(\$\.\S+ = "\d{12}".*\): \{/);
    expect(reading.looked).toMatch(/person record/);
  });
});

it('shows a record that should not be there by its own legal id and gedi, then the record', () => {
  const [evidence] = personsWithoutLegalId(
    {
      data: [
        { gedi: 'g1', attributes: { legalId: X } },
        { gedi: 'g0', status: 'MERGED', mergedInto: 'g1', attributes: { legalId: Y } },
      ],
    },
    X,
  ).evidence;
  expect(evidence).toBe(
    `$.data[1] ($.attributes.legalId = "${Y}", $.gedi = "g0"): ` +
      `{"gedi":"g0","status":"MERGED","mergedInto":"g1","attributes":{"legalId":"${Y}"}}`,
  );
});

describe('a person listed as a record of its own (subscriptions, consumers)', () => {
  const unlisted = { gedi: 'g9', person: { legalId: Y } };
  const page = (items: unknown[], next: string | null) => ({ items, next });

  it.each([
    [
      'on the second page',
      [page([flatPerson(X, 'g1')], '/next'), page([flatPerson(R, 'g3'), flatPerson(Y, 'g9')], null)],
      '$[1].items[1]',
    ],
    [
      'in an entry around the person',
      { data: [{ subscribedAt: '2026-11-20T10:00:00Z', person: { gedi: 'g9', attributes: { legalId: Y } } }] },
      '$.data[0]',
    ],
    [
      'by legal id alone (the vendor drops the gedi)',
      { subscriptions: [vendorPerson(X), vendorPerson(Y)], nextPageToken: null },
      '$.subscriptions[1]',
    ],
    [
      'as a consumer of its own',
      { items: [{ consumerId: 'p-g9', market: 'SE', data: { legalId: Y }, state: 'IDENTIFIED', gedi: 'g9' }] },
      '$.items[0]',
    ],
    ['as an entry keyed personGedi', { items: [{ personGedi: 'g9', nin: R }] }, '$.items[0]'],
    ['as an entry keyed nin', { items: [{ consumerId: 'c1', nin: Y }] }, '$.items[0]'],
  ])('holds %s', (_name, answer, path) => {
    const reading = listsPerson(answer, unlisted);
    expect(reading.holds).toBe(true);
    expect(reading.evidence.map((line) => line.split(' ')[0])).toEqual([path]);
  });

  it.each([
    [
      'as the relative of a listed person',
      { items: [flatPerson(X, 'g1', { relationshipList: [{ ...parent, legalId: { socialSecurityNumber: Y } }] })] },
    ],
    ['as the person another was merged into', { items: [flatPerson(X, 'g1', { merged: { gedi: 'g9' } })] }],
    [
      'in a merged-away entry pointing at it',
      { data: [{ gedi: 'g1', status: 'MERGED', mergedInto: 'g9', attributes: { legalId: X } }] },
    ],
    [
      'in a consumer entry for another legal id',
      {
        items: [{ consumerId: 'c1', market: 'SE', data: { legalId: X }, state: 'IDENTIFIED', gedi: 'g1', note: 'g9' }],
      },
    ],
    ['across pages without it', [page([flatPerson(X, 'g1')], '/next'), page([flatPerson(R, 'g3')], null)]],
    ['as another entry keyed personGedi and nin', { items: [{ personGedi: 'g1', nin: X }] }],
  ])('does not hold %s', (_name, answer) => {
    expect(listsPerson(answer, unlisted)).toMatchObject({ holds: false, evidence: [] });
  });

  it.each([
    ['its gedi and a status', { gedi: 'g9', status: 'PENDING' }],
    [
      'its gedi in an envelope, with bookkeeping',
      { data: { gedi: 'g9', status: { code: 'PENDING', name: 'Pending' }, version: 1 } },
    ],
    ['its personGedi', { items: [{ personGedi: 'g9', state: 'PENDING' }] }],
  ])('does not hold for a placeholder: %s', (_name, answer) => {
    const reading = listsPerson(answer, unlisted);
    expect(reading).toMatchObject({ holds: false, evidence: [] });
    expect(reading.found).toMatch(/^a placeholder, not yet the person's record: \$\S* \(\$\.\S*gedi\S* = "g9"\): \{/i);
  });
});

// The rule of evidence (docs/DESIGN.md), on the records each simulator layout renders, with and without a gedi: the
// record's own fields count, a copy beside it never does, and each evidence line says which kind of evidence counted.
describe.each(LAYOUT_NAMES.flatMap((name) => [false, true].map((noGedi) => ({ name, noGedi }))))(
  'the rule of evidence in the $name layout (records without a gedi: $noGedi)',
  ({ name, noGedi }) => {
    const [GEDI, TARGET, PARENT] = ['3f2b8c1e-1111-4222-8333-444455556666', '9a2b8c1e-1111-4222-8333-444455556666', R];
    const layout = noGedi ? withoutGedi(LAYOUTS[name], (value) => [GEDI, TARGET].includes(value)) : LAYOUTS[name];
    const sent = {
      id: 'p-1',
      legalId: X,
      firstName: 'Eva',
      familyName: 'Lund',
      dateOfBirth: '1980-01-01',
      relationshipList: [{ hierarchicalRelationship: 'Parent', legalId: { socialSecurityNumber: PARENT } }],
    };
    const record = (state: Partial<PersonState> = {}, fields: Record<string, unknown> = sent): JsonRecord =>
      layout.person({
        gedi: GEDI,
        market: 'SE',
        version: 2,
        writtenAt: 0,
        state: { fields, removed: false, deregistered: false, ...state },
      }).body as JsonRecord;
    /** The request, as an audit trail would keep it, beside the record's own fields (inside its `data` envelope). */
    const withCopy = (body: JsonRecord, request: Record<string, unknown>): JsonRecord => {
      const copy = { lastWrite: { ...sent, ...request } };
      return isRecord(body.data) ? { ...body, data: { ...body.data, ...copy } } : { ...body, ...copy };
    };
    const relatives = (more: Record<string, unknown>) => ({
      ...sent,
      relationshipList: [{ ...sent.relationshipList[0], ...more }],
    });
    const source = { gedi: GEDI, person: { legalId: X } };
    const target = { gedi: TARGET, person: { legalId: Y } };

    it.each([
      ['removed', { removed: true }],
      ['deregistered', { deregistered: true, deregisteredReason: 'Emigrated' }],
    ])('reads %s from the record, never from a copy of the request beside it', (flag, request) => {
      const honest = personFlag(record(request), flag);
      expect(honest.holds).toBe(true);
      expect(honest.evidence.join('\n')).toMatch(
        /\((a state the server computed|the mark as the client sent it, on the record itself)\)$/m,
      );
      expect(personFlag(withCopy(record(), request), flag)).toMatchObject({ holds: false, evidence: [] });
    });

    it.each([
      ['deceased', { dateOfDeath: '2020-05-01', deceased: true }, { dateOfDeath: '2020-05-01' }],
      ['deregistered', { deregistered: true }, { deregistered: true }],
    ])("reads a relative %s from the relative's own entry, never from a copy's", (flag, shown, request) => {
      expect(relativeFlag(record({}, relatives(shown)), PARENT, flag).holds).toBe(true);
      const ignored = withCopy(record({}, relatives({ deceased: false, deregistered: false })), relatives(request));
      expect(relativeFlag(ignored, PARENT, flag)).toMatchObject({ holds: false, evidence: [] });
    });

    it('takes a record with nothing of the person for a placeholder, not the person', () => {
      const stored = { gedi: GEDI, person: { legalId: X } };
      expect(listsPerson(record(), stored).holds).toBe(true);
      const placeholder = listsPerson(record({}, {}), stored);
      expect(placeholder.holds).toBe(false);
      // The vendor's v3 record names no gedi: with nothing of the person, it names nobody.
      const named = !noGedi && name !== 'vendor';
      expect(placeholder.found).toMatch(named ? /^a placeholder, not yet the person's record/ : /^no person record/);
    });

    it('finds the person in a find answer, never in the query answered back', () => {
      const found = layout.found([
        {
          gedi: GEDI,
          market: 'SE',
          version: 1,
          writtenAt: 0,
          state: { fields: sent, removed: false, deregistered: false },
        },
      ]);
      expect(personWithLegalId(found.body, X).holds).toBe(true);
      for (const as of ['request', 'field'] as const)
        expect(personWithLegalId(LAYOUTS[name].found([], { legalId: X, as }).body, X).holds, as).toBe(false);
    });

    it('reads a merge from the record or the redirect to the target, never from a copy of the request', () => {
      const targetRecord = layout.person({
        gedi: TARGET,
        market: 'SE',
        version: 1,
        writtenAt: 0,
        state: { fields: { ...sent, id: 'p-2', legalId: Y }, removed: false, deregistered: false },
      }).body;
      expect(mergedInto(targetRecord, source, target).evidence).toEqual([
        expect.stringMatching(/\(a state the server computed: the source gedi answers the target's (own )?record/),
      ]);
      if (!noGedi) expect(mergedInto(record({ mergedInto: TARGET }), source, target).holds).toBe(true);
      const ignored = withCopy(record(), { merged: { gedi: TARGET } });
      expect(mergedInto(ignored, source, target)).toMatchObject({ holds: false, evidence: [] });
    });
  },
);

describe('the rule of evidence on records of any shape', () => {
  const flat = { id: 'p1', legalId: X, firstName: 'A', familyName: 'Lund', dateOfBirth: '1980-01-01' };

  it.each([
    ['a copy under an echo key', { gedi: 'G', request: { removed: true } }],
    [
      'an audit trail repeating the legal id',
      { gedi: 'G', legalId: X, firstName: 'A', lastWrite: { id: 'p1', legalId: X, removed: true } },
    ],
    [
      'a copy saying the opposite of the record',
      { ...flat, gedi: 'G', removed: false, audit: { id: 'p1', legalId: X, removed: true } },
    ],
    [
      'a copy in the envelope',
      { data: { gedi: 'G', status: 'ACTIVE', attributes: flat, history: { ...flat, removed: true } } },
    ],
    ['another person nested in the record', { ...flat, gedi: 'G', spouse: { legalId: Y, removed: true } }],
    ['the status object saying the opposite', { ...flat, gedi: 'G', removed: true, status: { removed: false } }],
  ])('does not read removed from %s', (_name, record) => {
    expect(personFlag(record, 'removed')).toMatchObject({ holds: false, evidence: [] });
  });

  it('shows a state the server computed first, then the mark as the client sent it', () => {
    expect(personFlag({ ...flat, gedi: 'G', removed: true, status: 'REMOVED' }, 'removed').evidence).toEqual([
      `$.status = "REMOVED"${COMPUTED}`,
      `$.removed = true${AS_SENT}`,
    ]);
  });

  // A server that stores each PUT (and the DELETE's person) as sent and answers it from operation 3, flat or wrapped.
  const parent = { hierarchicalRelationship: 'Parent', legalId: { socialSecurityNumber: R } };
  const src = { gedi: 'src', person: { legalId: X } };
  const tgt = { gedi: 'tgt', person: { legalId: Y } };
  describe.each([
    ['flat', '$', (body: JsonRecord): JsonRecord => body],
    ['under person', '$.person', (body: JsonRecord): JsonRecord => ({ person: body })],
    ['under data', '$.data', (body: JsonRecord): JsonRecord => ({ data: body })],
    ['under data.attributes', '$.data.attributes', (body: JsonRecord) => ({ data: { gedi: 'src', attributes: body } })],
  ])('stored as sent, %s', (_name, at, wrap) => {
    it.each([
      ['removed', { removed: true }],
      ['deregistered', { deregistered: true, deregisteredReason: 'Emigrated' }],
    ])('reads %s as the mark the client sent, on the record itself', (flag, mark) => {
      expect(personFlag(wrap({ ...flat, ...mark }), flag).evidence).toEqual([`${at}.${flag} = true${AS_SENT}`]);
    });

    it.each([
      ['deceased', { dateOfDeath: '2020-05-01' }, `dateOfDeath = "2020-05-01"`],
      ['deregistered', { deregistered: true }, 'deregistered = true'],
    ])('reads a relative %s as the mark the client sent, on its entry', (flag, mark, evidence) => {
      const record = wrap({ ...flat, relationshipList: [{ ...parent, ...mark }] });
      expect(relativeFlag(record, R, flag).evidence).toEqual([`${at}.relationshipList[0].${evidence}${AS_SENT}`]);
    });

    it('reads the merge as the mark the client sent, claiming no redirect', () => {
      const record = wrap({ ...flat, merged: { gedi: 'tgt' } });
      expect(mergedInto(record, src, tgt).evidence).toEqual([`${at}.merged = {"gedi":"tgt"}${AS_SENT}`]);
      expect(listsPerson(record, src).holds).toBe(true);
    });
  });

  it('reads no merge where the record says it is not merged', () => {
    const record = { gedi: 'src', merged: { gedi: 'tgt' }, status: { merged: false } };
    expect(mergedInto(record, src, tgt)).toMatchObject({ holds: false, evidence: [] });
  });
});
