// A real HTTP server on a free loopback port for the client and token tests: no interception
// mocks, so what is tested is what undici actually sends and receives.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Handler = (request: ReceivedRequest, response: ServerResponse) => void;

export interface LocalServer {
  url: string;
  received: ReceivedRequest[];
  close(): Promise<void>;
}

export async function startServer(handler: Handler): Promise<LocalServer> {
  const received: ReceivedRequest[] = [];
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const request = {
        method: incoming.method ?? '',
        url: incoming.url ?? '',
        headers: incoming.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      received.push(request);
      handler(request, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Starts servers for the tests of the file, or of the describe block, it is called in: each closes
 * after the test that started it, passed or failed.
 */
export function serversClosedAfterEach(): (handler: Handler) => Promise<LocalServer> {
  const started: LocalServer[] = [];
  afterEach(() => Promise.all(started.splice(0).map((server) => server.close())));
  return async (handler) => {
    const server = await startServer(handler);
    started.push(server);
    return server;
  };
}

export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

/** A clock whose sleeps return at once and advance time, so retry and polling tests never wait. */
export function fakeClock(start = 1_000_000): {
  now(): number;
  sleep(ms: number): Promise<void>;
  sleeps: number[];
  advance(ms: number): void;
} {
  let now = start;
  const sleeps: number[] = [];
  return {
    now: () => now,
    sleep: async (ms) => {
      sleeps.push(ms);
      now += ms;
    },
    sleeps,
    advance: (ms) => {
      now += ms;
    },
  };
}
