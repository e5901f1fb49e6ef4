import { describe, expect, it } from 'vitest';
import { MUTANT_NAMES } from '../../simulator/mutants.js';
import { resolveOptions, simulatorOptionsFromEnv } from '../../simulator/options.js';

describe('simulatorOptionsFromEnv', () => {
  it('reads every SIMULATOR_* knob', () => {
    expect(
      simulatorOptionsFromEnv({
        SIMULATOR_PORT: '8080',
        SIMULATOR_CLIENTS: 'a:1,b:2',
        SIMULATOR_PROVIDER: 'OTHER',
        SIMULATOR_AVAILABILITY_DELAY_MS: '0',
        SIMULATOR_AVAILABILITY_JITTER: '0.1',
        SIMULATOR_LATENCY_MS: '5',
        SIMULATOR_TOKEN_TTL_S: '60',
        SIMULATOR_FAULT_RATE: '0.25',
        SIMULATOR_RATE_LIMIT: '2.5',
        SIMULATOR_MUTANT: 'merge-ignored',
        SIMULATOR_CONTROL: '1',
        SIMULATOR_LAYOUT: 'vendor',
        SIMULATOR_STRICT_BOOLEANS: '1',
        SIMULATOR_BACKGROUND_RECORDS: '10',
        SIMULATOR_SEED: '42',
        SIMULATOR_PAGING: 'page-token',
        SIMULATOR_RECORDS_WITHOUT_GEDI: '1',
        SIMULATOR_MERGES_SHOWN_BY_TARGET: '1',
        SIMULATOR_STORE_AS_SENT: 'person',
        SIMULATOR_REQUEST_COPY_IN_RECORDS: '1',
        SIMULATOR_PLACEHOLDERS_BEFORE_AVAILABLE: '1',
        SIMULATOR_ENTRY_KEYS: 'personGedi',
        SIMULATOR_STATUS_FORM: 'sparse',
        SIMULATOR_RELATIONS_AS_SENT: '1',
        SIMULATOR_SCREENING_PER_LIST: '1',
        SIMULATOR_FIND_ECHO: 'searchParameters',
        SIMULATOR_STATED_PAGE_SIZE: '1',
      }),
    ).toEqual({
      port: 8080,
      clients: [
        { id: 'a', secret: '1' },
        { id: 'b', secret: '2' },
      ],
      provider: 'OTHER',
      availabilityDelayMs: 0,
      availabilityJitter: 0.1,
      latencyMs: 5,
      tokenTtlSeconds: 60,
      faultRate: 0.25,
      rateLimitPerSecond: 2.5,
      mutant: 'merge-ignored',
      control: true,
      layout: 'vendor',
      strictBooleans: true,
      backgroundRecords: 10,
      seed: 42,
      paging: 'page-token',
      recordsWithoutGedi: true,
      mergesShownByTarget: true,
      storeAsSent: 'person',
      requestCopyInRecords: true,
      placeholdersBeforeAvailable: true,
      entryKeys: 'personGedi',
      statusForm: 'sparse',
      relationsAsSent: true,
      screeningPerList: true,
      findEcho: 'searchParameters',
      statedPageSize: true,
    });
  });

  it('leaves unset variables to the defaults', () => {
    expect(simulatorOptionsFromEnv({})).toEqual({});
    const defaults = resolveOptions(simulatorOptionsFromEnv({}));
    expect(defaults).toMatchObject({
      port: 0,
      provider: 'SANDBOX-AML',
      availabilityDelayMs: 250,
      availabilityJitter: 0.5,
      tokenTtlSeconds: 3600,
      faultRate: 0,
      rateLimitPerSecond: 0,
      latencyMs: 0,
      control: false,
      layout: 'standard',
      strictBooleans: false,
      backgroundRecords: 1500,
      recordsWithoutGedi: false,
      mergesShownByTarget: false,
      requestCopyInRecords: false,
      placeholdersBeforeAvailable: false,
      entryKeys: 'layout',
      statusForm: 'layout',
      relationsAsSent: false,
      screeningPerList: false,
      findEcho: 'layout',
      statedPageSize: false,
      clients: [
        { id: 'contract-client', secret: 'contract-secret' },
        { id: 'second-client', secret: 'second-secret' },
      ],
    });
  });

  it.each([
    ['SIMULATOR_PORT', '70000'],
    ['SIMULATOR_CLIENTS', 'no-secret'],
    ['SIMULATOR_AVAILABILITY_DELAY_MS', '-1'],
    ['SIMULATOR_AVAILABILITY_JITTER', '1.5'],
    ['SIMULATOR_LATENCY_MS', 'soon'],
    ['SIMULATOR_TOKEN_TTL_S', '0'],
    ['SIMULATOR_FAULT_RATE', '1.5'],
    ['SIMULATOR_RATE_LIMIT', '-1'],
    ['SIMULATOR_CONTROL', 'yes'],
    ['SIMULATOR_RECORDS_WITHOUT_GEDI', 'true'],
    ['SIMULATOR_MERGES_SHOWN_BY_TARGET', 'on'],
    ['SIMULATOR_STORE_AS_SENT', 'wrapped'],
    ['SIMULATOR_REQUEST_COPY_IN_RECORDS', 'yes'],
    ['SIMULATOR_PLACEHOLDERS_BEFORE_AVAILABLE', 'true'],
    ['SIMULATOR_ENTRY_KEYS', 'nin'],
    ['SIMULATOR_STATUS_FORM', 'flags'],
    ['SIMULATOR_RELATIONS_AS_SENT', 'yes'],
    ['SIMULATOR_SCREENING_PER_LIST', 'true'],
    ['SIMULATOR_FIND_ECHO', 'query'],
    ['SIMULATOR_STATED_PAGE_SIZE', 'on'],
    ['SIMULATOR_LAYOUT', 'sideways'],
    ['SIMULATOR_STRICT_BOOLEANS', 'true'],
    ['SIMULATOR_BACKGROUND_RECORDS', '2.5'],
    ['SIMULATOR_SEED', '-3'],
  ])('rejects %s=%s naming the variable and the fix', (variable, value) => {
    expect(() => simulatorOptionsFromEnv({ [variable]: value })).toThrow(
      new RegExp(`^${variable}="${value.replace('.', '\\.')}" is invalid: .+`),
    );
  });

  it('rejects an unknown mutant and lists the valid names', () => {
    expect(() => simulatorOptionsFromEnv({ SIMULATOR_MUTANT: 'typo' })).toThrow(MUTANT_NAMES.join(', '));
  });
});
