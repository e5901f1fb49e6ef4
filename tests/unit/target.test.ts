import { describe, expect, it } from 'vitest';
import { assertSandboxTarget, readSettings, resolveConfig, SandboxOnlyError } from '../../support/run/config.js';

const remote = {
  CONTRACT_BASE_URL: 'https://sandbox.example.test',
  CONTRACT_CLIENT_ID: 'client',
  CONTRACT_CLIENT_SECRET: 'secret-value',
  CONTRACT_SCREENING_PROVIDER: 'PROVIDER',
};

describe('resolveConfig', () => {
  it('points every setting at the embedded simulator when no base URL is set', () => {
    const config = resolveConfig(
      readSettings({}, '/nonexistent'),
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
    const settings = readSettings(
      { ...remote, CONTRACT_PROD_BASE_URL: 'https://sandbox.example.test/' },
      '/nonexistent',
    );
    expect(() => resolveConfig(settings, undefined, 'run', 1)).toThrow(
      /^CONTRACT_BASE_URL: is the production host .*point CONTRACT_BASE_URL at the sandbox/,
    );
  });

  it('accepts a sandbox target next to a different production host', () => {
    const settings = readSettings({ ...remote, CONTRACT_PROD_BASE_URL: 'https://api.example.test' }, '/nonexistent');
    expect(resolveConfig(settings, undefined, 'run', 1)).toMatchObject({ authUrl: 'https://sandbox.example.test' });
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
