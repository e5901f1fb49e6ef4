// Each reading of a documented fact against realistic vendor-style answers: several layouts that
// affirm it, and at least five that say the opposite or put the fact on another record.
import { describe, expect, it } from 'vitest';
import { identified, mergedInto, ownsValue, pepHit, personFlag, recordsOwning, relativeFlag } from '../../support/readings/facts.js';

describe('a PEP hit', () => {
  it.each([
    ['a match with a PEP category', { matches: [{ name: 'Test Politician', category: 'PEP', score: 0.97 }] }, '$.matches[0].category = "PEP"'],
    ['a hit typed PEP in a data envelope', { data: { outcome: 'HIT', hits: [{ type: 'PEP', matchedName: 'x' }] } }, '$.data.hits[0].type = "PEP"'],
    ['a match with a PEP flag', { results: [{ entityName: 'x', isPep: true }] }, '$.results[0].isPep = true'],
    ['a match found on the PEP list', { alerts: [{ listName: 'Politically Exposed Persons' }] }, '$.alerts[0].listName = "Politically Exposed Persons"'],
    ['a match with categories including PEP', { screening: { candidates: [{ categories: ['SANCTIONS', 'PEP'] }] } }, '$.screening.candidates[0].categories = ["SANCTIONS","PEP"]'],
    ['a flag on the subject', { subject: { politicallyExposed: true } }, '$.subject.politicallyExposed = true'],
    ['a PEP status saying hit', { pepStatus: 'HIT' }, '$.pepStatus = "HIT"'],
    ['a list of PEP matches', { peps: [{ name: 'x' }] }, '$.peps[0] (an entry of a PEP match list)'],
    [
      "the vendor's published shape: a match found on lists given as objects",
      { screeningResult: { numberOfMatches: 1, matches: [{ name: 'Test Politician', lists: [{ type: 'PEP', name: 'Domestic PEP list' }], pepCategory: 'POLITICIAN' }], listsScreened: ['PEP', 'SANCTION', 'RCA'] } },
      '$.screeningResult.matches[0].lists[0].type = "PEP"',
    ],
    ['a list entry named for the PEP list, beside a sanctions list', { hits: [{ sources: [{ code: 'EU-CONS' }, { title: 'Politically exposed persons' }] }] }, '$.hits[0].sources[1].title = "Politically exposed persons"'],
  ])('holds for %s, with the evidence', (_name, body, evidence) => {
    expect(pepHit(body)).toMatchObject({ holds: true, evidence: [evidence] });
  });

  it.each([
    ['no match, naming the lists it checked', { outcome: 'NO_HIT', listsChecked: ['PEP', 'SANCTIONS', 'ADVERSE_MEDIA'], hits: [] }],
    ['a negative message', { status: 'COMPLETED', message: 'No PEP match found', matches: [] }],
    ['PEP named only in the screening settings', { screeningTypes: ['PEP', 'SANCTIONS'], settings: { pep: true }, results: [] }],
    ['a denied PEP flag', { pep: false, isPep: 'false', hits: [] }],
    ['NO_MATCH under an affirmative-looking key', { pepStatus: 'NO_MATCH', pepResult: 'CLEAR' }],
    ['a zero hit count with a PEP category mentioned', { hitCount: 0, categories: ['PEP'], matches: [{ category: 'PEP' }] }],
    ['an empty PEP list', { peps: [], pepHits: [] }],
    ['a sanctions hit only', { hits: [{ category: 'SANCTIONS', pep: false, description: 'not a PEP' }] }],
    ['a no-match outcome that still lists the PEP candidates it ruled out', { result: 'CLEAR', candidates: [{ category: 'PEP', disposition: 'FALSE_POSITIVE' }] }],
    ['prose only', { summary: 'Subject is a politically exposed person', comment: 'politician' }],
    ['a category that only contains the word', { hits: [{ category: 'NON_PEP' }, { type: 'PEP_SCREENING_DISABLED' }] }],
    // The vendor's published shape, saying no: lists screened are not lists matched.
    ['no match, naming the lists it screened', { screeningResult: { numberOfMatches: 0, matches: [], listsScreened: ['PEP', 'SANCTION', 'RCA'] } }],
    ['a sanctions match, PEP named only in listsScreened', { screeningResult: { numberOfMatches: 1, matches: [{ name: 'x', lists: [{ type: 'SANCTION', name: 'EU consolidated list' }] }], listsScreened: ['PEP', 'SANCTION', 'RCA'] } }],
    ['a sanctions-only match', { screeningResult: { numberOfMatches: 1, matches: [{ name: 'x', lists: [{ type: 'SANCTION', name: 'OFAC SDN' }, { type: 'SANCTION', name: 'UN consolidated' }] }] } }],
    ['a match with a relative or close associate of a PEP', { screeningResult: { numberOfMatches: 1, matches: [{ name: 'x', lists: [{ type: 'RCA', name: 'Relatives and close associates of PEPs' }] }], listsScreened: ['PEP', 'RCA'] } }],
    ['a match count of 0 beside the lists screened', { screeningResult: { numberOfMatches: 0, listsScreened: ['PEP', 'SANCTION'] }, matches: [{ lists: [{ type: 'PEP' }] }] }],
  ])('does not hold for %s', (_name, body) => {
    const reading = pepHit(body);
    expect(reading.holds).toBe(false);
    expect(reading.evidence).toEqual([]);
    expect(reading.looked).toMatch(/match entries/);
  });
});

describe('IDENTIFIED', () => {
  it.each([
    ['a state', { consumerId: 'c1', state: 'IDENTIFIED' }, '$.state = "IDENTIFIED"'],
    ['a status in an envelope', { consumer: { id: 'c1', status: 'IDENTIFIED' } }, '$.consumer.status = "IDENTIFIED"'],
    ['a nested status code', { consumerId: 'c1', status: { state: 'identified', since: '2026-01-01' } }, '$.status.state = "identified"'],
    ['an identified flag', { consumerId: 'c1', identified: true }, '$.identified = true'],
    ['an identification status', { consumerId: 'c1', identificationStatus: 'IDENTIFIED' }, '$.identificationStatus = "IDENTIFIED"'],
  ])('holds for %s', (_name, record, evidence) => {
    expect(identified(record)).toMatchObject({ holds: true, evidence: [evidence] });
  });

  it.each([
    ['UNIDENTIFIED', { consumerId: 'c1', state: 'UNIDENTIFIED' }],
    ['NOT_IDENTIFIED and a false flag', { consumerId: 'c1', status: 'NOT_IDENTIFIED', identified: false }],
    ['a previous state', { consumerId: 'c1', state: 'PENDING', previousState: 'IDENTIFIED' }],
    ['a message naming the state', { consumerId: 'c1', state: 'PENDING', message: 'will be IDENTIFIED when a person matches' }],
    ['the state of a match in a nested list', { consumerId: 'c1', state: 'PENDING', candidates: [{ gedi: 'g', status: 'IDENTIFIED' }] }],
    ['an empty state', { consumerId: 'c1', state: '' }],
  ])('does not hold for %s', (_name, record) => {
    expect(identified(record).holds).toBe(false);
  });

  it('is read on the consumer asked about, not another consumer of the list', () => {
    const list = { content: [{ consumerId: 'other', state: 'IDENTIFIED' }, { consumerId: 'mine', state: 'PENDING' }] };
    const [own] = recordsOwning(list, 'mine');
    expect(own?.path).toBe('$.content[1]');
    expect(identified(own?.item).holds).toBe(false);
  });
});

describe('a flag of the person (removed, deregistered)', () => {
  it.each([
    ['a flat flag', { gedi: 'g', removed: true }, 'removed', '$.removed = true'],
    ['a status word in an envelope', { data: { gedi: 'g', status: 'REMOVED' } }, 'removed', '$.data.status = "REMOVED"'],
    ['an is-flag in attributes', { data: { attributes: { isDeregistered: true } } }, 'deregistered', '$.data.attributes.isDeregistered = true'],
    ['a list of states', { gedi: 'g', states: ['ACTIVE', 'DEREGISTERED'] }, 'deregistered', '$.states = ["ACTIVE","DEREGISTERED"]'],
    ['a nested status object', { gedi: 'g', status: { removed: true } }, 'removed', '$.status.removed = true'],
  ])('holds for %s', (_name, record, flag, evidence) => {
    expect(personFlag(record, flag)).toMatchObject({ holds: true, evidence: [evidence] });
  });

  it.each([
    ['a false flag', { gedi: 'g', removed: false, deregistered: false }, 'removed'],
    ['NOT_REMOVED', { gedi: 'g', status: 'NOT_REMOVED' }, 'removed'],
    ['a reason without the flag', { gedi: 'g', deregistered: false, deregisteredReason: 'Emigrated' }, 'deregistered'],
    ['a relative marked deregistered', { gedi: 'g', relationshipList: [{ legalId: { socialSecurityNumber: '1' }, deregistered: true }] }, 'deregistered'],
    ['a history entry', { gedi: 'g', status: 'ACTIVE', history: [{ status: 'REMOVED', at: '2020-01-01' }] }, 'removed'],
    ['a key that only contains the word', { gedi: 'g', removedAt: null, wasRemovable: true, removedStatus: 'NO' }, 'removed'],
  ])('does not hold for %s', (_name, record, flag) => {
    expect(personFlag(record, flag).holds).toBe(false);
  });
});

describe('a flag of a related person (deceased, deregistered)', () => {
  const relative = (fields: Record<string, unknown>) => ({ legalId: { socialSecurityNumber: '194001011234' }, hierarchicalRelationship: 'Parent', ...fields });

  it.each([
    ['a deceased flag on the relative', { relationshipList: [relative({ deceased: true })] }, 'deceased', '$.relationshipList[0].deceased = true'],
    ['a status on the relative in an envelope', { data: { attributes: { relationshipList: [relative({ status: 'DECEASED' })] } } }, 'deceased', '$.data.attributes.relationshipList[0].status = "DECEASED"'],
    ['a deregistered flag', { relatives: [relative({ isDeregistered: 'true' })] }, 'deregistered', '$.relatives[0].isDeregistered = "true"'],
    ['the legal id as a plain field', { relationshipList: [{ legalId: '194001011234', deceased: true }] }, 'deceased', '$.relationshipList[0].deceased = true'],
  ])('holds for %s', (_name, record, flag, evidence) => {
    expect(relativeFlag(record, '194001011234', flag)).toMatchObject({ holds: true, evidence: [evidence] });
  });

  it.each([
    ['the person deceased, not the relative', { deceased: true, relationshipList: [relative({ deceased: false })] }, 'deceased'],
    ['another relative deceased', { relationshipList: [relative({}), { legalId: { socialSecurityNumber: '195001011234' }, deceased: true }] }, 'deceased'],
    ['a date of death echoed without the mark', { relationshipList: [relative({ dateOfDeath: '2020-01-01', deceased: false })] }, 'deceased'],
    ['a relative not deregistered', { relationshipList: [relative({ deregistered: false, deregisteredReason: 'x' })] }, 'deregistered'],
    ['no entry with the legal id', { relationshipList: [{ legalId: { socialSecurityNumber: '195001011234' }, deregistered: true }] }, 'deregistered'],
    ['the person deregistered, the relative not', { status: 'DEREGISTERED', relationshipList: [relative({ status: 'ACTIVE' })] }, 'deregistered'],
  ])('does not hold for %s', (_name, record, flag) => {
    const reading = relativeFlag(record, '194001011234', flag);
    expect(reading.holds).toBe(false);
    expect(reading.looked).toMatch(/legal id 194001011234/);
  });
});

describe('merged into a person', () => {
  it.each([
    ['merged.gedi', { gedi: 'src', merged: { gedi: 'tgt' } }, '$.merged = {"gedi":"tgt"}'],
    ['mergedInto in an envelope', { data: { gedi: 'src', status: 'MERGED', mergedInto: 'tgt' } }, '$.data.mergedInto = "tgt"'],
    ['the target record itself', { data: { gedi: 'tgt', familyName: 'x' } }, '$.data.gedi = "tgt" (the source gedi resolves to the merge target)'],
  ])('holds for %s', (_name, record, evidence) => {
    expect(mergedInto(record, 'src', 'tgt')).toMatchObject({ holds: true, evidence: [evidence] });
  });

  it.each([
    ['the target only in a relative entry', { gedi: 'src', relationshipList: [{ gedi: 'tgt' }] }],
    ['a merge into another person', { gedi: 'src', merged: { gedi: 'other' } }],
    ['an empty merge field', { gedi: 'src', merged: null, mergedInto: '' }],
    ['merge candidates', { gedi: 'src', mergeCandidates: ['tgt'] }],
    ['a MERGED status without the target', { gedi: 'src', status: 'MERGED' }],
    ['a record without any gedi naming the target in its history', { familyName: 'x', history: [{ mergedInto: 'tgt' }] }],
  ])('does not hold for %s', (_name, record) => {
    expect(mergedInto(record, 'src', 'tgt').holds).toBe(false);
  });
});

describe('a value on the record itself (subscribed person, latest version)', () => {
  it('holds for the record or its envelope', () => {
    expect(ownsValue({ person: { gedi: 'g', familyName: 'Newname' } }, 'Newname')).toMatchObject({ holds: true, evidence: ['$.person.familyName = "Newname"'] });
  });

  it.each([
    ['in a relative entry', { gedi: 'g', familyName: 'Old', relationshipList: [{ familyName: 'Newname' }] }],
    ['in a history of versions', { gedi: 'g', familyName: 'Old', versions: [{ familyName: 'Newname' }] }],
    ['as part of a longer value', { gedi: 'g', familyName: 'Newname-Old' }],
    ['in a message', { gedi: 'g', familyName: 'Old', note: 'renamed to Newname' }],
    ['under another record of the list', [{ gedi: 'x', familyName: 'Newname' }, { gedi: 'g', familyName: 'Old' }][1]],
  ])('does not hold %s', (_name, record) => {
    expect(ownsValue(record, 'Newname').holds).toBe(false);
  });
});
