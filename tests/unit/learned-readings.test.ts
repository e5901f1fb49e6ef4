import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readLayoutFile, type LayoutFile } from '../../support/layout/layout-file.js';
import { LayoutChangedError, LearnedFacts } from '../../support/layout/learned-readings.js';
import { resolve, satisfies, shapeChanges } from '../../support/layout/locations.js';
import { readObservations } from '../../support/layout/learning-journal.js';

const RELATIVE = '194001019802';
const vendor: LayoutFile = readLayoutFile(
  new URL('../../schemas/layouts/simulator/vendor.json', import.meta.url).pathname,
);
const sparse: LayoutFile = readLayoutFile(
  new URL('../../schemas/layouts/simulator/standard-status-sparse.json', import.meta.url).pathname,
);

describe('locations', () => {
  const record = {
    status: { deregistered: true },
    relations: [
      { legalId: { identityNumber: '1' }, status: { deceased: false } },
      { legalId: { identityNumber: RELATIVE }, status: { deceased: true } },
    ],
  };

  it('selects a list entry by the identity bound to it', () => {
    const at = resolve(record, '/relations/[legalId/identityNumber=relative]/status/deceased', { relative: RELATIVE });
    expect(at).toMatchObject({ found: true, value: true, path: '$.relations[1].status.deceased' });
  });

  it('finds no entry for an identity nobody has', () => {
    expect(resolve(record, '/relations/[legalId/identityNumber=relative]/status', { relative: '9' }).found).toBe(false);
  });

  it('compares with a literal or a bound value, and an unbound one satisfies nothing', () => {
    expect(satisfies('REMOVED', '= "REMOVED"', {})).toBe(true);
    expect(satisfies('g-1', '= target.gedi', { target: { gedi: 'g-1' } })).toBe(true);
    expect(satisfies(undefined, '= target.gedi', {})).toBe(false);
    expect(satisfies(2, '> 0', {})).toBe(true);
    expect(satisfies(0, '> 0', {})).toBe(false);
  });

  it('names the outermost change of shape only', () => {
    const shape = { '/status': 'object', '/status/deregistered': 'boolean' } as const;
    expect(shapeChanges({ status: 'DEREGISTERED' }, shape, {})).toEqual([
      '/status was object, now string "DEREGISTERED"',
    ]);
    expect(shapeChanges({}, shape, {})).toEqual(['/status (learned object) is gone']);
    expect(shapeChanges(record, shape, {})).toEqual([]);
  });
});

describe('LearnedFacts', () => {
  const facts = new LearnedFacts(vendor);

  it('holds on the learned location, naming it and the date it was learned', () => {
    const read = facts.reading('person.deregistered')({ status: { deregistered: true } });
    expect(read.holds).toBe(true);
    expect(read.evidence).toEqual([
      '$.status.deregistered = true (/status/deregistered = true, as learned on 2026-12-02)',
    ]);
  });

  it('reads nothing else: a yes beside the location, or in a copy of the request, is no evidence', () => {
    const answer = { status: { deregistered: false }, deregistered: true, lastWrite: { deregistered: true } };
    expect(facts.reading('person.deregistered')(answer)).toMatchObject({
      holds: false,
      found: '$.status.deregistered = false',
    });
  });

  it('reads the computed relative, not the one listed as sent beside it', async () => {
    const answer = {
      relationshipList: [{ legalId: { socialSecurityNumber: RELATIVE }, dateOfDeath: '2001-01-01' }],
      relations: [{ legalId: { identityNumber: RELATIVE }, status: { deceased: false, deregistered: false } }],
    };
    const read = facts.reading('relative.deceased', { relative: RELATIVE });
    expect(read(answer).holds).toBe(false);
    // Its shape is intact and the sent date is the client's own: a broken rule, not a changed layout.
    expect(await read.settle!(answer, false)).toBeUndefined();
  });

  it('reads an absent flag of a sparse status as no, and a status turned into a word as a changed layout', async () => {
    const read = new LearnedFacts(sparse).reading('person.deregistered');
    expect(read({ status: { active: true }, lastWrite: { deregistered: true } })).toMatchObject({
      holds: false,
      found: '/status/deregistered: absent, which reads as no',
    });
    expect(await read.settle!({ status: { active: true } }, false)).toBeUndefined();
    const changed = await read.settle!({ status: 'DEREGISTERED' }, false);
    expect(changed).toBeInstanceOf(LayoutChangedError);
    expect(changed).toMatchObject({ fact: 'person.deregistered', learned: '/status/deregistered = true' });
    expect(changed!.changes).toEqual(['/status was object, now string "DEREGISTERED"']);
  });

  it('proposes, against the control, where the server now shows the yes, not the client mark shown back', async () => {
    const given = {
      id: 'p-1',
      firstName: 'Ada',
      familyName: 'Lovelace',
      legalId: '19121210-1234',
      deregistered: false,
    };
    const sent = { ...given, deregistered: true };
    const control = { status: { deregistered: false }, state: { deregistered: false }, lastWrite: given };
    const read = facts.reading('person.deregistered', {
      sent,
      own: { given, identity: ['G1'] },
      control: async () => ({ record: control, bindings: {}, given: { id: 'p-2' }, identity: ['G2'] }),
    });
    const moved = await read.settle!({ status: { deregistered: false }, state: { deregistered: true } }, false);
    expect(moved?.proposed).toBe('/state/deregistered = true');
    const copied = { status: { deregistered: false }, state: { deregistered: false }, lastWrite: sent };
    expect(await read.settle!(copied, false)).toBeUndefined();
    // A reading that held reads no control.
    expect(await read.settle!({ status: { deregistered: true } }, true)).toBeUndefined();
  });

  it("lets the wait's own verdict stand when the control cannot be read, in strict and learning runs", async () => {
    const given = { id: 'p-1', deregistered: false };
    const unreadable = async (): Promise<never> => {
      throw new Error('control person G2 to answer the same twice in a row: 429 until the deadline');
    };
    const subject = { sent: { ...given, deregistered: true }, own: { given, identity: ['G1'] }, control: unreadable };
    const moved = { status: { deregistered: false }, state: { deregistered: true } };
    expect(await facts.reading('person.deregistered', subject).settle!(moved, false)).toBeUndefined();
    const journal = mkdtempSync(join(tmpdir(), 'journal-'));
    const learning = new LearnedFacts(undefined, journal).reading('person.deregistered', subject);
    expect(await learning.settle!(moved, true)).toBeUndefined();
    expect(readObservations(journal)).toEqual([]);
  });

  it("reads a consumer's state on its own entry where it was learned, not a word beside it", () => {
    const alternate = readLayoutFile(
      new URL('../../schemas/layouts/simulator/alternate.json', import.meta.url).pathname,
    );
    const read = new LearnedFacts(alternate).reading('consumer.identified');
    expect(read({ consumerId: 'c-1', status: 'IDENTIFIED' }).holds).toBe(true);
    expect(read({ consumerId: 'c-1', status: 'UNIDENTIFIED', state: 'IDENTIFIED' }).holds).toBe(false);
  });

  it("reads a list's records only where its pages were learned to hold them", () => {
    const pages = [
      { persons: [{ legalId: 'L-1' }], nextPageToken: 't1', pageSize: 1 },
      { persons: [{ legalId: 'L-2' }], query: { legalId: 'L-3' } },
    ];
    expect(facts.entriesOf('subscriptions.entries', pages)).toEqual([{ legalId: 'L-1' }, { legalId: 'L-2' }]);
    const moved = () => facts.entriesOf('subscriptions.entries', [{ items: [{ legalId: 'L-1' }] }]);
    expect(moved).toThrow(/subscriptions.entries was learned at \/persons holds entries; page 1 has nothing there/);
    expect(moved).toThrow(/now proposed at \/items/);
  });

  it('takes a read that ended on a page with a key its learned pages never had as a changed layout', () => {
    const page = { consumers: [{ consumerId: 'c-1' }], pageSize: 1, nextPage: 'MTA' };
    expect(facts.entriesOf('consumers.entries', [page])).toEqual([{ consumerId: 'c-1' }]);
    expect(() => facts.entriesOf('consumers.entries', [page], true)).toThrow(LayoutChangedError);
    expect(() => facts.entriesOf('consumers.entries', [page], true)).toThrow(
      /page 1 carries nextPage, which the learned pages never had/,
    );
  });

  it("journals where a learning run's pages held their records, and the keys beside them, counts aside", () => {
    const journal = mkdtempSync(join(tmpdir(), 'journal-'));
    new LearnedFacts(undefined, journal).observeEntries('consumers.entries', 'op6', [
      { data: [{ consumerId: 'c-1' }], meta: { nextCursor: 'x' }, total: 3 },
      { data: [], meta: {}, links: { self: '/c' } },
    ]);
    expect(readObservations(journal)).toEqual([
      {
        fact: 'consumers.entries',
        operation: 'op6',
        location: '/data',
        predicate: 'holds entries',
        why: 'where every page read held its records',
        shape: { '/data': 'array' },
        pageKeys: ['links', 'meta'],
      },
    ]);
  });

  it('reads a PEP hit only among the match entries where it was learned, and none in a PEP list of no matches', () => {
    const perList = readLayoutFile(
      new URL('../../schemas/layouts/simulator/vendor-screening-per-list.json', import.meta.url).pathname,
    );
    const read = (body: unknown) => new LearnedFacts(perList).pepHit(body);
    const politician = { name: 'P', lists: [{ type: 'PEP' }] };
    const lists = (pep: unknown[], sanctions: unknown[]) => ({
      screeningResult: {
        matches: [
          { listType: 'PEP', numberOfMatches: pep.length, matches: pep },
          { listType: 'SANCTION', numberOfMatches: sanctions.length, matches: sanctions },
        ],
      },
    });
    expect(read(lists([politician], [])).evidence).toEqual([
      '$.screeningResult.matches[0].matches[0].lists[0].type = "PEP"',
    ]);
    // A PEP-typed match filed under the sanctions list is not where the PEP list was learned.
    expect(read(lists([], [politician])).holds).toBe(false);
    expect(() => read({ screeningResult: { hits: [politician] } })).toThrow(
      /Layout changed: screening.pep was learned at \/screeningResult\/matches\/\[listType="PEP"\]\/matches/,
    );
  });

  it("journals where a learning run's politician answer listed its PEP match", () => {
    const journal = mkdtempSync(join(tmpdir(), 'journal-'));
    const answer = { data: { outcome: 'HIT', hits: [{ type: 'SANCTIONS' }, { type: 'PEP', pep: true }] } };
    expect(new LearnedFacts(undefined, journal).pepHit(answer).holds).toBe(true);
    expect(readObservations(journal)).toMatchObject([
      { fact: 'screening.pep', location: '/data/hits', predicate: 'lists PEP', shape: { '/data/hits': 'array' } },
    ]);
  });

  it('finds a list entry by its identity where it was learned, and a moved identity as a changed layout', () => {
    const person = { gedi: 'G-1', legalId: 'L-1' };
    const vocabulary = (entries: unknown) => (entries as { nin?: unknown }[]).find((entry) => entry.nin === 'L-1');
    const entries = [{ legalId: { identityNumber: 'L-2' } }, { legalId: { identityNumber: 'L-1' }, copy: 'L-1' }];
    expect(facts.entryNaming('subscription.person', entries, { person }, vocabulary)).toBe(entries[1]);
    expect(facts.entryNaming('subscription.person', [entries[0]], { person }, vocabulary)).toBeUndefined();
    expect(() => facts.entryNaming('subscription.person', [{ nin: 'L-1' }], { person }, vocabulary)).toThrow(
      /subscription.person was learned at \/legalId\/identityNumber = person.legalId; no entry carries "L-1" there/,
    );
  });

  it('journals where the entry a wait found carries its identity, by value, its shallowest place', () => {
    const journal = mkdtempSync(join(tmpdir(), 'journal-'));
    const entry = { person: { lastWrite: { legalId: 'L-1' }, relations: [{ legalId: 'L-9' }], legalId: 'L-1' } };
    new LearnedFacts(undefined, journal).observeIdentity('subscription.person', 'op7', entry, {
      person: { gedi: 'G-1', legalId: 'L-1' },
    });
    expect(readObservations(journal)).toMatchObject([
      { fact: 'subscription.person', location: '/person/legalId', predicate: '= person.legalId', by: 'value' },
    ]);
  });

  it('tells the company cases apart only where they were learned to differ', async () => {
    const never = async () => {
      throw new Error('a strict run asks for no repeat');
    };
    const company = (name: string, risk: string) => ({ verifiedCompany: { name }, screeningResult: { risk } });
    const differ = (a: unknown, b: unknown) => facts.companyCasesDiffer(a, b, never);
    expect((await differ(company('A', 'LOW'), company('B', 'HIGH'))).evidence).toEqual([
      '/verifiedCompany/name: "A" and "B" (as learned on 2026-12-02)',
    ]);
    expect((await differ(company('A', 'LOW'), company('A', 'LOW'))).holds).toBe(false);
    await expect(differ(company('A', 'LOW'), company('A', 'HIGH'))).rejects.toThrow(
      /the outcomes are the same there and differ at \/screeningResult\/risk/,
    );
  });

  it('learns where the company cases differ, leaving out what a repeat of the first changed too', async () => {
    const journal = mkdtempSync(join(tmpdir(), 'journal-'));
    const first = { risk: 'LOW', hits: 0, note: 'run 1' };
    const again = async () => ({ risk: 'LOW', hits: 0, note: 'run 2' });
    const read = await new LearnedFacts(undefined, journal).companyCasesDiffer(first, { risk: 'HIGH', hits: 2 }, again);
    expect(read.holds).toBe(true);
    expect(readObservations(journal)).toMatchObject([
      {
        fact: 'screening.company',
        location: '/risk',
        predicate: 'differs',
        by: 'difference',
        candidates: ['/risk differs'],
      },
    ]);
  });

  it("takes a record as the person's own by its legal id where it was learned, and not a placeholder", () => {
    const stored = { gedi: 'G-1', person: { legalId: 'L-1' } };
    const record = { legalId: { identityNumber: 'L-1' }, firstName: 'Ada', status: { active: true } };
    expect(facts.ownRecord(record, stored).holds).toBe(true);
    expect(facts.ownRecord({ legalId: { identityNumber: 'L-2' }, firstName: 'Ada' }, stored).holds).toBe(false);
    expect(facts.ownRecord({ gedi: 'G-1', status: 'PENDING' }, stored).holds).toBe(false);
    const moved = { nin: { identityNumber: 'L-1' }, legalId: 'L-1', firstName: 'Ada' };
    expect(() => facts.ownRecord(moved, stored)).toThrow(
      /person.legalId was learned at \/legalId\/identityNumber = person.legalId; the record carries neither/,
    );
  });

  it('reads by the key vocabulary where the target has no layout file', () => {
    expect(new LearnedFacts(undefined).reading('person.removed')({ status: 'REMOVED' }).holds).toBe(true);
  });
});

describe('readLayoutFile', () => {
  const write = (content: string) => {
    const path = join(mkdtempSync(join(tmpdir(), 'layout-')), 'target.json');
    writeFileSync(path, content);
    return path;
  };

  it('names the setting and the fix for a missing file', () => {
    expect(() => readLayoutFile('/nonexistent/target.json')).toThrow(
      /^CONTRACT_LAYOUT: names \/nonexistent\/target\.json, which does not exist/,
    );
  });

  it('names every malformed fact', () => {
    const path = write(
      JSON.stringify({
        learned: { by: 'a person', date: '2026-12-02' },
        facts: {
          'person.deregistered': { operation: 'op3', location: 'status.deregistered', predicate: 'true', by: 'guess' },
        },
      }),
    );
    expect(() => readLayoutFile(path)).toThrow(/"location" must be a JSON Pointer/);
  });
});
