import { rmSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { gediIn, SandboxPersons, type StoredPerson } from '../../support/verbs/persons.js';
import { createDataFactory, type SandboxPerson } from '../../support/data/factories.js';
import { listsPerson } from '../../support/readings/facts.js';
import { LAYOUTS } from '../../simulator/layouts/index.js';
import type { Reply } from '../../simulator/layouts/layout.js';
import type { PersonView } from '../../simulator/person-queries.js';
import { ledgerFile, leftovers } from '../../support/data/ledger.js';
import { readSettings, type ContractConfig } from '../../support/run/config.js';
import { ApiClient, NotSentError } from '../../support/transport/http.js';
import { RunTime, TestWork } from '../../support/evidence/test-time.js';
import { fakeClock, sendJson, serversClosedAfterEach } from './local-server.js';

// The documented paths: what every path is when no CONTRACT_*_PATH is set.
const DEFAULT_PATHS = readSettings({}, '/nonexistent').paths;

describe('the gedi in a PUT response', () => {
  it.each([
    ['at the top', { gedi: 'G-1', id: 'p' }],
    ['in an envelope', { data: { clientReference: 'p', gedi: 'G-1' } }],
    ['in a list', [{ person: { gedi: 'G-1' } }]],
  ])('is found %s', (_where, body) => {
    expect(gediIn(body)).toBe('G-1');
  });

  it('prefers the top-level gedi over one named inside (a merge target)', () => {
    expect(gediIn({ merged: { gedi: 'TARGET' }, gedi: 'SELF' })).toBe('SELF');
  });

  it('is missing from a body without one', () => {
    expect(gediIn({ id: 'p', status: 'ACCEPTED' })).toBeUndefined();
    expect(gediIn(undefined)).toBeUndefined();
  });
});

// Answers as each simulator layout renders them: operation 3's record, operation 4's match, and the
// find-echoes-query mutant's answer to operation 4 (the legal id asked for, and nobody).
const factory = createDataFactory({ seed: 1, runId: 'r', market: 'SE', scope: 'persons.test' });
const [person, stranger] = [factory.person(), factory.person()];
const stored: StoredPerson = { person, gedi: 'G-1' };
const view = (fields: SandboxPerson, gedi: string): PersonView => {
  const state = { fields: { ...fields }, removed: false, deregistered: false };
  return { gedi, market: 'SE', version: 1, writtenAt: 0, state };
};
const layouts = Object.entries(LAYOUTS).map(([name, layout]) => ({
  name,
  record: layout.person(view(person, 'G-1')).body,
  match: layout.found([view(person, 'G-1')]),
  echo: layout.found([], { legalId: person.legalId, as: 'request' }),
}));

describe('a record describing a stored person', () => {
  const relative = { hierarchicalRelationship: 'Parent', legalId: { socialSecurityNumber: person.legalId } };
  const asked = { gedi: 'G-1', legalId: person.legalId };

  it.each(layouts)('is its own record in the $name layout', ({ record }) => {
    expect(listsPerson(record, stored).holds).toBe(true);
  });

  it.each([
    ['another person', { gedi: 'G-2', legalId: stranger.legalId }],
    ['another person with it as a relative', { gedi: 'G-2', legalId: stranger.legalId, relationshipList: [relative] }],
    ['another person merged into it', { gedi: 'G-2', legalId: stranger.legalId, merged: { gedi: 'G-1' } }],
    ['an error that echoes the request', { error: { code: 'not_found' }, request: asked }],
  ])('is not %s', (_name, record) => {
    expect(listsPerson(record, stored).holds).toBe(false);
  });
});

describe("a PUT's answer, the promise of person.create-returns-gedi", () => {
  const persons = new SandboxPersons(new ApiClient({ baseUrl: 'http://unused' }), {} as ContractConfig, factory);
  const answered = (status: number, body: unknown) =>
    ({ status, ok: status < 300, headers: {}, body, text: JSON.stringify(body), exchanges: [] }) as never;

  it('fails as that rule, decisively on a 2xx without a gedi, and for other rules to judge on a refusal', () => {
    const failureOf = (response: never) => {
      try {
        persons.acknowledged(person, response);
      } catch (error) {
        return error;
      }
      throw new Error('expected a failure');
    };
    expect(failureOf(answered(200, { id: person.id }))).toMatchObject({
      rule: 'person.create-returns-gedi',
      decisive: true,
      cause: expect.objectContaining({ message: expect.stringMatching(/put-person-response/) }),
    });
    expect(failureOf(answered(400, { error: 'bad' }))).toMatchObject({
      rule: 'person.create-returns-gedi',
      decisive: false,
      message: expect.stringMatching(/^PUT sandbox person answered 400/),
    });
    expect(persons.acknowledged(person, answered(201, { gedi: 'G-1' }))).toEqual({ person, gedi: 'G-1' });
  });
});

describe('waiting for a person to be findable, and then gone', () => {
  const listen = serversClosedAfterEach();
  const config = (url: string) => ({ baseUrl: url, paths: DEFAULT_PATHS, market: 'SE', availabilityTimeoutMs: 3000 });
  // A wait's sleeps return at once: its first look comes 1.5 s after a delete, which a real clock waits out.
  const personsAt = (url: string) =>
    new SandboxPersons(new ApiClient({ baseUrl: url, clock: fakeClock() }), config(url) as ContractConfig, factory);
  const answering =
    (...answers: Reply[]) =>
    (_request: unknown, response: ServerResponse) => {
      const answer = answers.length > 1 ? answers.shift()! : answers[0]!;
      if (answer.body === undefined) response.writeHead(answer.status).end();
      else sendJson(response, answer.status, answer.body);
    };

  it.each(layouts)('finds a person of its own in the answer, not the echo ($name layout)', async ({ echo, match }) => {
    const server = await listen(answering(echo, match));
    expect((await personsAt(server.url).awaitFindable(stored)).record).toEqual(match.body);
    expect(server.received, 'a find answered with the echo, then one with the person').toHaveLength(2);
  });

  it.each(layouts)('takes an echo of the legal id for the person gone ($name layout)', async ({ echo }) => {
    const server = await listen((request, response) =>
      request.method === 'GET' ? sendJson(response, 404, { error: 'gone' }) : answering(echo)(request, response),
    );
    await personsAt(server.url).awaitGone(stored);
    expect(server.received.map(({ method }) => method)).toEqual(['GET', 'POST']);
  });
});

describe('the cleanup of the persons a test created', () => {
  const listen = serversClosedAfterEach();

  it('deletes nobody for a first PUT that was never sent because its test had ended', async () => {
    const server = await listen((_request, response) => sendJson(response, 200, { gedi: 'G-1' }));
    const runId = `unit-persons-${process.pid}-${Date.now()}`;
    const config = {
      baseUrl: server.url,
      paths: DEFAULT_PATHS,
      runId,
      client: { clientId: 'c', clientSecret: 's' },
    } as ContractConfig;
    const cancelled = new AbortController();
    cancelled.abort('cancelled');
    const work = new TestWork('a test', cancelled.signal, new RunTime(), { ownTimeMs: 60_000, backstopMs: 600_000 });
    const persons = new SandboxPersons(
      new ApiClient({ baseUrl: server.url, work }),
      config,
      createDataFactory({ seed: 1, runId, market: 'SE', scope: 'persons.test' }),
    );
    try {
      await expect(work.run(() => persons.create())).rejects.toThrow(NotSentError);
      await persons.cleanUp();
      expect(server.received, 'neither the PUT nor a DELETE of its id').toEqual([]);
      expect(
        leftovers(new URL(server.url).origin).filter((left) => left.file === ledgerFile(runId)),
        'left in the ledger for a sweep',
      ).toEqual([]);
    } finally {
      rmSync(ledgerFile(runId), { force: true });
    }
  });
});
