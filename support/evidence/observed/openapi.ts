// Owns the observed contract as an OpenAPI 3.1 document: the documented request schemas, every
// status the target answered per operation with its inferred schema and a redacted example, the
// token endpoint and its security scheme, the documentation's rule ids, where each documented name
// sits, the time to consistency and what the reads before an effect answered as `x-` extensions.
// A mock server or a fuzzer can start from it.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { catalogue } from '../../run/catalogue.js';
import { pathSettingOf, type OperationPaths } from '../../run/config.js';
import { redact } from '../../transport/redact.js';
import type { ObservedCase, ObservedContract } from './model.js';
import { mergeSchemas, type JsonSchema } from './schema-inference.js';

const TOKEN_PATH = '/sandbox/v1/token.oauth2';

/** The documented request schema of each operation (schemas/*.schema.json, by $id). */
const REQUEST_SCHEMAS: Record<string, string> = {
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
  const loaded = readdirSync(schemasDir)
    .filter((name) => name.endsWith('.schema.json'))
    .map((name) => JSON.parse(readFileSync(join(schemasDir, name), 'utf8')) as Json);
  const rewrite = (value: unknown, id: string): unknown => {
    if (Array.isArray(value)) return value.map((item) => rewrite(item, id));
    if (!value || typeof value !== 'object') return value;
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => key !== '$schema' && key !== '$id')
        .map(([key, inner]) => {
          if (key !== '$ref' || typeof inner !== 'string') return [key, rewrite(inner, id)];
          return [
            key,
            inner.startsWith('#/') ? `#/components/schemas/${id}/${inner.slice(2)}` : `#/components/schemas/${inner}`,
          ];
        }),
    );
  };
  return Object.fromEntries(loaded.map((schema) => [String(schema.$id), rewrite(schema, String(schema.$id)) as Json]));
}

interface StatusSeen {
  description: string[];
  media: Set<string>;
  headers: Map<string, Set<string>>;
  schema?: JsonSchema;
  example?: unknown;
}

/** Header names as the target spelled them are lower-cased by the client; OpenAPI shows them conventionally. */
const headerName = (name: string): string =>
  name.replace(/(^|-)([a-z])/g, (_all, dash: string, letter: string) => `${dash}${letter.toUpperCase()}`);

/**
 * Every status answered over all kinds of request of one operation: schemas merged, media types and headers as the
 * target sent them.
 */
function responsesOf(cases: ObservedCase[]): Json {
  const statuses = new Map<string, StatusSeen>();
  for (const observed of cases) {
    for (const [status, seen] of Object.entries(observed.statuses)) {
      if (!/^\d{3}$/.test(status)) continue;
      const known: StatusSeen = statuses.get(status) ?? { description: [], media: new Set(), headers: new Map() };
      known.description.push(`${observed.purpose}: ${seen.count} time(s)`);
      for (const value of seen.headers['content-type'] ?? []) known.media.add(value.split(';')[0]!.trim());
      for (const [name, values] of Object.entries(seen.headers))
        if (name !== 'content-type')
          values.forEach((value) => known.headers.set(name, (known.headers.get(name) ?? new Set()).add(value)));
      for (const name of seen.requestIdHeaders) known.headers.set(name, known.headers.get(name) ?? new Set());
      if (seen.schema) known.schema = known.schema ? mergeSchemas(known.schema, seen.schema) : seen.schema;
      known.example ??= seen.example;
      statuses.set(status, known);
    }
  }
  if (statuses.size === 0) return { default: { description: 'Not observed in this run.' } };
  return Object.fromEntries(
    [...statuses]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([status, { description, media, headers, schema, example }]) => [
        status,
        {
          description: `Observed: ${description.join('; ')}.`,
          ...(headers.size
            ? {
                headers: Object.fromEntries(
                  [...headers].map(([name, values]) => [
                    headerName(name),
                    {
                      description: values.size
                        ? `Observed: ${[...values].slice(0, 3).join(' | ')}`
                        : 'Observed by name; its value differs per call.',
                      schema: { type: 'string' },
                    },
                  ]),
                ),
              }
            : {}),
          ...(schema
            ? {
                content: Object.fromEntries(
                  [...(media.size ? media : ['application/json'])].map((type) => [
                    type,
                    { schema, ...(example === undefined ? {} : { example: redact(example) }) },
                  ]),
                ),
              }
            : {}),
        },
      ]),
  );
}

/** Where each documented name was found in the accepted answers of an operation. */
function documentedValuesOf(cases: ObservedCase[]): Record<string, string[]> {
  const found: Record<string, string[]> = {};
  for (const observed of cases)
    for (const [name, paths] of Object.entries(observed.documentedValues))
      found[name] = [...new Set([...(found[name] ?? []), ...paths])].sort();
  return found;
}

/** The OpenAPI 3.1 document of the API as this run observed it. */
export function observedOpenApi(
  contract: ObservedContract,
  options: { schemasDir: string; paths: OperationPaths; title?: string },
): Json {
  const paths: Record<string, Json> = {};
  for (const operation of catalogue.operations) {
    const path = operation.id === 'token' ? TOKEN_PATH : options.paths[pathSettingOf(operation.id)!.key];
    const method = operation.method.toLowerCase();
    const cases = contract.cases.filter((observed) => observed.operation === operation.id);
    const schema = REQUEST_SCHEMAS[operation.id];
    const parameters = [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
      name,
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    const documentedValues = documentedValuesOf(cases);
    paths[path] = {
      ...paths[path],
      [method]: {
        operationId: operation.id,
        summary: operation.feature,
        tags: [operation.epic],
        ...(parameters.length ? { parameters } : {}),
        ...(operation.id === 'token'
          ? {
              security: [],
              requestBody: {
                required: true,
                content: {
                  'application/x-www-form-urlencoded': { schema: { $ref: '#/components/schemas/token-request' } },
                },
              },
            }
          : schema
            ? {
                requestBody: {
                  required: true,
                  content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } },
                },
              }
            : {}),
        responses: responsesOf(cases),
        'x-documented-rules': catalogue.rules
          .filter((rule) => rule.operations.includes(operation.id))
          .map((rule) => rule.id),
        'x-observed-kinds-of-request': cases.map((observed) => observed.purpose),
        ...(Object.keys(documentedValues).length ? { 'x-documented-values': documentedValues } : {}),
        ...(cases.some((observed) => observed.paging)
          ? { 'x-paging': [...new Set(cases.map((observed) => observed.paging).filter(Boolean))] }
          : {}),
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: options.title ?? 'Consumer intelligence and AML screening API, as observed',
      version: 'observed',
      description:
        'Written by the contract suite from what the target answered: every status, schema and example below was ' +
        'observed, not documented.',
    },
    paths,
    components: {
      schemas: components(options.schemasDir),
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
