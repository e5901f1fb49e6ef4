import { describe, expect, it } from 'vitest';
import { LearnedFacts } from '../../support/layout/learned-readings.js';
import { ConsumerData } from '../../support/verbs/consumers.js';
import type { StoredPerson } from '../../support/verbs/persons.js';
import { ListIncompleteError } from '../../support/readings/list-reader.js';
import { NotConsistentError } from '../../support/readings/eventually.js';
import { readSettings, type ContractConfig } from '../../support/run/config.js';
import { ApiClient } from '../../support/transport/http.js';
import { sendJson, serversClosedAfterEach, type Handler } from './local-server.js';

// The documented paths: what every path is when no CONTRACT_*_PATH is set.
const DEFAULT_PATHS = readSettings({}, '/nonexistent').paths;

const CONSUMERS = DEFAULT_PATHS.consumers;

const PERSON = { gedi: 'G-1', person: { legalId: '19800101-1234' } } as StoredPerson;

/** A consumer list of two pages: `c1` on the first, `c2` on the second, which answers `secondPage`. */
function twoPages(secondPage = 200): Handler {
  return (request, response) => {
    if (request.url.includes('cursor=2')) {
      if (secondPage !== 200) return sendJson(response, secondPage, { error: 'internal' });
      return sendJson(response, 200, { items: [{ consumerId: 'c2', state: 'IDENTIFIED' }], next: null });
    }
    sendJson(response, 200, { items: [{ consumerId: 'c1', state: 'IDENTIFIED' }], next: `${CONSUMERS}?cursor=2` });
  };
}

describe('the consumer verbs', () => {
  const listen = serversClosedAfterEach();
  const consumersAt = (url: string, settings: Partial<ContractConfig> = {}) =>
    new ConsumerData(
      new ApiClient({ baseUrl: url }),
      {
        baseUrl: url,
        paths: DEFAULT_PATHS,
        availabilityTimeoutMs: 300,
        layout: { kind: 'simulator' },
        ...settings,
      } as ContractConfig,
      new LearnedFacts(undefined),
    );

  it(
    'fails an absence check on a list whose second page answers 500, ' + 'naming the status, never as an absence',
    async () => {
      const server = await listen(twoPages(500));
      const error = await consumersAt(server.url)
        .listWhole('consumers')
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ListIncompleteError);
      expect((error as Error).message).toBe(
        `List could not be read completely: ${CONSUMERS} (next link paging) after 1 page(s) and 2 request(s): ` +
          `page 2 answered 500 (GET ${CONSUMERS} → 200, GET ${CONSUMERS}?cursor=2 → 500)`,
      );
    },
  );

  it('reads every page for an absence check', async () => {
    const whole = await listen(twoPages());
    expect((await consumersAt(whole.url).listWhole('consumers')).paging).toMatchObject({ pages: 2, complete: true });
  });

  /** A list whose first page answers `first` and whose second `second`, both under a next link. */
  const refusing = (first: number, second = 200): Handler =>
    first === 200 ? twoPages(second) : (_request, response) => sendJson(response, first, { error: 'refused' });
  const absenceChecks = {
    listWhole: (consumers: ConsumerData) => consumers.listWhole('consumers'),
    lookUpConsumer: (consumers: ConsumerData) => consumers.lookUpConsumer('c-absent'),
    watchForPerson: (consumers: ConsumerData) => consumers.watchForPerson('consumers', PERSON, 10),
  };
  it.each(
    Object.entries(absenceChecks).flatMap(([name, check]) => [
      [name, 'its first page answers 403', refusing(403), check, /^Not permitted: the consumers \(op6: GET /],
      [name, 'a later page answers 403', refusing(200, 403), check, /^Not permitted: the consumers \(op6: GET /],
      [name, 'its first page answers 404', refusing(404), check, /^List could not .*: page 1 answered 404 \(GET /],
      [name, 'its first page answers 500', refusing(500), check, /^List could not .*: page 1 answered 500 \(GET /],
      [name, 'a later page answers 400', refusing(200, 400), check, /^List could not .*: page 2 answered 400 \(/],
    ]),
  )('ends %s on a list whose %s as that refusal, never as an answer', async (_name, _what, handler, check, failure) => {
    const server = await listen(handler);
    await expect(check(consumersAt(server.url))).rejects.toThrow(failure);
  });

  /** A subscribed-persons list of one page holding `entries`. */
  const subscribed =
    (...entries: unknown[]): Handler =>
    (_request, response) =>
      sendJson(response, 200, { items: entries, next: null });
  /** What the wait for `PERSON` and the watch for it each make of the list: found or not. */
  async function presenceAndAbsence(handler: Handler): Promise<{ waitFinds: boolean; watchSees: boolean }> {
    const consumers = consumersAt((await listen(handler)).url);
    const waited = await consumers.awaitSubscription(PERSON).catch((error: unknown) => {
      if (error instanceof NotConsistentError) return undefined;
      throw error;
    });
    const watched = await consumers.watchForPerson('subscribed persons', PERSON, 10);
    return { waitFinds: waited !== undefined, watchSees: watched.holds };
  }

  it.each([
    ['finds an entry that is the person by its gedi', { gedi: 'G-1', firstName: 'Anna', version: 2 }, true],
    ['finds an entry that is the person by its legal id', { id: 'x', legalId: '19800101-1234' }, true],
    [
      'finds the person inside an entry that wraps it',
      { subscribedAt: '2026-01-01', person: { gedi: 'G-1', attributes: { firstName: 'Anna' } } },
      true,
    ],
    [
      "does not take another person's entry that names the person as a relative",
      { gedi: 'G-2', legalId: '19700101-0000', relatives: [{ legalId: '19800101-1234' }] },
      false,
    ],
  ])('waits for a subscription and watches for it by one reading: %s', async (_name, entry, listed) => {
    expect(await presenceAndAbsence(subscribed(entry))).toEqual({ waitFinds: listed, watchSees: listed });
  });

  it('waits for a subscription and watches for it by one reading of an entry keyed personGedi and nin', async () => {
    const entry = { personGedi: PERSON.gedi, nin: PERSON.person.legalId };
    expect(await presenceAndAbsence(subscribed(entry))).toEqual({ waitFinds: true, watchSees: true });
  });

  it(
    'ends a wait whose reads failed after the first page as a list not read, ' + 'not as an effect that never came',
    async () => {
      const server = await listen(twoPages(500));
      const error = await consumersAt(server.url)
        .awaitConsumer('c2', 'to be listed')
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ListIncompleteError);
    },
  );

  it('reads the list for each wait by itself, as far as its own record', async () => {
    const server = await listen(twoPages());
    const consumers = consumersAt(server.url);
    await Promise.all([consumers.awaitConsumer('c1', 'to be listed'), consumers.awaitConsumer('c2', 'to be listed')]);
    expect(server.received.map(({ url }) => url).sort()).toEqual([CONSUMERS, CONSUMERS, `${CONSUMERS}?cursor=2`]);
  });

  it('asks for a page size only when one is set', async () => {
    const server = await listen(twoPages());
    await consumersAt(server.url).lookUpConsumer('c1');
    await consumersAt(server.url, { pageSize: { size: 100, parameter: 'pageSize' } }).lookUpConsumer('c1');
    expect(server.received.map(({ url }) => url)).toEqual([CONSUMERS, `${CONSUMERS}?pageSize=100`]);
  });
});
