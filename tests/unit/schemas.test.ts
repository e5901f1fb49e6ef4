import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GENERATED_VALIDATORS, generatedValidatorsSource } from '../../support/readings/schema-compiler.js';
import { SchemaViolation, expectSchema, schemaErrors } from '../../support/readings/schemas.js';
import { validators } from '../../support/readings/validators.generated.js';

/** The ids of the generated validators: every schema of schemas/. */
const schemaIds = (): string[] => Object.keys(validators).sort();

// Samples rebuilt from the field tables of the API documentation (Resources section): every
// documented field and nested object appears at least once.
const validityPeriod = {
  startDate: '2020-01-01',
  startYear: 2020,
  startMonth: 1,
  startDay: 1,
  endDate: '2030-12-31',
  endYear: 2030,
  endMonth: 12,
  endDay: 31,
};

const fullPerson = {
  id: 'custom-id-123',
  country: 'SE',
  legalId: '198507099805',
  firstNames: ['Anna', 'Maria'],
  preferredFirstName: 'Anna',
  additionalName: 'Lind',
  familyName: 'Svensson',
  gender: 'Female',
  dateOfBirth: '1985-07-09',
  dateOfDeath: '2024-01-02',
  protectedIdentity: false,
  removed: false,
  deregistered: true,
  deregisteredReason: null,
  deregisteredDate: '2023-05-06',
  deregisteredYear: '2023',
  deregisteredMonth: '05',
  deregisteredDay: '06',
  socialSecurityNumberTemporary: false,
  socialSecurityNumberValidityPeriod: validityPeriod,
  deprecatedLegalIds: [
    { socialSecurityNumber: '198507099813' },
    {
      socialSecurityNumber: '198507099821',
      socialSecurityNumberTemporary: true,
      socialSecurityNumberValidityPeriod: validityPeriod,
    },
  ],
  diplomaticImmunity: false,
  addressList: [
    {
      type: 'Postal',
      subType: 'Domicile',
      restricted: 'Confidential',
      postOfficeBox: '123',
      careOf: 'Karl Svensson',
      streetName: 'Storgatan',
      streetNumber: '1',
      postalCode: '11122',
      city: 'Stockholm',
      floor: '2',
      entrance: 'A',
      apartment: '1101',
      county: 'Stockholm',
      countyCode: '01',
      municipality: 'Stockholm',
      municipalityCode: '0180',
      district: 'Norrmalm',
      districtCode: '1',
      dispatchingInformation: 'Leave at the door',
      country: 'SE',
    },
  ],
  phoneList: [{ type: 'Mobile', number: '+46701234567', telemarketingRestriction: true }],
  directMarketingRestriction: false,
  charityMarketingRestriction: false,
  onlineMarketingRestriction: false,
  futureAuthorization: false,
  identificationClaim: false,
  citizenship: ['SE'],
  relationshipList: [
    {
      hierarchicalRelationship: 'Parent',
      nonHierarchicalRelationship: null,
      startDate: '1985-07-09',
      endDate: '2024-01-02',
      legalId: { socialSecurityNumber: '195501019876' },
      firstNames: ['Karl'],
      firstName: 'Karl',
      preferredFirstName: 'Karl',
      additionalName: 'Erik',
      familyName: 'Svensson',
      dateOfBirth: '1955-01-01',
      dateOfDeath: '2024-01-02',
      deceased: true,
      gender: 'Male',
      citizenship: ['SE'],
      deregistered: true,
      deregisteredReason: 'Emigrated',
    },
  ],
  merged: { gedi: 'existing-gedi' },
};

/** The first sandbox person example used firstName instead of firstNames. */
const firstSample = {
  id: 'custom-id',
  country: 'SE',
  legalId: '198507099805',
  firstName: 'Anna',
  familyName: 'Svensson',
  gender: 'Female',
  dateOfBirth: '1985-07-09',
  // What the suite adds to every person: the booleans one variant of the vendor's reference requires.
  removed: false,
  deregistered: false,
  protectedIdentity: false,
  socialSecurityNumberTemporary: false,
};

const validSamples: [string, string, unknown][] = [
  ['sandbox-person', 'a person with every documented field', fullPerson],
  ['sandbox-person', 'the first sample (firstName, not firstNames)', firstSample],
  ['delete-person-request', 'only the id', { id: 'custom-id-123' }],
  ['delete-person-request', 'a person with removed true', { ...fullPerson, removed: true }],
  ['consumer', 'a consumer', { consumerId: 'c-1', market: 'SE', data: { legalId: '198507099805' } }],
  [
    'consumer-upload',
    'an array of consumers',
    [{ consumerId: 'c-1', market: 'SE', data: { legalId: '198507099805' } }],
  ],
  [
    'consumer-upload',
    'a batch of 100 consumers',
    Array.from({ length: 100 }, (_, index) => ({
      consumerId: `c-${index}`,
      market: 'SE',
      data: { legalId: '198507099805' },
    })),
  ],
  [
    'sandbox-person',
    'the longest id, names and legal id the vendor allows, and ten first names',
    {
      ...firstSample,
      id: 'x'.repeat(15),
      firstName: undefined,
      firstNames: Array.from({ length: 10 }, () => 'A'.repeat(100)),
      familyName: 'S'.repeat(100),
      additionalName: 'L'.repeat(100),
      preferredFirstName: 'A'.repeat(100),
      legalId: '1'.repeat(100),
      gender: 'Unknown',
    },
  ],
  ['find-person-request', 'a legal id', { legalId: '198507099805' }],
  [
    'person-screening-request',
    'the person test case',
    { reference: 'person_test_case_01', firstName: 'Anna', lastName: 'Svensson', provider: 'PROVIDER' },
  ],
  ['company-screening-request', 'the first company test case', { reference: 'company_test_case_01' }],
  [
    'company-screening-request',
    'the second company test case with undocumented fields',
    { reference: 'company_test_case_02', provider: 'PROVIDER', anything: 'not shown, so open' },
  ],
  ['token-request', 'the documented form fields', { grant_type: 'client_credentials', scope: 'bci' }],
  [
    'token-response',
    'an access token with other properties',
    { access_token: 'abc', expires_in: 3600, token_type: 'Bearer' },
  ],
  ['put-person-response', 'a top-level gedi', { gedi: 'g-1' }],
  ['put-person-response', 'a gedi one level down', { data: { gedi: 'g-1', status: 'CREATED' }, meta: {} }],
  ['put-person-response', 'a gedi deeper down, in a list', { results: [{ person: { gedi: 'g-1' } }] }],
];

describe('schemas', () => {
  it(
    'are compiled into validators.generated.ts as they are now ' + '(run `npm run schemas:compile` after changing one)',
    () => {
      expect(
        readFileSync(GENERATED_VALIDATORS, 'utf8') === generatedValidatorsSource(),
        'support/readings/validators.generated.ts is older than schemas/',
      ).toBe(true);
    },
  );

  it('each compile with ajv as written, each with its file stem as $id', () => {
    expect(generatedValidatorsSource).not.toThrow();
    // schemas/layouts/ holds the targets' layout files, which are no schemas.
    const stems = readdirSync(new URL('../../schemas/', import.meta.url), { withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map(({ name }) => name.replace(/\.schema\.json$/, ''));
    expect(stems.sort()).toEqual(schemaIds());
  });

  it('has one schema per documented body, each with its file stem as $id', () => {
    expect(schemaIds()).toEqual([
      'company-screening-request',
      'consumer',
      'consumer-upload',
      'delete-person-request',
      'find-person-request',
      'person-screening-request',
      'put-person-response',
      'sandbox-person',
      'token-request',
      'token-response',
    ]);
  });

  it.each(validSamples)('%s accepts %s', (id, _what, sample) => {
    expect(schemaErrors(id, sample)).toEqual([]);
    expect(() => expectSchema(id, sample)).not.toThrow();
  });

  it.each<[string, unknown, string]>([
    [
      'sandbox-person',
      { ...firstSample, dateOfBirth: '1985-02-30' },
      '/dateOfBirth must match format "date": got "1985-02-30"',
    ],
    [
      'sandbox-person',
      { ...firstSample, dateOfBirth: '19850709' },
      '/dateOfBirth must match format "date": got "19850709"',
    ],
    ['sandbox-person', { ...firstSample, legalId: 198507099805 }, '/legalId must be string: got 198507099805'],
    [
      'sandbox-person',
      { ...firstSample, gender: 'female' },
      '/gender must be one of ["Male","Female","Other","Unknown"]: got "female"',
    ],
    [
      'sandbox-person',
      { ...firstSample, id: 'x'.repeat(16) },
      '/id must NOT have more than 15 characters: got "xxxxxxxxxxxxxxxx"',
    ],
    [
      'sandbox-person',
      { ...firstSample, familyName: 'S'.repeat(101) },
      `/familyName must NOT have more than 100 characters: got "${'S'.repeat(78)}…`,
    ],
    [
      'sandbox-person',
      { ...firstSample, legalId: '1'.repeat(101) },
      `/legalId must NOT have more than 100 characters: got "${'1'.repeat(78)}…`,
    ],
    [
      'sandbox-person',
      { ...firstSample, firstName: undefined, firstNames: Array.from({ length: 11 }, () => 'Anna') },
      `/firstNames must NOT have more than 10 items: got ${JSON.stringify(Array.from({ length: 11 }, () => 'Anna'))}`,
    ],
    [
      'sandbox-person',
      { ...firstSample, firstNames: ['Anna'] },
      "(root) breaks: Only one of firstName and firstNames may be set (vendor's sandbox reference)",
    ],
    [
      'sandbox-person',
      { ...firstSample, protectedIdentity: undefined },
      '(root) lacks the required property "protectedIdentity"',
    ],
    ['delete-person-request', { id: 'x'.repeat(16) }, '(root) matches none of: delete by id | mark as removed'],
    [
      'consumer',
      { consumerId: 'c'.repeat(16), market: 'SE', data: { legalId: '198507099805' } },
      '/consumerId must NOT have more than 15 characters: got "cccccccccccccccc"',
    ],
    ['sandbox-person', { ...firstSample, country: 'Sweden' }, '/country must match pattern "^[A-Z]{2}$": got "Sweden"'],
    ['sandbox-person', { ...firstSample, firstname: 'Anna' }, '(root) has the undocumented property "firstname"'],
    ['sandbox-person', { ...firstSample, removed: 'yes' }, '/removed must be boolean: got "yes"'],
    [
      'sandbox-person',
      { ...firstSample, deregisteredMonth: '13' },
      '/deregisteredMonth must match pattern "^(0[1-9]|1[0-2])$": got "13"',
    ],
    [
      'sandbox-person',
      { ...firstSample, phoneList: [{ type: 'Mobile', number: '0701234567' }] },
      '/phoneList/0/number must match pattern "^\\+[1-9][0-9]{6,14}$": got "0701234567"',
    ],
    ['sandbox-person', { ...firstSample, addressList: [{ city: 42 }] }, '/addressList/0/city must be string: got 42'],
    [
      'sandbox-person',
      { ...firstSample, relationshipList: [{ legalId: '195501019876' }] },
      '/relationshipList/0/legalId must be object: got "195501019876"',
    ],
    [
      'sandbox-person',
      { ...firstSample, socialSecurityNumberValidityPeriod: { startYear: '2020' } },
      '/socialSecurityNumberValidityPeriod/startYear must be integer: got "2020"',
    ],
    ['sandbox-person', { ...firstSample, merged: {} }, '/merged lacks the required property "gedi"'],
    [
      'sandbox-person',
      { country: 'SE', legalId: '198507099805', dateOfBirth: '1985-07-09' },
      '(root) lacks the required property "id"',
    ],
    ['delete-person-request', { id: 'p-1', removed: false }, '(root) matches none of: delete by id | mark as removed'],
    [
      'consumer-upload',
      [{ consumerId: 'c-1', market: 'SE', data: {} }],
      '/0/data lacks the required property "legalId"',
    ],
    [
      'consumer-upload',
      Array.from({ length: 101 }, () => ({ consumerId: 'c', market: 'SE', data: { legalId: '198507099805' } })),
      '(root) must NOT have more than 100 items: got ' +
        `${'[{"consumerId":"c","market":"SE","data":{"legalId":"198507099805"}},{"consumerId":"c'.slice(0, 79)}…`,
    ],
    [
      'token-request',
      { grant_type: 'password', scope: 'bci' },
      '/grant_type must be "client_credentials": got "password"',
    ],
    ['token-response', { access_token: 42 }, '/access_token must be string: got 42'],
    [
      'put-person-response',
      { data: { id: 'p-1' } },
      '(root) matches none of: an object with a string gedi | an object one of whose values carries a gedi | a ' +
        'list one of whose items carries a gedi',
    ],
    ['put-person-response', { gedi: 7 }, '/gedi must be string: got 7'],
  ])('%s rejects %j, saying %s', (id, value, line) => {
    expect(schemaErrors(id, value)).toContain(line);
    expect(() => expectSchema(id, value)).toThrow(SchemaViolation);
  });

  it('accepts the nulls the documentation allows, and only there', () => {
    expect(schemaErrors('sandbox-person', { ...firstSample, deregisteredReason: null })).toEqual([]);
    expect(
      schemaErrors('sandbox-person', { ...firstSample, relationshipList: [{ nonHierarchicalRelationship: null }] }),
    ).toEqual([]);
    expect(schemaErrors('sandbox-person', { ...firstSample, familyName: null })).toEqual([
      '/familyName must be string: got null',
    ]);
  });

  it('finds no gedi in an empty answer or one without any string gedi', () => {
    expect(schemaErrors('put-person-response', {})).not.toEqual([]);
    expect(schemaErrors('put-person-response', { data: [{ gedi: '' }] })).not.toEqual([]);
  });

  it('keeps a violation message short: at most ten lines and a count of the rest', () => {
    const wrong = Object.fromEntries(Array.from({ length: 15 }, (_, index) => [`unknown${index}`, index]));
    const violation = (() => {
      try {
        expectSchema('find-person-request', wrong);
      } catch (error) {
        return error;
      }
    })();
    expect(violation).toBeInstanceOf(SchemaViolation);
    const { message, violations, schemaId } = violation as SchemaViolation;
    expect(schemaId).toBe('find-person-request');
    expect(violations).toHaveLength(16);
    expect(message.split('\n')).toEqual([
      'value does not match schema "find-person-request":',
      ...violations.slice(0, 10).map((line) => `  - ${line}`),
      '  … and 6 more',
    ]);
  });

  it('names the known schemas when asked for an unknown one', () => {
    expect(() => schemaErrors('sandbox-persons', {})).toThrow(
      /no schema "sandbox-persons".*known: company-screening-request/,
    );
  });
});
