// The one redaction choke point: everything that leaves the process passes here first (Allure writes even
// "masked" parameters raw into allure-results, so masking is no substitute).

const REDACTED = '[REDACTED]';

// Compared lower-cased without '_' and '-', so access_token, accessToken and client-secret all match.
const SECRET_KEYS = new Set(['accesstoken', 'refreshtoken', 'idtoken', 'clientsecret', 'password', 'secret', 'token']);
const AUTHORIZATION_KEYS = new Set(['authorization', 'proxy-authorization']);

// Credentials in free text (an echoed header, a log line); the length floor keeps "Bearer token required" intact.
const CREDENTIAL_IN_TEXT = /\b(Basic|Bearer)\s+([A-Za-z0-9._~+/=-]{12,})/gi;
// A Basic credential decodes to "id:secret"; prose ("HTTP Basic authentication with ...") decodes to bytes that are
// no text (invalid UTF-8, control characters) and is left alone.
const BASIC_CREDENTIAL = /^[^\p{Cc}\uFFFD]*:[^\p{Cc}\uFFFD]*$/u;

const secrets = new Set<string>();
// Every secret as one pattern, built once after a registration: a pass per secret took a third of a worker's CPU.
let registered: RegExp | undefined;

/** Registers a value (client secret, access token, Basic credential) to be blanked in every sink of this process. */
export function registerSecret(value: string | undefined): void {
  // Shorter values would shred ordinary text and are no secrets in any real sense.
  if (!value || value.length < 4) return;
  // A form body or query string carries the URL-encoded form of the same value.
  secrets.add(value).add(encodeURIComponent(value));
  registered = undefined;
}

/** Blanks every registered secret and every Basic/Bearer credential inside a string. */
export function redactText(text: string): string {
  const result = text.replace(CREDENTIAL_IN_TEXT, (match, scheme: string, credential: string) =>
    scheme.toLowerCase() === 'basic' && !BASIC_CREDENTIAL.test(Buffer.from(credential, 'base64').toString('utf8'))
      ? match
      : `${scheme} ${REDACTED}`,
  );
  if (secrets.size === 0) return result;
  // Longest first, so a secret that contains another is blanked whole.
  registered ??= new RegExp(
    [...secrets]
      .sort((a, b) => b.length - a.length)
      .map((secret) => secret.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('|'),
    'g',
  );
  return result.replace(registered, REDACTED);
}

/** Deep copy of `value` with credentials blanked; the input is never modified. */
export function redact<T>(value: T): T {
  return redactValue(value, new WeakMap()) as T;
}

function redactValue(value: unknown, seen: WeakMap<object, unknown>): unknown {
  if (typeof value === 'string') return redactText(value);
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) return seen.get(value);
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== null && !Array.isArray(value)) return value;
  // An array's indexes are no secret keys: it is copied item by item like an object's entries.
  const copy = (Array.isArray(value) ? [] : {}) as Record<string, unknown>;
  seen.set(value, copy);
  for (const [key, item] of Object.entries(value)) copy[key] = redactEntry(key.toLowerCase(), item, seen);
  return copy;
}

function redactEntry(key: string, value: unknown, seen: WeakMap<object, unknown>): unknown {
  // Keep the scheme: "Bearer [REDACTED]" still shows which kind of credential was sent.
  if (AUTHORIZATION_KEYS.has(key) && typeof value === 'string') {
    const scheme = /^\s*(\S+)\s+\S/.exec(value)?.[1];
    return scheme ? `${scheme} ${REDACTED}` : REDACTED;
  }
  if (SECRET_KEYS.has(key.replace(/[_-]/g, '')) && value !== null && value !== undefined) return REDACTED;
  return redactValue(value, seen);
}
