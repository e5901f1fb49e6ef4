import { describe, expect, it } from 'vitest';
import { ConsumerData } from '../../support/verbs/consumers.js';
import { ListIncompleteError } from '../../support/readings/list-reader.js';
import { readSettings, type ContractConfig } from '../../support/run/config.js';
import { ApiClient, NotSentError, testWork } from '../../support/transport/http.js';
import { sendJson, serversClosedAfterEach, type Handler } from './local-server.js';

// The documented paths: what every path is when no CONTRACT_*_PATH is set.
const DEFAULT_PATHS = readSettings({}, '/nonexistent').paths;

const CONSUMERS = DEFAULT_PATHS.consumers;

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
    new ConsumerData(new ApiClient({ baseUrl: url }), {
      baseUrl: url,
      paths: DEFAULT_PATHS,
      availabilityTimeoutMs: 300,
      ...settings,
    } as ContractConfig);

  it(
    'fails an absence check on a list whose second page answers 500, ' + 'naming the status, never as an absence',
    async () => {
      const server = await listen(twoPages(500));
      const error = await consumersAt(server.url)
        .listWhole('consumers')
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ListIncompleteError);
      expect((error as Error).message).toBe(
        `List could not be read completely: ${CONSUMERS} (next link paging) after 1 page(s): page 2 answered 500`,
      );
    },
  );

  it('reads every page for an absence check, and hands a refusal of the first page to the caller', async () => {
    const whole = await listen(twoPages());
    expect((await consumersAt(whole.url).listWhole('consumers')).paging).toMatchObject({ pages: 2, complete: true });
    const refusing = await listen((_request, response) => sendJson(response, 403, { error: 'forbidden' }));
    expect((await consumersAt(refusing.url).listWhole('consumers')).status).toBe(403);
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

  it('lets waits on one list join a read of it in flight', async () => {
    const server = await listen(twoPages());
    const consumers = consumersAt(server.url);
    await Promise.all([consumers.awaitConsumer('c1', 'to be listed'), consumers.awaitConsumer('c2', 'to be listed')]);
    expect(server.received.map(({ url }) => url)).toEqual([CONSUMERS, `${CONSUMERS}?cursor=2`]);
  });

  it('lets a wait that joined a read read again when the test that began the read has ended', async () => {
    const ended = new AbortController();
    const server = await listen((request, response) => {
      ended.abort(new Error('out of time'));
      twoPages()(request, response);
    });
    const consumers = consumersAt(server.url);
    const began = testWork(ended.signal, () => consumers.awaitConsumer('c2', 'to be listed'));
    const joined = consumers.awaitConsumer('c2', 'to be listed');
    await expect(began).rejects.toBeInstanceOf(NotSentError);
    await expect(joined).resolves.toMatchObject({ record: { consumerId: 'c2' } });
  });

  it('asks for a page size only when one is set', async () => {
    const server = await listen(twoPages());
    await consumersAt(server.url).lookUpConsumer('c1');
    await consumersAt(server.url, { pageSize: { size: 100, parameter: 'pageSize' } }).lookUpConsumer('c1');
    expect(server.received.map(({ url }) => url)).toEqual([CONSUMERS, `${CONSUMERS}?pageSize=100`]);
  });
});
