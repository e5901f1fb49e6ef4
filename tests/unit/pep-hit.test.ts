// pepHit against realistic vendor-style screening answers: several layouts that show a PEP hit, and more that say
// there is no match, deny it in the entry itself, or put PEP words where no match is.
import { describe, expect, it } from 'vitest';
import { LAYOUT_NAMES } from '../../simulator/options.js';
import { LAYOUTS } from '../../simulator/layouts/index.js';
import type { ScreeningMatch } from '../../simulator/screening.js';
import { pepHit } from '../../support/readings/pep-hit.js';

describe('a PEP hit', () => {
  it.each([
    [
      'a match with a PEP category',
      { matches: [{ name: 'Test Politician', category: 'PEP', score: 0.97 }] },
      '$.matches[0].category = "PEP"',
    ],
    [
      'a hit typed PEP in a data envelope',
      { data: { outcome: 'HIT', hits: [{ type: 'PEP', matchedName: 'x' }] } },
      '$.data.hits[0].type = "PEP"',
    ],
    ['a match with a PEP flag', { results: [{ entityName: 'x', isPep: true }] }, '$.results[0].isPep = true'],
    [
      'a match found on the PEP list',
      { alerts: [{ listName: 'Politically Exposed Persons' }] },
      '$.alerts[0].listName = "Politically Exposed Persons"',
    ],
    [
      'a match with categories including PEP',
      { screening: { candidates: [{ categories: ['SANCTIONS', 'PEP'] }] } },
      '$.screening.candidates[0].categories = ["SANCTIONS","PEP"]',
    ],
    ['a flag on the subject', { subject: { politicallyExposed: true } }, '$.subject.politicallyExposed = true'],
    ['a PEP status saying hit', { pepStatus: 'HIT' }, '$.pepStatus = "HIT"'],
    ['a list of PEP matches', { peps: [{ name: 'x' }] }, '$.peps[0] (an entry of a PEP match list)'],
    [
      "the vendor's published shape: a match found on lists given as objects",
      {
        screeningResult: {
          numberOfMatches: 1,
          matches: [
            { name: 'Test Politician', lists: [{ type: 'PEP', name: 'Domestic PEP list' }], pepCategory: 'POLITICIAN' },
          ],
          listsScreened: ['PEP', 'SANCTION', 'RCA'],
        },
      },
      '$.screeningResult.matches[0].lists[0].type = "PEP"',
    ],
    [
      'a list entry named for the PEP list, beside a sanctions list',
      { hits: [{ sources: [{ code: 'EU-CONS' }, { title: 'Politically exposed persons' }] }] },
      '$.hits[0].sources[1].title = "Politically exposed persons"',
    ],
    [
      'a former PEP: inactive is not a denial',
      { matches: [{ category: 'PEP', active: false }] },
      '$.matches[0].category = "PEP"',
    ],
    [
      'an unreviewed hit: unconfirmed is not a denial',
      { hits: [{ type: 'PEP', confirmed: false }] },
      '$.hits[0].type = "PEP"',
    ],
    [
      'a match typed as a person, found on the PEP dataset',
      { results: [{ type: 'PERSON', datasets: ['PEP'] }] },
      '$.results[0].datasets = ["PEP"]',
    ],
  ])('holds for %s, with the evidence', (_name, body, evidence) => {
    expect(pepHit(body)).toMatchObject({ holds: true, evidence: [evidence] });
  });

  it.each([
    [
      'no match, naming the lists it checked',
      { outcome: 'NO_HIT', listsChecked: ['PEP', 'SANCTIONS', 'ADVERSE_MEDIA'], hits: [] },
    ],
    ['a negative message', { status: 'COMPLETED', message: 'No PEP match found', matches: [] }],
    [
      'PEP named only in the screening settings',
      { screeningTypes: ['PEP', 'SANCTIONS'], settings: { pep: true }, results: [] },
    ],
    ['a denied PEP flag', { pep: false, isPep: 'false', hits: [] }],
    ['NO_MATCH under an affirmative-looking key', { pepStatus: 'NO_MATCH', pepResult: 'CLEAR' }],
    [
      'a zero hit count with a PEP category mentioned',
      { hitCount: 0, categories: ['PEP'], matches: [{ category: 'PEP' }] },
    ],
    ['an empty PEP list', { peps: [], pepHits: [] }],
    ['a sanctions hit only', { hits: [{ category: 'SANCTIONS', pep: false, description: 'not a PEP' }] }],
    [
      'a no-match outcome that still lists the PEP candidates it ruled out',
      { result: 'CLEAR', candidates: [{ category: 'PEP', disposition: 'FALSE_POSITIVE' }] },
    ],
    ['prose only', { summary: 'Subject is a politically exposed person', comment: 'politician' }],
    ['a category that only contains the word', { hits: [{ category: 'NON_PEP' }, { type: 'PEP_SCREENING_DISABLED' }] }],
    // The vendor's published shape, saying no: lists screened are not lists matched.
    [
      'no match, naming the lists it screened',
      { screeningResult: { numberOfMatches: 0, matches: [], listsScreened: ['PEP', 'SANCTION', 'RCA'] } },
    ],
    [
      'a sanctions match, PEP named only in listsScreened',
      {
        screeningResult: {
          numberOfMatches: 1,
          matches: [{ name: 'x', lists: [{ type: 'SANCTION', name: 'EU consolidated list' }] }],
          listsScreened: ['PEP', 'SANCTION', 'RCA'],
        },
      },
    ],
    [
      'a sanctions-only match',
      {
        screeningResult: {
          numberOfMatches: 1,
          matches: [
            {
              name: 'x',
              lists: [
                { type: 'SANCTION', name: 'OFAC SDN' },
                { type: 'SANCTION', name: 'UN consolidated' },
              ],
            },
          ],
        },
      },
    ],
    [
      'a match with a relative or close associate of a PEP',
      {
        screeningResult: {
          numberOfMatches: 1,
          matches: [{ name: 'x', lists: [{ type: 'RCA', name: 'Relatives and close associates of PEPs' }] }],
          listsScreened: ['PEP', 'RCA'],
        },
      },
    ],
    [
      'a match count of 0 beside the lists screened',
      {
        screeningResult: { numberOfMatches: 0, listsScreened: ['PEP', 'SANCTION'] },
        matches: [{ lists: [{ type: 'PEP' }] }],
      },
    ],
    ['a PEP entry whose status says no match', { results: [{ list: 'PEP', status: 'NO_MATCH' }] }],
    ['a PEP entry that says it did not match', { hits: [{ category: 'PEP', matched: false }] }],
    [
      'a PEP entry that is no hit',
      {
        hits: [
          { category: 'PEP', hit: 'false' },
          { type: 'PEP', isMatch: false },
        ],
      },
    ],
    ['a PEP entry whose outcome is clear', { matches: [{ categories: ['PEP'], outcome: 'CLEAR' }] }],
    [
      'a sanctions match naming the datasets searched',
      { hits: [{ category: 'SANCTIONS', datasets: ['PEP', 'SANCTIONS'], name: 'x' }] },
    ],
    [
      "a sanctions match in the vendor's shape, its own list an object, naming the datasets searched",
      { screeningResult: { matches: [{ lists: [{ type: 'SANCTION' }], datasets: ['PEP', 'SANCTIONS'] }] } },
    ],
    [
      'a PEP entry under an overall outcome of no match',
      { screeningResult: { result: 'NO_MATCH', matches: [{ lists: [{ type: 'PEP' }] }] } },
    ],
    // One entry per list screened, each with its count: the PEP list's own zero says no, whatever the others hold.
    [
      'a PEP list of no matches beside a sanctions list with one',
      {
        matches: [
          { listType: 'PEP', numberOfMatches: 0, matches: [] },
          { listType: 'SANCTION', numberOfMatches: 1, matches: [{ name: 'X', category: 'SANCTIONS' }] },
        ],
      },
    ],
  ])('does not hold for %s', (_name, body) => {
    const reading = pepHit(body);
    expect(reading.holds).toBe(false);
    expect(reading.evidence).toEqual([]);
    expect(reading.looked).toMatch(/match entries/);
  });
});

describe.each(LAYOUT_NAMES)("a PEP hit in the simulator's %s layout", (name) => {
  const answer = (matches: ScreeningMatch[]) =>
    LAYOUTS[name].screening({
      screeningId: 'a1',
      timestamp: '2026-11-28T10:00:00Z',
      reference: 'person_test_case_01',
      provider: 'SANDBOX-AML',
      subject: 'person',
      riskLevel: 'HIGH',
      matches,
      input: { reference: 'person_test_case_01' },
    }).body;
  const politician: ScreeningMatch = {
    name: 'Test Politician',
    category: 'PEP',
    pep: true,
    description: 'Member of national parliament',
    score: 0.97,
  };

  it('holds for the honest answer to the person test case', () => {
    expect(pepHit(answer([politician])).holds).toBe(true);
  });

  it('does not hold for no match, nor for a sanctions match', () => {
    expect(pepHit(answer([])).holds).toBe(false);
    expect(pepHit(answer([{ ...politician, category: 'SANCTIONS', pep: false }])).holds).toBe(false);
  });
});
