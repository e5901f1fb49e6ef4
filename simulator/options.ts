import { systemClock, type SimulatorClock } from './clock.js';
import type { PagingStyle } from './layouts/layout.js';
import { isMutantName, MUTANT_NAMES, type MutantName } from './mutants.js';

export type Layout = 'standard' | 'alternate' | 'vendor';
export const LAYOUT_NAMES: readonly Layout[] = ['standard', 'alternate', 'vendor'];
export type IdSpace = 'per-client' | 'shared';
/** Where operation 3 puts the body stored as sent: the record itself, or under one envelope key. */
export type SentForm = 'flat' | 'person' | 'data' | 'attributes';
export const SENT_FORMS: readonly SentForm[] = ['flat', 'person', 'data', 'attributes'];
/** The keys of the list entries' person ids: the layout's own, or `personGedi` and `nin`. */
export type EntryKeys = 'layout' | 'personGedi';
/** How a person's state is spelled: the layout's own, an object of only the true marks, or one word. */
export type StatusForm = 'layout' | 'sparse' | 'word';
export const STATUS_FORMS: readonly StatusForm[] = ['layout', 'sparse', 'word'];
/** How `_find` answers: the layout's own, or `{ results, searchParameters: { legalId } }`. */
export type FindEcho = 'layout' | 'searchParameters';
export const FIND_ECHOES: readonly FindEcho[] = ['layout', 'searchParameters'];

/** One accepted pair of client credentials (support/run/global-setup.ts reads `id` and `secret`). */
export interface SimulatorClient {
  id: string;
  secret: string;
}

export interface SimulatorOptions {
  /** 0 (default) lets the system pick a free port. */
  port?: number;
  clients?: SimulatorClient[];
  /** The one screening provider code the sandbox accepts. */
  provider?: string;
  /** Base delay before an effect becomes visible; each effect is jittered by `availabilityJitter`. 0 = immediate. */
  availabilityDelayMs?: number;
  /** Share (0..1) of the base delay each effect is jittered by, up or down (default 0.5: ±50 %). */
  availabilityJitter?: number;
  /** Added to every API request. */
  latencyMs?: number;
  tokenTtlSeconds?: number;
  /** Share (0..1) of API requests answered 429 or 503 without being processed. */
  faultRate?: number;
  /**
   * Requests a second each client may send (token requests included); beyond it 429 with Retry-After, not processed. 0
   * = no limit.
   */
  rateLimitPerSecond?: number;
  mutant?: MutantName;
  /** Serves the unauthenticated /__control/ routes. */
  control?: boolean;
  layout?: Layout;
  /**
   * A PUT must carry removed, deregistered, protectedIdentity and socialSecurityNumberTemporary, as one variant of the
   * vendor's reference requires.
   */
  strictBooleans?: boolean;
  /**
   * Person records, find answers and list items name no gedi (simulator/layouts/without-gedi.ts);
   * the PUT answer still does.
   */
  recordsWithoutGedi?: boolean;
  /** Operation 3 answers for a merged-away gedi what it answers for the gedi it was merged into. */
  mergesShownByTarget?: boolean;
  /** Operation 3 answers the last body the client wrote (PUT, or DELETE with removed) as sent, in this form. */
  storeAsSent?: SentForm;
  /** Every person record carries a copy of the last body written under `lastWrite`, identity and marks as sent. */
  requestCopyInRecords?: boolean;
  /** Operation 3 answers 200 with a placeholder (the gedi and a pending status) until a created person is available. */
  placeholdersBeforeAvailable?: boolean;
  /** The keys of the person ids in list entries (subscribed persons, consumers). */
  entryKeys?: EntryKeys;
  /** The person's state as an object of only its true marks (`sparse`) or one word (`word`), without flat flags. */
  statusForm?: StatusForm;
  /** Records carry `relationshipList` as sent beside `relations`, the relatives as the transitions left them. */
  relationsAsSent?: boolean;
  /** Screening answers one entry per list screened: `{ listType, numberOfMatches, matches }`. */
  screeningPerList?: boolean;
  /** `_find` answers `{ results, searchParameters: { legalId } }`: the query echoed beside the persons found. */
  findEcho?: FindEcho;
  /** Every list page states its `pageSize`; the last page has no continuation marker at all. */
  statedPageSize?: boolean;
  /** Pre-seeded consumers and subscribed persons per client, so lists span several pages. */
  backgroundRecords?: number;
  /** Default page size of the lists; default: the layout's own (500, or the vendor's 10). */
  pageSize?: number;
  /**
   * Whether client-chosen ids are per client (default) or one space for all clients, where another client's id is
   * refused.
   */
  idSpace?: IdSpace;
  /** The paging convention of both lists; default: the layout's own. */
  paging?: PagingStyle;
  bodyLimitBytes?: number;
  /** Operations (catalogue ids: op4, op8, …) answered 403, as for a client without the permission. */
  forbiddenOperations?: string[];
  /** Serves operation 3 only at the vendor guides' path, /consumer-intelligence/v3/persons/{gedi}. */
  personPathElsewhere?: boolean;
  /** A sandbox person field that every PUT carrying it is refused for (400 naming it). */
  refusedField?: string;
  /**
   * A scope of its own that screening tokens need (bci tokens are refused screening with 403, and screening tokens
   * everything else).
   */
  screeningScope?: string;
  /** Serve https with this certificate (PEM) and key instead of http. */
  tls?: {
    cert: string;
    key: string;
    minVersion?: 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3';
    maxVersion?: 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3';
    ciphers?: string;
  };
  seed?: number;
  clock?: SimulatorClock;
}

type Optional = 'mutant' | 'paging' | 'pageSize' | 'refusedField' | 'screeningScope' | 'tls' | 'storeAsSent';
export type ResolvedSimulatorOptions = Required<Omit<SimulatorOptions, Optional>> & Pick<SimulatorOptions, Optional>;

export const DEFAULT_CLIENTS: readonly SimulatorClient[] = [
  { id: 'contract-client', secret: 'contract-secret' },
  { id: 'second-client', secret: 'second-secret' },
];

export function resolveOptions(options: SimulatorOptions = {}): ResolvedSimulatorOptions {
  return {
    port: options.port ?? 0,
    clients: options.clients ?? [...DEFAULT_CLIENTS],
    provider: options.provider ?? 'SANDBOX-AML',
    availabilityDelayMs: options.availabilityDelayMs ?? 250,
    availabilityJitter: options.availabilityJitter ?? 0.5,
    latencyMs: options.latencyMs ?? 0,
    tokenTtlSeconds: options.tokenTtlSeconds ?? 3600,
    faultRate: options.faultRate ?? 0,
    rateLimitPerSecond: options.rateLimitPerSecond ?? 0,
    mutant: options.mutant,
    control: options.control ?? false,
    layout: options.layout ?? 'standard',
    strictBooleans: options.strictBooleans ?? false,
    recordsWithoutGedi: options.recordsWithoutGedi ?? false,
    mergesShownByTarget: options.mergesShownByTarget ?? false,
    storeAsSent: options.storeAsSent,
    requestCopyInRecords: options.requestCopyInRecords ?? false,
    placeholdersBeforeAvailable: options.placeholdersBeforeAvailable ?? false,
    // The mutant that lists the unsubscribed keys its entries personGedi and nin, as this option does.
    entryKeys: options.entryKeys ?? (options.mutant === 'unsubscribed-listed-as-person-gedi' ? 'personGedi' : 'layout'),
    statusForm: options.statusForm ?? 'layout',
    relationsAsSent: options.relationsAsSent ?? false,
    screeningPerList: options.screeningPerList ?? false,
    findEcho: options.findEcho ?? 'layout',
    statedPageSize: options.statedPageSize ?? false,
    backgroundRecords: options.backgroundRecords ?? 1500,
    pageSize: options.pageSize,
    paging: options.paging,
    tls: options.tls,
    idSpace: options.idSpace ?? 'per-client',
    bodyLimitBytes: options.bodyLimitBytes ?? 1_048_576,
    forbiddenOperations: options.forbiddenOperations ?? [],
    personPathElsewhere: options.personPathElsewhere ?? false,
    refusedField: options.refusedField,
    screeningScope: options.screeningScope,
    seed: options.seed ?? Date.now() % 2 ** 31,
    clock: options.clock ?? systemClock,
  };
}

type Env = Record<string, string | undefined>;

function invalid(variable: string, value: string, fix: string): Error {
  return new Error(`${variable}="${value}" is invalid: ${fix}`);
}

function readNumber(env: Env, variable: string, check: (value: number) => boolean, fix: string): number | undefined {
  const raw = env[variable];
  if (raw === undefined || raw.trim() === '') return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || !check(value)) throw invalid(variable, raw, fix);
  return value;
}

const isNonNegativeInteger = (value: number): boolean => Number.isInteger(value) && value >= 0;

function readClients(env: Env): SimulatorClient[] | undefined {
  const raw = env.SIMULATOR_CLIENTS;
  if (raw === undefined || raw.trim() === '') return undefined;
  return raw.split(',').map((pair) => {
    const [id, secret, ...rest] = pair.trim().split(':');
    if (!id || !secret || rest.length > 0) {
      throw invalid(
        'SIMULATOR_CLIENTS',
        raw,
        'write comma-separated id:secret pairs, e.g. "contract-client:contract-secret,second-client:second-secret".',
      );
    }
    return { id, secret };
  });
}

function readMutant(env: Env): MutantName | undefined {
  const raw = env.SIMULATOR_MUTANT;
  if (raw === undefined || raw.trim() === '') return undefined;
  if (!isMutantName(raw)) throw invalid('SIMULATOR_MUTANT', raw, `use one of ${MUTANT_NAMES.join(', ')}.`);
  return raw;
}

/** The value of `variable` when it is one of `names`; undefined when unset or blank. */
function readOneOf<Name extends string>(env: Env, variable: string, names: readonly Name[]): Name | undefined {
  const raw = env[variable];
  if (raw === undefined || raw.trim() === '') return undefined;
  if (!(names as readonly string[]).includes(raw)) throw invalid(variable, raw, `use one of ${names.join(', ')}.`);
  return raw as Name;
}

const PAGING_STYLES: readonly PagingStyle[] = ['next-url', 'link-header', 'page-number', 'offset', 'page-token'];

function readIdSpace(env: Env): IdSpace | undefined {
  const raw = env.SIMULATOR_ID_SPACE;
  if (raw === undefined || raw.trim() === '') return undefined;
  if (raw !== 'per-client' && raw !== 'shared')
    throw invalid('SIMULATOR_ID_SPACE', raw, 'use "per-client" or "shared".');
  return raw;
}

const OPERATIONS = ['op1', 'op2', 'op3', 'op4', 'op5', 'op6', 'op7', 'op8', 'op9'];

function readOperations(env: Env): string[] | undefined {
  const raw = env.SIMULATOR_FORBIDDEN_OPERATIONS;
  if (raw === undefined || raw.trim() === '') return undefined;
  const operations = raw.split(',').map((operation) => operation.trim());
  if (!operations.every((operation) => OPERATIONS.includes(operation)))
    throw invalid(
      'SIMULATOR_FORBIDDEN_OPERATIONS',
      raw,
      `write comma-separated operation ids of docs/catalogue.json (${OPERATIONS.join(', ')}), e.g. "op4".`,
    );
  return operations;
}

function readFlag(env: Env, variable: string): boolean | undefined {
  const raw = env[variable];
  if (raw === undefined || raw.trim() === '') return undefined;
  if (raw !== '0' && raw !== '1') throw invalid(variable, raw, 'use 1 (on) or 0 (off).');
  return raw === '1';
}

/** Reads the SIMULATOR_* variables; an invalid value throws an Error naming the variable and the fix. */
export function simulatorOptionsFromEnv(env: Env = process.env): SimulatorOptions {
  const options: SimulatorOptions = {
    port: readNumber(
      env,
      'SIMULATOR_PORT',
      (v) => isNonNegativeInteger(v) && v <= 65535,
      'use an integer port 0..65535 (0 = a free port).',
    ),
    clients: readClients(env),
    provider: env.SIMULATOR_PROVIDER?.trim() || undefined,
    availabilityDelayMs: readNumber(
      env,
      'SIMULATOR_AVAILABILITY_DELAY_MS',
      isNonNegativeInteger,
      'use a whole number of milliseconds, 0 or more.',
    ),
    availabilityJitter: readNumber(
      env,
      'SIMULATOR_AVAILABILITY_JITTER',
      (v) => v >= 0 && v <= 1,
      'use a share of the delay from 0 to 1, e.g. 0.5 for ±50 %.',
    ),
    latencyMs: readNumber(
      env,
      'SIMULATOR_LATENCY_MS',
      isNonNegativeInteger,
      'use a whole number of milliseconds, 0 or more.',
    ),
    tokenTtlSeconds: readNumber(
      env,
      'SIMULATOR_TOKEN_TTL_S',
      (v) => Number.isInteger(v) && v > 0,
      'use a whole number of seconds, 1 or more.',
    ),
    faultRate: readNumber(
      env,
      'SIMULATOR_FAULT_RATE',
      (v) => v >= 0 && v <= 1,
      'use a share between 0 and 1, e.g. 0.1.',
    ),
    rateLimitPerSecond: readNumber(
      env,
      'SIMULATOR_RATE_LIMIT',
      (v) => v >= 0,
      'use requests a second per client, e.g. 10 or 0.5 (0 = no limit).',
    ),
    mutant: readMutant(env),
    control: readFlag(env, 'SIMULATOR_CONTROL'),
    layout: readOneOf(env, 'SIMULATOR_LAYOUT', LAYOUT_NAMES),
    strictBooleans: readFlag(env, 'SIMULATOR_STRICT_BOOLEANS'),
    recordsWithoutGedi: readFlag(env, 'SIMULATOR_RECORDS_WITHOUT_GEDI'),
    mergesShownByTarget: readFlag(env, 'SIMULATOR_MERGES_SHOWN_BY_TARGET'),
    storeAsSent: readOneOf(env, 'SIMULATOR_STORE_AS_SENT', SENT_FORMS),
    requestCopyInRecords: readFlag(env, 'SIMULATOR_REQUEST_COPY_IN_RECORDS'),
    placeholdersBeforeAvailable: readFlag(env, 'SIMULATOR_PLACEHOLDERS_BEFORE_AVAILABLE'),
    entryKeys: readOneOf(env, 'SIMULATOR_ENTRY_KEYS', ['layout', 'personGedi'] as const),
    statusForm: readOneOf(env, 'SIMULATOR_STATUS_FORM', STATUS_FORMS),
    relationsAsSent: readFlag(env, 'SIMULATOR_RELATIONS_AS_SENT'),
    screeningPerList: readFlag(env, 'SIMULATOR_SCREENING_PER_LIST'),
    findEcho: readOneOf(env, 'SIMULATOR_FIND_ECHO', FIND_ECHOES),
    statedPageSize: readFlag(env, 'SIMULATOR_STATED_PAGE_SIZE'),
    backgroundRecords: readNumber(
      env,
      'SIMULATOR_BACKGROUND_RECORDS',
      isNonNegativeInteger,
      'use a whole number of records, 0 or more.',
    ),
    seed: readNumber(env, 'SIMULATOR_SEED', isNonNegativeInteger, 'use a non-negative integer.'),
    pageSize: readNumber(
      env,
      'SIMULATOR_PAGE_SIZE',
      (v) => Number.isInteger(v) && v >= 1 && v <= 1000,
      'use a whole number of records per page, 1 to 1000.',
    ),
    paging: readOneOf(env, 'SIMULATOR_PAGING', PAGING_STYLES),
    idSpace: readIdSpace(env),
    forbiddenOperations: readOperations(env),
    personPathElsewhere: readFlag(env, 'SIMULATOR_PERSON_PATH_ELSEWHERE'),
    refusedField: env.SIMULATOR_REFUSED_FIELD?.trim() || undefined,
    screeningScope: env.SIMULATOR_SCREENING_SCOPE?.trim() || undefined,
  };
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as SimulatorOptions;
}
