// Owns the sandbox person verbs: operations 1–4 for one test, with the cleanup of what it created.
import { expandPath, type ContractConfig } from '../run/config.js';
import type { ApiClient, ApiResponse } from '../transport/http.js';
import type { DataFactory, SandboxPerson } from '../data/factories.js';
import { eventually, watch, type Transition } from '../readings/eventually.js';
import { containsValue, findValues } from '../readings/lookup.js';
import {
  checkHolds,
  listsPerson,
  personWithLegalId,
  seenIn,
  withoutEchoes,
  type Reading,
  type RecordCheck,
} from '../readings/facts.js';
import { expectSchema } from '../readings/schemas.js';
import { assertSandboxTarget } from '../run/target.js';
import { ledgerFile, recordInLedger, type LedgerEntry } from '../data/ledger.js';
import { step } from '../evidence/report.js';
import { redactText } from '../transport/redact.js';
import { NotSentError } from '../transport/work.js';
import { expectAccepted } from '../evidence/expectations.js';
import { coveredBy, operationNotFound } from '../evidence/refusals.js';

/** The rules whose own specs check what every test that creates a person depends on. */
const CREATE_RETURNS_GEDI = 'person.create-returns-gedi';
const EVENTUALLY_AVAILABLE = 'person.eventually-available';

/** A custom person the sandbox has acknowledged: what was sent and the gedi it answered with. */
export interface StoredPerson {
  person: SandboxPerson;
  gedi: string;
  /** Epoch ms of the PUT's answer: time to consistency of its effects is measured from it. */
  acknowledgedAt: number;
}

/** Statuses that say "no such person" once a deletion took effect. Which one is not shown. */
export const GONE_STATUSES = new Set([404, 410]);

/** The documentation only promises that the PUT response "contains the gedi of the person". */
export function gediIn(body: unknown): string | undefined {
  // Outermost first: the person's own gedi comes before one named inside it (a merge target).
  return findValues(body, 'gedi').find((value): value is string => typeof value === 'string' && value !== '');
}

/** Operation 2 with only `id`: deletes the custom person (shared by SandboxPersons and the sweep). */
export function deleteSandboxPerson(
  api: ApiClient,
  config: Pick<ContractConfig, 'baseUrl' | 'prodBaseUrl' | 'paths'>,
  personId: string,
): Promise<ApiResponse> {
  assertSandboxTarget(config, 'operation 2 (DELETE sandbox person)');
  const body = { id: personId };
  expectSchema('delete-person-request', body);
  return api.request('DELETE', config.paths.sandboxPersons, { json: body, operation: 'op2', purpose: 'delete person' });
}

/**
 * A person record "describes" a stored person when it is that person's own: its own gedi or its own
 * legal id, never one that a relative, a merge field or an echo of the request carries.
 */
export function describes(body: unknown, stored: StoredPerson): Reading {
  return listsPerson(body, { gedi: stored.gedi, legalId: stored.person.legalId });
}

/**
 * The persons one test creates, with the domain verbs of the sandbox person interface. Every id is
 * written to the run's ledger before its PUT is sent, and `cleanUp` deletes whatever is left when
 * the test ends, pass or fail.
 */
export class SandboxPersons {
  private readonly open = new Set<string>();
  private readonly ledger: string;
  /** The legal id of each gedi this test stored, and the gedis operation 3 has answered 2xx for. */
  private readonly legalIds = new Map<string, string>();
  private readonly seen = new Set<string>();

  constructor(
    private readonly api: ApiClient,
    private readonly config: ContractConfig,
    private readonly data: DataFactory,
  ) {
    this.ledger = ledgerFile(config.runId);
  }

  /** Writes the id to the ledger before its first PUT is sent; false when it was already tracked. */
  private track(personId: string): boolean {
    if (this.open.has(personId)) return false;
    this.note('created', personId);
    this.open.add(personId);
    return true;
  }

  private untrack(personId: string): void {
    this.note('deleted', personId);
    this.open.delete(personId);
  }

  private note(event: LedgerEntry['event'], personId: string): void {
    recordInLedger(this.ledger, {
      event,
      personId,
      target: new URL(this.config.baseUrl).origin,
      clientId: this.config.client.clientId,
    });
  }

  /** Operation 1, exactly as sent: the body is checked against the documented fields first. */
  async put(person: SandboxPerson, purpose = 'write person'): Promise<ApiResponse> {
    assertSandboxTarget(this.config, 'operation 1 (PUT sandbox person)');
    expectSchema('sandbox-person', person);
    const first = this.track(person.id);
    // A first PUT that was refused, or never sent (its test had ended), created nobody: nothing for
    // the cleanup (and a DELETE of an id another client owns could only be refused again). A refused
    // update leaves the person to clean up.
    const response = await this.api
      .request('PUT', this.config.paths.sandboxPersons, { json: person, operation: 'op1', purpose })
      .catch((error: unknown) => {
        if (first && error instanceof NotSentError) this.untrack(person.id);
        throw error;
      });
    if (first && response.status >= 400 && response.status < 500) this.untrack(person.id);
    return response;
  }

  /** Operation 1 with the documented outcome: a 2xx whose body contains the person's gedi. */
  async store(person: SandboxPerson): Promise<StoredPerson> {
    const first = !this.open.has(person.id);
    const response = await this.put(person);
    // A first PUT without a merge has no resource that could be missing: a 404 says the path is wrong.
    if (response.status === 404 && first && person.merged === undefined) {
      throw operationNotFound(
        'op1',
        response,
        'a PUT that creates a person addresses no resource that could be missing',
      );
    }
    return this.acknowledged(person, response);
  }

  /**
   * The documented answer to a PUT that was sent: a 2xx that contains the person's gedi. Both are
   * rule person.create-returns-gedi's promise; a missing gedi is that rule's break wherever it shows.
   */
  acknowledged(person: SandboxPerson, response: ApiResponse): StoredPerson {
    try {
      expectAccepted(response, 'PUT sandbox person');
    } catch (error) {
      throw coveredBy(error, CREATE_RETURNS_GEDI);
    }
    try {
      expectSchema('put-person-response', response.body);
    } catch (error) {
      throw coveredBy(error, CREATE_RETURNS_GEDI, true);
    }
    const gedi = gediIn(response.body)!;
    this.legalIds.set(gedi, person.legalId);
    return { person, gedi, acknowledgedAt: response.receivedAt };
  }

  /** A new, fully populated person from the test's data factory, stored in the sandbox. */
  async create(overrides: Partial<SandboxPerson> = {}): Promise<StoredPerson> {
    return this.store(this.data.person(overrides));
  }

  /** A new person that the consumer data interface already returns (rule 2 waited out). */
  async createAvailable(overrides: Partial<SandboxPerson> = {}): Promise<StoredPerson> {
    const stored = await this.create(overrides);
    await this.awaitRetrievable(stored);
    return stored;
  }

  /** Operation 2 with only `id`: deletes the custom person. */
  async delete(personId: string): Promise<ApiResponse> {
    const response = await deleteSandboxPerson(this.api, this.config, personId);
    if (response.ok) this.untrack(personId);
    return response;
  }

  /** Operation 2 with `removed: true` plus the person fields: marks the person as removed. */
  async markRemoved(person: SandboxPerson): Promise<ApiResponse> {
    assertSandboxTarget(this.config, 'operation 2 (DELETE sandbox person)');
    const body = { ...person, removed: true };
    expectSchema('delete-person-request', body);
    return this.api.request('DELETE', this.config.paths.sandboxPersons, {
      json: body,
      operation: 'op2',
      purpose: 'mark person removed',
    });
  }

  /** Operation 3: the person record by gedi within the configured market. */
  async retrieve(gedi: string, purpose = 'read person'): Promise<ApiResponse> {
    const response = await this.api.request(
      'GET',
      expandPath(this.config.paths.person, { market: this.config.market, gedi }),
      { operation: 'op3', purpose },
    );
    if (response.ok) this.seen.add(gedi);
    return response;
  }

  /** Operation 4: the persons matching a legal id. */
  find(legalId: string): Promise<ApiResponse> {
    const body = { legalId };
    expectSchema('find-person-request', body);
    return this.api.request('POST', expandPath(this.config.paths.findPerson, { market: this.config.market }), {
      json: body,
      operation: 'op4',
      purpose: 'find person',
    });
  }

  /**
   * Waits until operation 3 answers 2xx for the gedi and `until` holds for the record. With the
   * transition it waits for, the time from the write to the first read that saw it is measured.
   */
  async awaitRecord(gedi: string, what: string, until: RecordCheck, transition?: Transition): Promise<unknown> {
    try {
      const { value } = await eventually(
        `person ${gedi} ${what}`,
        () => this.retrieve(gedi, transition ? `read until the ${transition} shows` : 'read until it shows'),
        (response) => (response.ok && checkHolds(until(response.body)) ? { body: response.body } : undefined),
        {
          timeoutMs: this.config.availabilityTimeoutMs,
          transition,
          shows: (response) => (response.ok ? seenIn(until(response.body)) : undefined),
        },
      );
      return value.body;
    } catch (error) {
      throw await this.neverRetrievable(gedi, error);
    }
  }

  /**
   * A wait on a person this test stored that operation 3 never once answered 2xx for is about its
   * availability (rule 2, person.eventually-available), whatever the wait was for; and when
   * operation 4 does find the person, operation 3 is served somewhere else.
   */
  private async neverRetrievable(gedi: string, error: unknown): Promise<unknown> {
    const legalId = this.legalIds.get(gedi);
    const last = (error as { lastResponse?: ApiResponse }).lastResponse;
    if (
      !(error instanceof Error) ||
      error.name !== 'NotConsistentError' ||
      this.seen.has(gedi) ||
      legalId === undefined ||
      last?.status !== 404
    )
      return error;
    const found = await this.find(legalId).catch(() => undefined);
    if (found?.ok && personWithLegalId(found.body, legalId).holds) {
      return operationNotFound(
        'op3',
        last,
        `operation 4 finds the person by its legal id ${legalId}: it exists, with gedi ${gedi}`,
      );
    }
    return coveredBy(error, EVENTUALLY_AVAILABLE, true);
  }

  /**
   * Waits (rule 2) until operation 3 returns the stored person and `until` holds for its record; by default, its
   * creation.
   */
  awaitRetrievable(
    stored: StoredPerson,
    what = 'to be retrievable by gedi',
    until: RecordCheck = () => true,
    transition: Transition = 'create',
  ): Promise<unknown> {
    // The record must be the person's own before what it shows of the person counts.
    const ownAndUntil = (body: unknown) => {
      const own = describes(body, stored);
      return own.holds ? until(body) : own;
    };
    return this.awaitRecord(stored.gedi, `(id ${stored.person.id}) ${what}`, ownAndUntil, transition);
  }

  /**
   * Reads the person by gedi for `windowMs` and returns the first answer `changed` holds for, or
   * the last answer when none did: a negative, watched for as long as the caller's positive
   * controls took to show, so an asynchronous effect had that long to appear.
   */
  async watchFor(
    stored: StoredPerson,
    what: string,
    windowMs: number,
    changed: (response: ApiResponse) => boolean,
  ): Promise<ApiResponse> {
    let last: ApiResponse | undefined;
    await watch(
      `person ${stored.gedi} ${what} (it must not)`,
      async () => (last = await this.retrieve(stored.gedi, 'watch for a change')),
      (answer) => changed(answer),
      { timeoutMs: windowMs },
    );
    // A watch reads at least once, at the end of its window.
    return last!;
  }

  /**
   * Waits until operation 4 finds the person by its legal id (rule 2's promise, checked by
   * person.eventually-available), or answers with one of `others` (by legal id or gedi) instead: a
   * find that answers one person whatever the legal id would otherwise only end in a timeout, never
   * in the answer that shows it found the wrong person. Each is found by a person record of its
   * own in the answer, never by the legal id the request carried, which an answer may echo.
   */
  async awaitFindable(stored: StoredPerson, others: StoredPerson[] = []): Promise<unknown> {
    const namesSomeone = (body: unknown) =>
      personWithLegalId(body, stored.person.legalId).holds || others.some((other) => describes(body, other).holds);
    const { value } = await eventually(
      `person ${stored.gedi} to be found by legal id ${stored.person.legalId}`,
      () => this.find(stored.person.legalId),
      (response) => (response.ok && namesSomeone(response.body) ? { body: response.body } : undefined),
      { timeoutMs: this.config.availabilityTimeoutMs },
    ).catch((error: unknown) => {
      throw coveredBy(error, EVENTUALLY_AVAILABLE);
    });
    return value.body;
  }

  /** Waits until the person is neither retrievable by gedi nor found by legal id. */
  async awaitGone(stored: StoredPerson): Promise<void> {
    await eventually(
      `person ${stored.gedi} to be no longer retrievable (404 or 410)`,
      () => this.retrieve(stored.gedi, 'read until the delete shows'),
      (response) => GONE_STATUSES.has(response.status),
      { timeoutMs: this.config.availabilityTimeoutMs, transition: 'delete' },
    );
    const { legalId } = stored.person;
    await eventually(
      `legal id ${legalId} to be no longer found`,
      () => this.find(legalId),
      // Any mention of the legal id keeps the person found, except the request's own, echoed back.
      (response) =>
        GONE_STATUSES.has(response.status) || (response.ok && !containsValue(withoutEchoes(response.body), legalId)),
      { timeoutMs: this.config.availabilityTimeoutMs },
    );
  }

  /** Deletes every person this test created and did not delete itself. */
  async cleanUp(): Promise<void> {
    if (this.open.size === 0) return;
    await step(`Clean up: delete the ${this.open.size} person(s) this test created`, async () => {
      for (const personId of [...this.open]) {
        try {
          const response = await this.delete(personId);
          if (GONE_STATUSES.has(response.status)) this.untrack(personId);
          else if (!response.ok)
            console.warn(
              `cleanup: DELETE of person ${personId} answered ${response.status}; it stays in ${this.ledger} for ` +
                `\`npm run sweep\`.`,
            );
        } catch (error) {
          console.warn(
            redactText(
              `cleanup: could not delete person ${personId} (${String(error)}); it stays in ${this.ledger} for ` +
                `\`npm run sweep\`.`,
            ),
          );
        }
      }
    });
  }
}
