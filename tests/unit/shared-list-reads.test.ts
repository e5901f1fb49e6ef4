import { afterEach, expect, it } from 'vitest';
import { DEFAULT_PATHS, type ContractConfig } from '../../support/run/config.js';
import { ApiClient } from '../../support/transport/http.js';
import { ConsumerData } from '../../support/verbs/consumers.js';
import { sendJson, startServer, type LocalServer } from './local-server.js';

let server: LocalServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const config = { availabilityTimeoutMs: 5_000, paths: DEFAULT_PATHS } as ContractConfig;

it('serves concurrent waits on one list with one read, read on until every record awaited is found', async () => {
  // Two pages; the second consumer is on the second page.
  server = await startServer((request, response) =>
    request.url.includes('pageToken=2')
      ? sendJson(response, 200, { items: [{ consumerId: 'c-2', state: 'IDENTIFIED' }], next: null })
      : sendJson(response, 200, { items: [{ consumerId: 'c-1', state: 'IDENTIFIED' }], next: `${server!.url}/consumer-intelligence/v3/consumers?pageToken=2` }),
  );
  const api = new ApiClient({ baseUrl: server.url });
  const [first, second] = [new ConsumerData(api, config), new ConsumerData(api, config)];
  const items = await Promise.all([first.awaitConsumer('c-1', 'to be listed'), second.awaitConsumer('c-2', 'to be listed')]);
  expect(items).toEqual([{ consumerId: 'c-1', state: 'IDENTIFIED' }, { consumerId: 'c-2', state: 'IDENTIFIED' }]);
  expect(server.received.map((request) => request.url)).toEqual(['/consumer-intelligence/v3/consumers', '/consumer-intelligence/v3/consumers?pageToken=2']);
});
