import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { describes, gediIn, SandboxPersons } from '../../support/verbs/persons.js';
import { createDataFactory } from '../../support/data/factories.js';
import { ledgerFile, leftovers } from '../../support/data/ledger.js';
import { DEFAULT_PATHS, type ContractConfig } from '../../support/run/config.js';
import { ApiClient } from '../../support/transport/http.js';
import { NotSentError, testWork } from '../../support/transport/work.js';
import { sendJson, serversClosedAfterEach } from './local-server.js';

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

describe('a record describing a stored person', () => {
  const person = createDataFactory({ seed: 1, runId: 'r', market: 'SE', scope: 'persons.test' }).person();

  it('carries its gedi or its legal id', () => {
    expect(describes({ data: { gedi: 'G-1' } }, { person, gedi: 'G-1', acknowledgedAt: 0 })).toBe(true);
    expect(describes({ attributes: { legalId: person.legalId } }, { person, gedi: 'G-1', acknowledgedAt: 0 })).toBe(true);
    expect(describes({ gedi: 'G-2', legalId: '190001010000' }, { person, gedi: 'G-1', acknowledgedAt: 0 })).toBe(false);
  });
});

describe('the cleanup of the persons a test created', () => {
  const listen = serversClosedAfterEach();

  it('deletes nobody for a first PUT that was never sent because its test had ended', async () => {
    const server = await listen((_request, response) => sendJson(response, 200, { gedi: 'G-1' }));
    const runId = `unit-persons-${process.pid}-${Date.now()}`;
    const config = { baseUrl: server.url, paths: DEFAULT_PATHS, runId, client: { clientId: 'c', clientSecret: 's' } } as ContractConfig;
    const persons = new SandboxPersons(new ApiClient({ baseUrl: server.url }), config, createDataFactory({ seed: 1, runId, market: 'SE', scope: 'persons.test' }));
    try {
      const cancelled = new AbortController();
      cancelled.abort('cancelled');
      await expect(testWork(cancelled.signal, () => persons.create())).rejects.toThrow(NotSentError);
      await persons.cleanUp();
      expect(server.received, 'neither the PUT nor a DELETE of its id').toEqual([]);
      expect(leftovers(new URL(server.url).origin).filter((left) => left.file === ledgerFile(runId)), 'left in the ledger for a sweep').toEqual([]);
    } finally {
      rmSync(ledgerFile(runId), { force: true });
    }
  });
});
