// Owns the failed connections a setting, not time, fixes (TLS trust and versions, an http port, a proxy's refusal),
// named by cause and by the setting that fixes them: they are never retried nor called "unreachable".
import { describeProxy, viaProxy, type Route } from './proxy-routes.js';

// Node's (OpenSSL's) verification codes, by what the reader has to do about them.
const CODES = {
  'tls-untrusted': [
    'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    'UNABLE_TO_GET_ISSUER_CERT',
    'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
    'SELF_SIGNED_CERT_IN_CHAIN',
    'DEPTH_ZERO_SELF_SIGNED_CERT',
    'CERT_UNTRUSTED',
  ],
  'tls-expired': ['CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID'],
  'tls-hostname': ['ERR_TLS_CERT_ALTNAME_INVALID'],
  // A server that answers a TLS hello with plain text: an https address on an http port.
  'tls-not-tls': ['ERR_SSL_WRONG_VERSION_NUMBER', 'ERR_SSL_PACKET_LENGTH_TOO_LONG', 'ERR_SSL_HTTP_REQUEST'],
  'tls-rejected': [
    'CERT_REVOKED',
    'CERT_REJECTED',
    'CERT_SIGNATURE_FAILURE',
    'INVALID_CA',
    'INVALID_PURPOSE',
    'CERT_CHAIN_TOO_LONG',
    'PATH_LENGTH_EXCEEDED',
  ],
};

export type SetupReason = keyof typeof CODES | 'tls-protocol' | 'proxy-auth' | 'proxy-refused';

// undici's ProxyAgent reports a CONNECT answer other than 200 only in its message.
const TUNNEL_REFUSED = /Proxy response \((\d{3})\) !== 200 when HTTP Tunneling/;

/** The error's code, or its cause's (undici wraps Node's socket errors). */
export function codeOf(error: unknown): string | undefined {
  const own = (error as { code?: unknown } | null)?.code;
  const code = typeof own === 'string' ? own : (error as { cause?: { code?: unknown } } | null)?.cause?.code;
  return typeof code === 'string' ? code : undefined;
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The status a proxy answered CONNECT with, when it refused the tunnel. */
export function tunnelStatus(error: unknown): number | undefined {
  const match = TUNNEL_REFUSED.exec(messageOf(error));
  return match ? Number(match[1]) : undefined;
}

/** Why a connection failed when a setting fixes it; undefined for every other failure (refused, reset, ...). */
export function setupReason(error: unknown): SetupReason | undefined {
  const code = codeOf(error);
  if (code !== undefined) {
    for (const [reason, codes] of Object.entries(CODES)) if (codes.includes(code)) return reason as SetupReason;
    // Every other OpenSSL failure during the handshake: no shared protocol version or cipher.
    if (code.startsWith('ERR_SSL_')) return 'tls-protocol';
  }
  const status = tunnelStatus(error);
  // A proxy that cannot reach the target answers 5xx: the target is down, which time may fix.
  if (status === 407) return 'proxy-auth';
  if (status !== undefined && status < 500) return 'proxy-refused';
  return undefined;
}

/** A connection that failed for a reason a setting fixes: one message, and the `setting` that fixes it. */
export class NetworkSetupError extends Error {
  override readonly name = 'NetworkSetupError';
  readonly reason: SetupReason;
  readonly setting: string;

  /** For an `error` that `setupReason` names; `addressSetting` is the variable holding the address. */
  constructor(error: unknown, url: URL, route: Route, addressSetting: string) {
    const reason = setupReason(error)!;
    const where = `${url.host}${viaProxy(route)}`;
    // OpenSSL's own message is a line of internals; Node puts its readable part in `reason`.
    const reasonText = (error as { reason?: unknown } | null)?.reason;
    const readable = typeof reasonText === 'string' ? reasonText : messageOf(error).split('\n')[0];
    const detail = `${codeOf(error) ?? 'error'}: ${readable}`;
    const proxy = route.kind === 'proxy' ? route.proxy : undefined;
    const variable = proxy?.variable ?? 'HTTPS_PROXY';
    const named = proxy ? describeProxy(proxy) : 'the proxy';
    const messages: Record<SetupReason, string> = {
      'tls-untrusted':
        `TLS: the certificate of ${where} is signed by a certificate authority this machine does not trust ` +
        `(${detail}). If the sandbox, or a proxy that re-signs TLS, uses a private certificate authority, give ` +
        'Node its certificate: set NODE_EXTRA_CA_CERTS=/path/to/ca.pem in the environment the command starts ' +
        'with (Node reads it only at start-up).',
      'tls-hostname':
        `TLS: the certificate of ${where} does not cover the host name ${url.hostname} (${detail}). ` +
        `Use a host name the certificate names in ${addressSetting}.`,
      'tls-expired':
        `TLS: the certificate of ${where} is outside its validity period (${detail}). ` +
        `The server must renew it; check this machine's clock, and that ${addressSetting} names the right host.`,
      'tls-protocol':
        `TLS: ${where} and this machine share no TLS version or cipher (${detail}). ` +
        `Node ${process.versions.node} accepts TLS 1.2 and 1.3 by default; check that ${addressSetting} names ` +
        'the right host (NODE_OPTIONS=--tls-min-v1.0 allows older versions, at your own risk).',
      'tls-not-tls':
        `TLS: ${where} did not answer in TLS (${detail}): it looks like a plain http port. Check the scheme and ` +
        `port in ${addressSetting}.`,
      'tls-rejected':
        `TLS: the certificate of ${where} was rejected (${detail}). ` +
        `Check that ${addressSetting} names the right host.`,
      'proxy-auth':
        `Proxy: ${named} asks for credentials (407) to open a tunnel to ${url.host}. Put them in the proxy ` +
        `address: ${variable}=http://user:password@host:port (they are never printed).`,
      'proxy-refused':
        `Proxy: ${named} refused to open a tunnel to ${url.host} (status ${tunnelStatus(error)}). Ask for ` +
        `${url.hostname} to be allowed, or exempt it with NO_PROXY if it is reachable directly; check ${variable}.`,
    };
    super(messages[reason]);
    this.reason = reason;
    this.setting =
      reason === 'tls-untrusted' ? 'NODE_EXTRA_CA_CERTS' : reason.startsWith('proxy') ? variable : addressSetting;
  }
}
