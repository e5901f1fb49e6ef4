// Owns naming a failed connection for what it is when a setting, not time, fixes it: a certificate
// this machine does not trust, a host name the certificate does not cover, an expired certificate,
// a TLS version or cipher the two sides do not share, an https address that answers plain http, a
// proxy that wants credentials or refuses the tunnel. Such failures are never retried and never
// called "unreachable": the host answered, and one message says which setting to change.
import { describeProxy, type Route } from './dispatcher.js';

export type SetupReason =
  | 'tls-untrusted'
  | 'tls-hostname'
  | 'tls-expired'
  | 'tls-protocol'
  | 'tls-not-tls'
  | 'tls-rejected'
  | 'proxy-auth'
  | 'proxy-refused';

// Node's (OpenSSL's) verification codes, by what the reader has to do about them.
const UNTRUSTED = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_UNTRUSTED',
]);
const EXPIRED = new Set(['CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID']);
const HOSTNAME = new Set(['ERR_TLS_CERT_ALTNAME_INVALID']);
// A server that answers a TLS hello with plain text: an https address on an http port.
const NOT_TLS = new Set(['ERR_SSL_WRONG_VERSION_NUMBER', 'ERR_SSL_PACKET_LENGTH_TOO_LONG', 'ERR_SSL_HTTP_REQUEST']);
const OTHER_CERTIFICATE = new Set([
  'CERT_REVOKED',
  'CERT_REJECTED',
  'CERT_SIGNATURE_FAILURE',
  'INVALID_CA',
  'INVALID_PURPOSE',
  'CERT_CHAIN_TOO_LONG',
  'PATH_LENGTH_EXCEEDED',
]);

// undici's ProxyAgent reports a CONNECT answer other than 200 only in its message.
const TUNNEL_REFUSED = /Proxy response \((\d{3})\) !== 200 when HTTP Tunneling/;

function codeOf(error: unknown): string | undefined {
  const own = (error as { code?: unknown } | null)?.code;
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause?.code;
  const code = typeof own === 'string' ? own : cause;
  return typeof code === 'string' ? code : undefined;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The status a proxy answered CONNECT with, when it refused the tunnel. */
export function tunnelStatus(error: unknown): number | undefined {
  const match = TUNNEL_REFUSED.exec(messageOf(error));
  return match ? Number(match[1]) : undefined;
}

/**
 * Why a connection failed when a setting fixes it; undefined for every other failure (refused, reset, timeout, ...).
 */
export function setupReason(error: unknown): SetupReason | undefined {
  const code = codeOf(error);
  if (code !== undefined) {
    if (UNTRUSTED.has(code)) return 'tls-untrusted';
    if (EXPIRED.has(code)) return 'tls-expired';
    if (HOSTNAME.has(code)) return 'tls-hostname';
    if (NOT_TLS.has(code)) return 'tls-not-tls';
    if (OTHER_CERTIFICATE.has(code)) return 'tls-rejected';
    // Every other OpenSSL failure during the handshake: no shared protocol version or cipher.
    if (code.startsWith('ERR_SSL_')) return 'tls-protocol';
  }
  const status = tunnelStatus(error);
  // A proxy that cannot reach the target answers 5xx: the target is down, which time may fix.
  if (status === 407) return 'proxy-auth';
  if (status !== undefined && status < 500) return 'proxy-refused';
  return undefined;
}

/** A connection that failed for a reason a setting fixes; `setting` names it. */
export class NetworkSetupError extends Error {
  override readonly name = 'NetworkSetupError';
  constructor(
    readonly reason: SetupReason,
    readonly setting: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The one message for a failure `setupReason` named. `addressSetting` is the configuration variable
 * that holds the address (the caller knows it; the transport does not).
 */
export function networkSetupError(
  reason: SetupReason,
  error: unknown,
  url: URL,
  route: Route,
  addressSetting: string,
): NetworkSetupError {
  const where = `${url.host}${route.kind === 'proxy' ? ` (through the proxy ${describeProxy(route.proxy)})` : ''}`;
  // OpenSSL's own message is a line of internals; Node puts its readable part in `reason`.
  const reasonText = (error as { reason?: unknown } | null)?.reason;
  const readable = typeof reasonText === 'string' ? reasonText : messageOf(error).split('\n')[0];
  const detail = `${codeOf(error) ?? 'error'}: ${readable}`;
  switch (reason) {
    case 'tls-untrusted':
      return new NetworkSetupError(
        reason,
        'NODE_EXTRA_CA_CERTS',
        `TLS: the certificate of ${where} is signed by a certificate authority this machine does not trust ` +
          `(${detail}). ` +
          'If the sandbox, or a proxy that re-signs TLS, uses a private certificate authority, give Node its ' +
          'certificate: set NODE_EXTRA_CA_CERTS=/path/to/ca.pem in the environment the command starts with ' +
          '(Node reads it only at start-up).',
      );
    case 'tls-hostname':
      return new NetworkSetupError(
        reason,
        addressSetting,
        `TLS: the certificate of ${where} does not cover the host name ${url.hostname} (${detail}). ` +
          `Use a host name the certificate names in ${addressSetting}.`,
      );
    case 'tls-expired':
      return new NetworkSetupError(
        reason,
        addressSetting,
        `TLS: the certificate of ${where} is outside its validity period (${detail}). ` +
          `The server must renew it; check this machine's clock, and that ${addressSetting} names the right host.`,
      );
    case 'tls-protocol':
      return new NetworkSetupError(
        reason,
        addressSetting,
        `TLS: ${where} and this machine share no TLS version or cipher (${detail}). ` +
          `Node ${process.versions.node} accepts TLS 1.2 and 1.3 by default; check that ${addressSetting} names ` +
          'the right host (NODE_OPTIONS=--tls-min-v1.0 allows older versions, at your own risk).',
      );
    case 'tls-not-tls':
      return new NetworkSetupError(
        reason,
        addressSetting,
        `TLS: ${where} did not answer in TLS (${detail}): it looks like a plain http port. Check the scheme and ` +
          `port in ${addressSetting}.`,
      );
    case 'tls-rejected':
      return new NetworkSetupError(
        reason,
        addressSetting,
        `TLS: the certificate of ${where} was rejected (${detail}). Check that ${addressSetting} names the right host.`,
      );
    case 'proxy-auth':
    case 'proxy-refused': {
      const proxy = route.kind === 'proxy' ? route.proxy : undefined;
      const variable = proxy?.variable ?? 'HTTPS_PROXY';
      const named = proxy ? describeProxy(proxy) : 'the proxy';
      return new NetworkSetupError(
        reason,
        variable,
        reason === 'proxy-auth'
          ? `Proxy: ${named} asks for credentials (407) to open a tunnel to ${url.host}. Put them in the proxy ` +
              `address: ${variable}=http://user:password@host:port (they are never printed).`
          : `Proxy: ${named} refused to open a tunnel to ${url.host} (status ${tunnelStatus(error)}). Ask for ` +
              `${url.hostname} to be allowed, or exempt it with NO_PROXY if it is reachable directly; check ` +
              `${variable}.`,
      );
    }
  }
}
