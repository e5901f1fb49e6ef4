import { afterEach, expect, it } from 'vitest';
import { DEFAULT_PATHS, type ContractConfig } from '../../support/run/config.js';
import { ApiClient } from '../../support/transport/http.js';
import { ConsumerData, SharedListReads } from '../../support/verbs/consumers.js';
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

it('gives a wait that asks just after another\'s read that answer, when it shows the wait\'s record or was read to the end, and only if begun after the wait\'s last look', async () => {
  // Two pages: c-1 on the first, c-2 on the second.
  server = await startServer((request, response) =>
    request.url.includes('pageToken=2')
      ? sendJson(response, 200, { items: [{ consumerId: 'c-2' }], next: null })
      : sendJson(response, 200, { items: [{ consumerId: 'c-1' }], next: `${server!.url}/consumer-intelligence/v3/consumers?pageToken=2` }),
  );
  // Fresh for a minute: what is checked here is which answers count, not how long one stays fresh.
  const reads = new SharedListReads(new ApiClient({ baseUrl: server.url }), 60_000);
  const path = DEFAULT_PATHS.consumers;
  const shows = (consumerId: string) => (bodies: unknown[]) => JSON.stringify(bodies).includes(`"${consumerId}"`);
  const before = Date.now() - 1;
  const firstPageOnly = await reads.read(path, {}, shows('c-1'), before);
  expect(server.received).toHaveLength(1);
  expect(await reads.read(path, {}, shows('c-1'), before), 'it shows the record').toBe(firstPageOnly);
  await reads.read(path, {}, shows('c-2'), before);
  expect(server.received, 'not read to the end, and it does not show c-2: read anew').toHaveLength(3);
  const whole = await reads.read(path, {}, shows('c-9'), before);
  expect(server.received).toHaveLength(5);
  expect(await reads.read(path, {}, shows('c-9'), before), 'read to the end: it says c-9 is on no page').toBe(whole);
  await reads.read(path, {}, shows('c-1'), Date.now());
  expect(server.received, 'begun before the wait\'s last look: read anew').toHaveLength(6);
});
