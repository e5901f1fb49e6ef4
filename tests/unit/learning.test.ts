// Learning by difference (support/layout/learning.ts): the server's own location over the client's value shown back,
// never an identity, a timestamp or a counter; the find container never at the echo of the query.
import { describe, expect, it } from 'vitest';
import {
  candidatesOf,
  learnContainer,
  learnFact,
  proposeLayout,
  type Observation,
} from '../../support/layout/learning.js';

const given = { id: 'p-1', firstName: 'Ada', familyName: 'Byron', legalId: '19121210-1234', deregistered: false };
const sent = { ...given, deregistered: true, deregisteredReason: 'EMIGRATED' };
const other = { id: 'p-2', firstName: 'Bo', familyName: 'Ek', legalId: '19500101-1111', deregistered: false };

function deregistration(subject: object, control: object): Observation {
  return {
    fact: 'person.deregistered',
    operation: 'op3',
    sent,
    subject: { record: subject, bindings: {}, given, identity: ['G1'] },
    control: { record: control, bindings: {}, given: other, identity: ['G2'] },
  };
}

describe('learning a transition by difference against its control', () => {
  it("proposes the server's own flag, not the copy of the request beside it, nor bookkeeping or identities", () => {
    const subject = {
      gedi: 'G1',
      ...given,
      version: 3,
      updatedAt: '2026-12-03T10:00:00Z',
      status: { deregistered: true },
    };
    const control = {
      gedi: 'G2',
      ...other,
      version: 1,
      updatedAt: '2026-12-02T10:00:00Z',
      status: { deregistered: false },
    };
    const { chosen, candidates } = learnFact(
      deregistration({ ...subject, lastWrite: sent }, { ...control, lastWrite: { ...other } }),
    );
    expect(chosen).toMatchObject({ location: '/status/deregistered', predicate: '= true', by: 'difference' });
    expect(candidates.map(({ location }) => location)).not.toContain('/version');
    expect(candidates.map(({ location }) => location)).not.toContain('/gedi');
    expect(candidates.find(({ location }) => location === '/lastWrite/deregistered')?.kind).toBe('same-path');
  });

  it('says as-sent when all that differs is what the client sent', () => {
    const { chosen, why } = learnFact(deregistration({ ...sent }, { ...other }));
    expect(chosen).toMatchObject({ location: '/deregistered', predicate: '= true', by: 'as-sent' });
    expect(why).toMatch(/only the client's own value shown back/);
  });

  it('proposes nothing, and says why, when the subject answers as its control', () => {
    const { chosen, why } = learnFact(deregistration({ ...given, status: 'ACTIVE' }, { ...other, status: 'ACTIVE' }));
    expect(chosen).toBeUndefined();
    expect(why).toMatch(/nothing this transition changed shows/);
  });

  it('prefers a value only this transition shows over one another transition shows too', () => {
    const removal: Observation = {
      ...deregistration({ status: { active: false, removed: true } }, { status: { active: true, removed: false } }),
      fact: 'person.removed',
      sent: { ...given, removed: true },
    };
    const file = proposeLayout(
      [deregistration({ status: { active: false, deregistered: true } }, { status: { active: true } }), removal],
      { by: 'test', date: '2026-12-03' },
    );
    expect(file.facts['person.deregistered']?.location).toBe('/status/deregistered');
    expect(file.facts['person.removed']?.location).toBe('/status/removed');
  });

  it('prefers the shallowest of two words the server chose: the status over a date precision', () => {
    const candidates = candidatesOf(
      deregistration({ status: 'DEREGISTERED', deregistration: { datePrecision: 'DAY' } }, { status: 'ACTIVE' }),
    );
    expect(learnFact(deregistration({ status: 'DEREGISTERED' }, { status: 'ACTIVE' })).chosen?.location).toBe(
      '/status',
    );
    expect(candidates.map(({ location }) => location)).toEqual(['/status', '/deregistration/datePrecision']);
  });
});

describe('learning the find result container against a find for a legal id nobody has', () => {
  const find = (subject: unknown, control: unknown): Observation => ({
    fact: 'person.found',
    operation: 'op4',
    subject: { record: subject, bindings: { legalId: '19121210-1234' }, given: {}, identity: [] },
    control: { record: control, bindings: { legalId: '19990101-0000' }, given: {}, identity: [] },
  });

  it('finds the list of results, never the echo of the query beside it', () => {
    const { chosen } = learnContainer(
      find(
        {
          results: [{ legalId: '19121210-1234', familyName: 'Byron' }],
          searchParameters: { legalId: '19121210-1234' },
        },
        { results: [], searchParameters: { legalId: '19990101-0000' } },
      ),
    );
    expect(chosen).toMatchObject({ location: '/results', predicate: 'lists legalId', shape: { '/results': 'array' } });
  });

  it('finds the answer itself where a find answers one person, and nothing where only the echo shows it', () => {
    expect(learnContainer(find({ legalId: '19121210-1234', familyName: 'Byron' }, undefined)).chosen?.location).toBe(
      '',
    );
    const echo = learnContainer(
      find(
        { hits: [], parameters: { legalId: '19121210-1234' } },
        { hits: [], parameters: { legalId: '19990101-0000' } },
      ),
    );
    expect(echo.chosen).toBeUndefined();
  });
});

describe("learning a list's continuation by the reader's words", () => {
  const learned = { by: 'test', date: '2026-12-03' };
  const unseen = 'every read of the consumers ended on its first page, and asked for pageSize=2, it answered 400';

  it('proposes where a second page was named, whatever a list of one page said', () => {
    const file = proposeLayout(
      [
        { fact: 'list.continuation', operation: 'op6', unseen },
        {
          fact: 'list.continuation',
          operation: 'op7',
          location: '/nextPageToken',
          predicate: 'continues by pageToken',
          why: 'named on a second page',
        },
      ],
      learned,
    );
    expect(file.facts['list.continuation']).toMatchObject({ location: '/nextPageToken', by: 'vocabulary' });
    expect(file.unlearned).toBeUndefined();
  });

  it('says why, where no read saw a second page', () => {
    const file = proposeLayout([{ fact: 'list.continuation', operation: 'op6', unseen }], learned);
    expect(file.facts).toEqual({});
    expect(file.unlearned).toEqual({ 'list.continuation': unseen });
  });
});

describe("learning where a list's pages hold their records", () => {
  it('proposes the location with every key its pages carried beside it, from every read', () => {
    const seen = (pageKeys: string[]) => ({
      fact: 'consumers.entries' as const,
      operation: 'op6',
      location: '/consumers',
      predicate: 'holds entries',
      why: 'where every page read held its records',
      shape: { '/consumers': 'array' as const },
      pageKeys,
    });
    const file = proposeLayout([seen(['nextPageToken']), seen([])], { by: 'test', date: '2026-12-03' });
    expect(file.facts['consumers.entries']).toMatchObject({
      location: '/consumers',
      predicate: 'holds entries',
      pageKeys: ['nextPageToken'],
      shape: { '/consumers': 'array' },
      by: 'vocabulary',
    });
  });
});
