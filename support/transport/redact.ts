// Owns redaction: the one choke point every report, log line and error message passes before it leaves.
// The one redaction choke point: everything that leaves the process (report attachments and
// parameters, console output, error messages) goes through here first. Allure writes even
// "masked" parameters raw into allure-results, so masking is not a substitute.

const REDACTED = '[REDACTED]';

// Compared after lower-casing and dropping '_' and '-', so access_token, accessToken and
// client-secret all match.
const SECRET_KEYS = new Set(['accesstoken', 'refreshtoken', 'idtoken', 'clientsecret', 'password', 'secret', 'token']);
const AUTHORIZATION_KEYS = new Set(['authorization', 'proxy-authorization']);

// Credentials embedded in free text (an echoed header in an error body, a log line). The length
// floor keeps prose such as "Bearer token required" intact.
const CREDENTIAL_IN_TEXT = /\b(Basic|Bearer)\s+([A-Za-z0-9._~+/=-]{12,})/gi;
// An HTTP Basic credential is base64 of "id:secret", so it decodes to text with a colon; prose such
// as the documentation's "HTTP Basic authentication with ..." decodes to bytes that are no text
// (invalid UTF-8, control characters) and is left alone.
const BASIC_CREDENTIAL = /^[^\p{Cc}\uFFFD]*:[^\p{Cc}\uFFFD]*$/u;

// Shorter values would shred ordinary text and are not secrets in any real sense.
const MIN_SECRET_LENGTH = 4;

const secrets = new Set<string>();
// Every registered secret as one pattern, built when first needed after a registration: every
// string of every exchange passes here (list pages of hundreds of records), and a pass per secret
// was a third of a contract worker's CPU time.
let registered: RegExp | undefined;

/** Registers a value (client secret, access token, Basic credential) to be blanked in every sink of this process. */
export function registerSecret(value: string | undefined): void {
  if (!value || value.length < MIN_SECRET_LENGTH) return;
  secrets.add(value);
  // A form body or query string carries the URL-encoded form of the same value.
  secrets.add(encodeURIComponent(value));
  registered = undefined;
}

function registeredSecrets(): RegExp | undefined {
  if (registered || secrets.size === 0) return registered;
  // Longest first, so a secret that contains another registered one is blanked whole.
  const alternatives = [...secrets]
    .sort((a, b) => b.length - a.length)
    .map((secret) => secret.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return (registered = new RegExp(alternatives.join('|'), 'g'));
}

/** Blanks every registered secret and every Basic/Bearer credential inside a string. */
export function redactText(text: string): string {
  const result = text.replace(CREDENTIAL_IN_TEXT, (match, scheme: string, credential: string) =>
    scheme.toLowerCase() === 'basic' && !BASIC_CREDENTIAL.test(Buffer.from(credential, 'base64').toString('utf8'))
      ? match
      : `${scheme} ${REDACTED}`,
  );
  const pattern = registeredSecrets();
  return pattern ? result.replace(pattern, REDACTED) : result;
}

/** Deep copy of `value` with credentials blanked; the input is never modified. */
export function redact<T>(value: T): T {
  return redactValue(value, new WeakMap()) as T;
}

function redactValue(value: unknown, seen: WeakMap<object, unknown>): unknown {
  if (typeof value === 'string') return redactText(value);
  if (value === null || typeof value !== 'object') return value;
  const copied = seen.get(value);
  if (copied !== undefined) return copied;
  if (Array.isArray(value)) {
    const copy: unknown[] = [];
    seen.set(value, copy);
    for (const item of value) copy.push(redactValue(item, seen));
    return copy;
  }
  if (!isPlainObject(value)) return value;
  const copy: Record<string, unknown> = {};
  seen.set(value, copy);
  for (const [key, item] of Object.entries(value)) {
    copy[key] = redactEntry(key, item, seen);
  }
  return copy;
}

function redactEntry(key: string, value: unknown, seen: WeakMap<object, unknown>): unknown {
  const lower = key.toLowerCase();
  // Keep the scheme: "Bearer [REDACTED]" still shows which kind of credential was sent.
  if (AUTHORIZATION_KEYS.has(lower) && typeof value === 'string') {
    const scheme = /^\s*(\S+)\s+\S/.exec(value)?.[1];
    return scheme ? `${scheme} ${REDACTED}` : REDACTED;
  }
  if (SECRET_KEYS.has(lower.replace(/[_-]/g, '')) && value !== null && value !== undefined) return REDACTED;
  return redactValue(value, seen);
}

function isPlainObject(value: object): value is Record<string, unknown> {
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}
