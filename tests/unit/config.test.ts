import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  assertSandboxTarget,
  ConfigError,
  describeTarget,
  expandPath,
  readSettings,
  resolveConfig,
  SandboxOnlyError,
  type ContractConfig,
} from '../../support/run/config.js';
import { joinedPattern } from '../patterns.js';

const NO_FILE = join(tmpdir(), 'no-such-dir', '.env');
// The documented paths: what every path is when no CONTRACT_*_PATH is set.
const DEFAULT_PATHS = readSettings({}, NO_FILE).paths;
const SECRET = 'very-secret-value';

const remote = {
  CONTRACT_BASE_URL: 'https://sandbox.example.com/',
  CONTRACT_CLIENT_ID: 'client-1',
  CONTRACT_CLIENT_SECRET: SECRET,
  CONTRACT_SCREENING_PROVIDER: 'PROVIDER',
};

/** A .env file of `lines`, in a folder of its own. */
function envFile(...lines: string[]): string {
  const file = join(mkdtempSync(join(tmpdir(), 'config-test-')), '.env');
  writeFileSync(file, lines.map((line) => `${line}\n`).join(''));
  return file;
}

function configError(env: Record<string, string>): ConfigError {
  try {
    readSettings(env, NO_FILE);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('readSettings', () => {
  it('needs nothing for the embedded simulator and applies the defaults', () => {
    expect(readSettings({}, NO_FILE)).toEqual({
      baseUrl: undefined,
      authUrl: undefined,
      client: undefined,
      secondClient: undefined,
      market: 'SE',
      screeningProvider: undefined,
      screeningScope: undefined,
      paths: DEFAULT_PATHS,
      prodBaseUrl: undefined,
      availabilityTimeoutMs: 30_000,
      requestTimeoutMs: 10_000,
      maxRps: undefined,
      seed: undefined,
      layout: { kind: 'simulator' },
    });
  });

  it('reads a remote target; the auth URL defaults to the base URL', () => {
    const settings = readSettings(
      {
        ...remote,
        CONTRACT_MARKET: 'no',
        CONTRACT_SEED: '42',
        CONTRACT_AVAILABILITY_TIMEOUT_MS: '5000',
        CONTRACT_MAX_RPS: '2.5',
        CONTRACT_SECOND_CLIENT_ID: 'c2',
        CONTRACT_SECOND_CLIENT_SECRET: 's2',
      },
      NO_FILE,
    );
    expect(settings).toMatchObject({
      baseUrl: 'https://sandbox.example.com',
      authUrl: 'https://sandbox.example.com',
      client: { clientId: 'client-1', clientSecret: SECRET },
      secondClient: { clientId: 'c2', clientSecret: 's2' },
      market: 'NO',
      screeningProvider: 'PROVIDER',
      availabilityTimeoutMs: 5000,
      maxRps: 2.5,
      seed: 42,
    });
  });

  it('reads a .env file, and the environment wins over it', () => {
    const file = envFile(
      '# comment',
      'CONTRACT_BASE_URL=https://from-file.example.com',
      'CONTRACT_CLIENT_ID=file-id',
      'CONTRACT_CLIENT_SECRET="file secret"',
      'CONTRACT_SCREENING_PROVIDER=P',
      'CONTRACT_MARKET=DK',
    );
    const settings = readSettings({ CONTRACT_MARKET: 'FI', CONTRACT_SEED: '' }, file);
    expect(settings).toMatchObject({
      baseUrl: 'https://from-file.example.com',
      client: { clientId: 'file-id', clientSecret: 'file secret' },
      market: 'FI',
      seed: undefined,
    });
  });

  it('lets an empty variable in the environment unset what the .env file says', () => {
    const file = envFile(
      'CONTRACT_BASE_URL=https://from-file.example.com',
      'CONTRACT_CLIENT_ID=file-id',
      'CONTRACT_CLIENT_SECRET=file-secret',
      'CONTRACT_SCREENING_PROVIDER=P',
    );
    expect(readSettings({ CONTRACT_BASE_URL: '' }, file).baseUrl).toBeUndefined();
  });

  it("reads every operation's path and a screening scope, the documented paths by default", () => {
    const settings = readSettings(
      {
        ...remote,
        CONTRACT_PERSON_PATH: '/consumer-intelligence/v3/persons/{gedi}',
        CONTRACT_PERSON_SCREENING_PATH: '/aml/v2/person/screening/',
        CONTRACT_SANDBOX_PERSONS_PATH: '/consumer-intelligence/sandbox/persons',
        CONTRACT_SCREENING_SCOPE: 'aml:screening kyc',
      },
      NO_FILE,
    );
    expect(settings.paths).toEqual({
      ...DEFAULT_PATHS,
      person: '/consumer-intelligence/v3/persons/{gedi}',
      personScreening: '/aml/v2/person/screening',
      sandboxPersons: '/consumer-intelligence/sandbox/persons',
    });
    expect(settings.screeningScope).toBe('aml:screening kyc');
    expect(DEFAULT_PATHS.person).toBe('/consumer-intelligence/v3/markets/{market}/persons/{gedi}');
    expect(describeTarget(settings)).toContain(
      'screening scope aml:screening kyc, op1/op2 at /consumer-intelligence/sandbox/persons, op3 at ' +
        '/consumer-intelligence/v3/persons/{gedi}, op8 at /aml/v2/person/screening',
    );
  });

  it('fills a path in, each value escaped as a path segment', () => {
    expect(expandPath(DEFAULT_PATHS.person, { market: 'SE', gedi: 'a/b c' })).toBe(
      '/consumer-intelligence/v3/markets/SE/persons/a%2Fb%20c',
    );
    expect(expandPath('/consumer-intelligence/v3/persons/{gedi}', { market: 'SE', gedi: 'g1' })).toBe(
      '/consumer-intelligence/v3/persons/g1',
    );
  });

  it('allows the production URL as the base URL: the safety guard refuses sandbox-only operations later', () => {
    const settings = readSettings({ ...remote, CONTRACT_PROD_BASE_URL: 'https://sandbox.example.com' }, NO_FILE);
    expect(settings.prodBaseUrl).toBe(settings.baseUrl);
  });

  it.each([
    [{ ...remote, CONTRACT_BASE_URL: 'not a url' }, 'CONTRACT_BASE_URL', /not a URL/],
    [{ ...remote, CONTRACT_BASE_URL: 'ftp://x.example.com' }, 'CONTRACT_BASE_URL', /http or https/],
    [
      { ...remote, CONTRACT_BASE_URL: `https://id:${SECRET}@x.example.com` },
      'CONTRACT_BASE_URL',
      /must not contain credentials/,
    ],
    [{ ...remote, CONTRACT_AUTH_URL: 'mailto:a@b' }, 'CONTRACT_AUTH_URL', /http or https/],
    [{ CONTRACT_AUTH_URL: 'https://auth.example.com' }, 'CONTRACT_AUTH_URL', /CONTRACT_BASE_URL is not/],
    [{ ...remote, CONTRACT_CLIENT_ID: '' }, 'CONTRACT_CLIENT_ID', /required when CONTRACT_BASE_URL is set/],
    [{ ...remote, CONTRACT_CLIENT_SECRET: '' }, 'CONTRACT_CLIENT_SECRET', /required when CONTRACT_BASE_URL is set/],
    [{ ...remote, CONTRACT_SCREENING_PROVIDER: '' }, 'CONTRACT_SCREENING_PROVIDER', /required/],
    [
      { ...remote, CONTRACT_SECOND_CLIENT_ID: 'c2' },
      'CONTRACT_SECOND_CLIENT_SECRET',
      /together with CONTRACT_SECOND_CLIENT_ID/,
    ],
    [
      { CONTRACT_SECOND_CLIENT_SECRET: SECRET },
      'CONTRACT_SECOND_CLIENT_ID',
      /together with CONTRACT_SECOND_CLIENT_SECRET/,
    ],
    [{ CONTRACT_MARKET: 'US' }, 'CONTRACT_MARKET', /one of SE, NO, DK, FI/],
    [{ CONTRACT_COMPANY_SCREENING_PATH: 'aml/company' }, 'CONTRACT_COMPANY_SCREENING_PATH', /starting with "\/"/],
    [
      { CONTRACT_PERSON_PATH: '/consumer-intelligence/v3/persons' },
      'CONTRACT_PERSON_PATH',
      joinedPattern(
        /must contain \{gedi\}; the documented path is /,
        /\/consumer-intelligence\/v3\/markets\/\{market\}\/persons\/\{gedi\}/,
      ),
    ],
    [
      { CONTRACT_FIND_PERSON_PATH: '/v3/markets/{country}/persons/_find' },
      'CONTRACT_FIND_PERSON_PATH',
      /unknown placeholder \{country\} \(known: \{market\}, \{gedi\}\)/,
    ],
    [{ CONTRACT_CONSUMERS_PATH: '/v3/consumers?page=1' }, 'CONTRACT_CONSUMERS_PATH', /without query/],
    [
      { CONTRACT_SCREENING_SCOPE: 'aml  screening' },
      'CONTRACT_SCREENING_SCOPE',
      /scope tokens separated by single spaces/,
    ],
    [{ CONTRACT_PROD_BASE_URL: 'prod' }, 'CONTRACT_PROD_BASE_URL', /not a URL/],
    [{ CONTRACT_AVAILABILITY_TIMEOUT_MS: '30s' }, 'CONTRACT_AVAILABILITY_TIMEOUT_MS', /positive whole number/],
    [{ CONTRACT_REQUEST_TIMEOUT_MS: '0' }, 'CONTRACT_REQUEST_TIMEOUT_MS', /positive whole number/],
    [{ CONTRACT_SEED: '1.5' }, 'CONTRACT_SEED', /integer/],
    [{ CONTRACT_MAX_RPS: '0' }, 'CONTRACT_MAX_RPS', /positive number of requests a second/],
    [{ CONTRACT_MAX_RPS: 'fast' }, 'CONTRACT_MAX_RPS', /positive number of requests a second/],
  ])('rejects %j naming %s and the fix', (env, variable, message) => {
    const error = configError(env);
    expect(error.variable).toBe(variable);
    expect(error.message).toMatch(new RegExp(`^${variable}: `));
    expect(error.message).toMatch(message);
    expect(error.message).not.toContain(SECRET);
  });
});

describe('proxy variables', () => {
  it('stop the run as a configuration error naming the variable when they hold no proxy address', () => {
    const error = (() => {
      try {
        readSettings({ https_proxy: 'socks5://proxy.corp:1080' }, NO_FILE);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect(error).toMatchObject({
      variable: 'https_proxy',
      message: expect.stringMatching(/^https_proxy: uses socks5:, which this suite cannot tunnel through/),
    });
  });
});

describe('describeTarget', () => {
  it('summarises the target without any secret', () => {
    const config: ContractConfig = {
      baseUrl: 'https://sandbox.example.com',
      authUrl: 'https://auth.example.com',
      client: { clientId: 'client-1', clientSecret: SECRET },
      secondClient: { clientId: 'client-2', clientSecret: `${SECRET}-2` },
      market: 'SE',
      screeningProvider: 'PROVIDER',
      screeningScope: undefined,
      paths: { ...DEFAULT_PATHS, companyScreening: '/c' },
      prodBaseUrl: undefined,
      availabilityTimeoutMs: 1,
      requestTimeoutMs: 1,
      maxRps: undefined,
      pageSize: undefined,
      seed: 7,
      layout: { kind: 'simulator' } as const,
      runId: 'r1',
    };
    const summary = describeTarget(config);
    expect(summary).toBe(
      'remote target https://sandbox.example.com, auth https://auth.example.com, market SE, client client-1, ' +
        'second client client-2, screening provider PROVIDER, op9 at /c, seed 7',
    );
    expect(summary).not.toContain(SECRET);
  });

  it('summarises settings before they are resolved', () => {
    expect(describeTarget(readSettings({}, NO_FILE))).toBe('the embedded simulator (CONTRACT_BASE_URL is not set)');
    const summary = describeTarget(readSettings(remote, NO_FILE));
    expect(summary).toBe(
      'remote target https://sandbox.example.com, market SE, client client-1, screening provider PROVIDER',
    );
    expect(summary).not.toContain(SECRET);
  });
});

describe('resolveConfig', () => {
  it('points every setting at the embedded simulator when no base URL is set', () => {
    const config = resolveConfig(
      readSettings({}, NO_FILE),
      { baseUrl: 'http://127.0.0.1:4000', options: { clients: [{ id: 'a', secret: 'b' }], provider: 'SIM' } },
      'run',
      7,
    );
    expect(config).toMatchObject({
      baseUrl: 'http://127.0.0.1:4000',
      authUrl: 'http://127.0.0.1:4000',
      screeningProvider: 'SIM',
      seed: 7,
      runId: 'run',
    });
  });

  it('refuses a run whose target is the production host, naming the variable and the fix', () => {
    const settings = readSettings({ ...remote, CONTRACT_PROD_BASE_URL: 'https://sandbox.example.com' }, NO_FILE);
    expect(() => resolveConfig(settings, undefined, 'run', 1)).toThrow(
      /^CONTRACT_BASE_URL: is the production host .*point CONTRACT_BASE_URL at the sandbox/,
    );
  });

  it('accepts a sandbox target next to a different production host', () => {
    const settings = readSettings({ ...remote, CONTRACT_PROD_BASE_URL: 'https://api.example.com' }, NO_FILE);
    expect(resolveConfig(settings, undefined, 'run', 1)).toMatchObject({ authUrl: 'https://sandbox.example.com' });
  });
});

describe('assertSandboxTarget', () => {
  it('refuses sandbox-only operations for the production host only', () => {
    expect(() =>
      assertSandboxTarget(
        { baseUrl: 'https://api.example.test/x', prodBaseUrl: 'https://api.example.test' },
        'operation 1',
      ),
    ).toThrow(SandboxOnlyError);
    expect(() =>
      assertSandboxTarget(
        { baseUrl: 'https://sandbox.example.test', prodBaseUrl: 'https://api.example.test' },
        'operation 1',
      ),
    ).not.toThrow();
    expect(() =>
      assertSandboxTarget({ baseUrl: 'https://sandbox.example.test', prodBaseUrl: undefined }, 'operation 1'),
    ).not.toThrow();
  });
});

describe('where facts are read, or learned into (CONTRACT_LAYOUT, CONTRACT_LEARN)', () => {
  const existing = join(mkdtempSync(join(tmpdir(), 'layout-')), 'sandbox.json');
  writeFileSync(existing, '{}');
  const missing = join(tmpdir(), 'no-such-dir', 'new-target.json');
  const plan = (env: Record<string, string>) => readSettings(env, NO_FILE).layout;

  it('reads a layout file that exists, and the simulator its own', () => {
    expect(plan({ ...remote, CONTRACT_LAYOUT: existing })).toEqual({ kind: 'read', path: existing });
    expect(plan({})).toEqual({ kind: 'simulator' });
  });

  it('learns without one: into the file named, else the reports; always when npm run learn asks', () => {
    const smallPage = { size: 2, parameter: 'pageSize' };
    expect(plan({ ...remote, CONTRACT_LAYOUT: missing })).toEqual({ kind: 'learn', into: missing, smallPage });
    expect(plan(remote)).toEqual({ kind: 'learn', into: 'reports/layout-proposal.json', smallPage });
    const always = { CONTRACT_LEARN: 'always', CONTRACT_LAYOUT: existing };
    expect(plan(always)).toEqual({ kind: 'learn', into: existing, smallPage });
    // A page size the run sets is what learning reads with: it asks no other.
    expect(plan({ ...always, CONTRACT_PAGE_SIZE: '50' })).toEqual({ kind: 'learn', into: existing });
  });

  it('is a configuration error for the release gate, in one line saying how to make one', () => {
    const error = configError({ ...remote, CONTRACT_LEARN: 'never' });
    expect(error.variable).toBe('CONTRACT_LAYOUT');
    expect(error.message).toMatch(
      /release gate reads a reviewed layout file and never learns; make one with npm run learn/,
    );
    expect(error.message).not.toContain('\n');
    expect(plan({ CONTRACT_LEARN: 'never' })).toEqual({ kind: 'simulator' });
  });
});
