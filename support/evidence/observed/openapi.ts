// Owns the observed contract as an OpenAPI 3.1 document a mock server or a fuzzer can start from; what was observed
// beyond OpenAPI goes in `x-` extensions. Members left undefined vanish when the document is written.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { catalogue } from '../../run/catalogue.js';
import { pathSettingOf, type OperationPaths } from '../../run/config.js';
import { redact } from '../../transport/redact.js';
import {
  answersOf,
  documentedValuesOf,
  mediaTypesOf,
  mergeSchemas,
  pagingsOf,
  type ObservedCase,
  type ObservedContract,
} from './model.js';

const TOKEN_PATH = '/sandbox/v1/token.oauth2';

/** The documented request schema of each operation (schemas/*.schema.json, by $id). */
const REQUEST_SCHEMAS: Record<string, string> = {
  token: 'token-request',
  op1: 'sandbox-person',
  op2: 'delete-person-request',
  op4: 'find-person-request',
  op5: 'consumer-upload',
  op8: 'person-screening-request',
  op9: 'company-screening-request',
};

type Json = Record<string, unknown>;

/** The schemas of schemas/ as OpenAPI components: references by $id become component references. */
function components(schemasDir: string): Record<string, Json> {
  const entries = readdirSync(schemasDir)
    .filter((name) => name.endsWith('.schema.json'))
    .map((name) => {
      const schema = JSON.parse(readFileSync(join(schemasDir, name), 'utf8')) as Json;
      const id = String(schema.$id);
      const text = JSON.stringify(schema, (key, value: unknown) => {
        if (key === '$schema' || key === '$id') return undefined;
        if (key !== '$ref' || typeof value !== 'string') return value;
        return `#/components/schemas/${value.startsWith('#/') ? `${id}/${value.slice(2)}` : value}`;
      });
      return [id, JSON.parse(text) as Json] as const;
    });
  return Object.fromEntries(entries);
}

/** A header as OpenAPI shows it: named conventionally (the client lower-cases names), with the values seen. */
const header = (name: string, values: string[]): [string, Json] => [
  name.replace(/(^|-)([a-z])/g, (_all, dash: string, letter: string) => `${dash}${letter.toUpperCase()}`),
  {
    description: values.length
      ? `Observed: ${values.slice(0, 3).join(' | ')}`
      : 'Observed by name; its value differs per call.',
    schema: { type: 'string' },
  },
];

/** One status as answered to every kind of request (purpose) of one operation: schemas merged. */
function response(answers: ReturnType<typeof answersOf>): Json {
  const headers: Record<string, string[]> = {};
  for (const { seen } of answers) {
    for (const [name, values] of Object.entries(seen.headers))
      headers[name] = [...new Set([...(headers[name] ?? []), ...values])];
    for (const name of seen.requestIdHeaders) headers[name] ??= [];
  }
  const named = Object.entries(headers).filter(([name]) => name !== 'content-type');
  const media = [...new Set(answers.flatMap(({ seen }) => mediaTypesOf(seen)))];
  const schemas = answers.flatMap(({ seen }) => (seen.schema ? [seen.schema] : []));
  const example = redact(answers.map(({ seen }) => seen.example).reduce((first, next) => first ?? next));
  const content = schemas.length ? { schema: schemas.reduce(mergeSchemas), example } : undefined;
  const counts = answers.map(({ observed, seen }) => `${observed.purpose}: ${seen.count} time(s)`);
  return {
    description: `Observed: ${counts.join('; ')}.`,
    headers: named.length ? Object.fromEntries(named.map(([name, values]) => header(name, values))) : undefined,
    content:
      content && Object.fromEntries((media.length ? media : ['application/json']).map((type) => [type, content])),
  };
}

function responsesOf(cases: ObservedCase[]): Json {
  const answered = answersOf(cases).filter(({ status }) => /^\d{3}$/.test(status));
  const byStatus = [...Map.groupBy(answered, ({ status }) => status)].sort(([a], [b]) => a.localeCompare(b));
  if (byStatus.length === 0) return { default: { description: 'Not observed in this run.' } };
  return Object.fromEntries(byStatus.map(([status, answers]) => [status, response(answers)]));
}

/** The OpenAPI 3.1 document of the API as this run observed it. */
export function observedOpenApi(contract: ObservedContract, schemasDir: string, operationPaths: OperationPaths): Json {
  const paths: Record<string, Json> = {};
  for (const operation of catalogue.operations) {
    const path = operation.id === 'token' ? TOKEN_PATH : operationPaths[pathSettingOf(operation.id)!.key];
    const cases = contract.cases.filter((observed) => observed.operation === operation.id);
    const parameters = [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
      name,
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    const media = operation.id === 'token' ? 'application/x-www-form-urlencoded' : 'application/json';
    const schema = REQUEST_SCHEMAS[operation.id];
    const documentedValues = documentedValuesOf(cases);
    const pagings = pagingsOf(cases);
    paths[path] = {
      ...paths[path],
      [operation.method.toLowerCase()]: {
        operationId: operation.id,
        summary: operation.feature,
        tags: [operation.epic],
        parameters: parameters.length ? parameters : undefined,
        security: operation.id === 'token' ? [] : undefined,
        requestBody: schema && {
          required: true,
          content: { [media]: { schema: { $ref: `#/components/schemas/${schema}` } } },
        },
        responses: responsesOf(cases),
        'x-documented-rules': catalogue.rules
          .filter((rule) => rule.operations.includes(operation.id))
          .map((rule) => rule.id),
        'x-observed-kinds-of-request': cases.map((observed) => observed.purpose),
        'x-documented-values': Object.keys(documentedValues).length ? documentedValues : undefined,
        'x-paging': pagings.length ? pagings : undefined,
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Consumer intelligence and AML screening API, as observed',
      version: 'observed',
      description:
        'Written by the contract suite from what the target answered: every status, schema and example below was ' +
        'observed, not documented.',
    },
    paths,
    components: {
      schemas: components(schemasDir),
      securitySchemes: {
        clientCredentials: {
          type: 'oauth2',
          flows: { clientCredentials: { tokenUrl: TOKEN_PATH, scopes: { bci: 'the documented scope' } } },
        },
      },
    },
    security: [{ clientCredentials: ['bci'] }],
    'x-time-to-consistency': contract.timings,
    'x-early-reads': contract.earlyReads,
    'x-token-lifetime-seconds': contract.tokenLifetimesS,
  };
}
