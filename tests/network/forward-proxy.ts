// A small forward proxy, as a company network has one: it opens CONNECT tunnels (the only way
// undici's ProxyAgent talks to a proxy) and counts what it carried. It tunnels to loopback only,
// answers 403 for any other host, and asks for credentials (407) when it is given some.
import { createServer, type IncomingMessage } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

export interface ForwardProxy {
  /** http://127.0.0.1:port, with the credentials when it wants some. */
  url: string;
  /** Every tunnel it opened: its target, as the CONNECT line named it, and when (performance.now()). */
  tunnels: { target: string; at: number }[];
  /** CONNECT requests it refused, with the status it answered, and when. */
  refused: { target: string; status: number; at: number }[];
  /** The local ports of its connections to targets: a target sees requests that came through the proxy from these. */
  upstreamPorts: Set<number>;
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

export async function startForwardProxy(
  options: { credentials?: { user: string; password: string } } = {},
): Promise<ForwardProxy> {
  const tunnels: ForwardProxy['tunnels'] = [];
  const refused: ForwardProxy['refused'] = [];
  const upstreamPorts = new Set<number>();
  const sockets = new Set<Socket>();
  const expected =
    options.credentials &&
    `Basic ${Buffer.from(`${options.credentials.user}:${options.credentials.password}`).toString('base64')}`;
  const server = createServer((_request, response) => {
    response.writeHead(405, { 'content-type': 'text/plain' }).end('this proxy only opens CONNECT tunnels');
  });
  server.on('connect', (request: IncomingMessage, client: Socket, head: Buffer) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    const target = request.url ?? '';
    const refuse = (status: number, reason: string, headers = '') => {
      refused.push({ target, status, at: performance.now() });
      client.end(`HTTP/1.1 ${status} ${reason}\r\n${headers}Content-Length: 0\r\n\r\n`);
    };
    if (expected !== undefined && request.headers['proxy-authorization'] !== expected) {
      return refuse(407, 'Proxy Authentication Required', 'Proxy-Authenticate: Basic realm="test proxy"\r\n');
    }
    const [, host = '', port = ''] = /^(.*):(\d+)$/.exec(target) ?? [];
    if (!LOOPBACK.has(host)) return refuse(403, 'Forbidden');
    let connected = false;
    const upstream = connect(Number(port), host.replace(/^\[|\]$/g, ''), () => {
      connected = true;
      upstreamPorts.add(upstream.localPort!);
      tunnels.push({ target, at: performance.now() });
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => (connected ? client.destroy() : refuse(502, 'Bad Gateway')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const credentials = options.credentials
    ? `${encodeURIComponent(options.credentials.user)}:${encodeURIComponent(options.credentials.password)}@`
    : '';
  return {
    url: `http://${credentials}127.0.0.1:${port}`,
    tunnels,
    refused,
    upstreamPorts,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
