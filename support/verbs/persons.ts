// Owns the sandbox person verbs: operations 1–4 for one test, with the cleanup of what it created.
import { assertSandboxTarget, expandPath, type ContractConfig } from '../run/config.js';
import { NotSentError, type ApiClient, type ApiResponse } from '../transport/http.js';
import type { DataFactory, SandboxPerson } from '../data/factories.js';
import { eventually, NotConsistentError, watch, type Transition, type WaitOptions } from '../readings/eventually.js';
import { listsPerson, personWithLegalId, type Reading } from '../readings/facts.js';
import { LayoutChangedError, LearnedFacts, type Subject } from '../layout/learned-readings.js';
import type { Observed } from '../layout/learning.js';
import { findValues } from '../readings/json.js';
import type { RecordReading } from '../layout/learned-readings.js';
import { expectSchema } from '../readings/schemas.js';
import { ledgerFile, recordInLedger, type LedgerEntry } from '../data/ledger.js';
import { labels, step } from '../evidence/report.js';
import { redactText } from '../transport/redact.js';
import { expectAccepted } from '../evidence/expectations.js';
import { operationNotFound, OtherRuleFailure } from '../evidence/failures.js';

/** A custom person the sandbox has acknowledged: what was sent and the gedi it answered with. */
export interface StoredPerson {
  person: SandboxPerson;
  gedi: string;
}

/** What a wait saw when the reading it was given held: that reading (the verdict), and the record it was read on. */
export interface Shown {
  reading: Reading;
  record: unknown;
}

/** Statuses that say "no such person" once a deletion took effect. Which one is not shown. */
export const GONE_STATUSES = new Set([404, 410]);

/** The documentation only promises that the PUT response "contains the gedi of the person". */
export function gediIn(body: unknown): string | undefined {
  // Outermost first: the person's own gedi comes before one named inside it (a merge target).
  return findValues(body, 'gedi').find((value): value is string => typeof value === 'string' && value !== '');
}

/**
 * Operation 2, `DELETE /consumer-intelligence/sandbox/v1/persons` (`CONTRACT_SANDBOX_PERSONS_PATH`): `{ id }` alone
 * deletes the custom person (tests and the sweep); a person is sent whole with `removed: true`.
 */
export function deleteSandboxPerson(
  api: ApiClient,
  config: Pick<ContractConfig, 'baseUrl' | 'prodBaseUrl' | 'paths'>,
  person: string | SandboxPerson,
): Promise<ApiResponse> {
  assertSandboxTarget(config, 'operation 2 (DELETE sandbox person)');
  const byId = typeof person === 'string';
  const body = byId ? { id: person } : { ...person, removed: true };
  expectSchema('delete-person-request', body);
  const purpose = byId ? 'delete person' : 'mark person removed';
  return api.request('DELETE', config.paths.sandboxPersons, { json: body, operation: 'op2', purpose });
}

/** One test's persons and their verbs: each id is in the run's ledger before its PUT; `cleanUp` deletes the rest. */
export class SandboxPersons {
  private readonly open = new Set<string>();
  /** The legal id of each gedi this test stored, and the gedis operation 3 has answered 2xx for. */
  private readonly legalIds = new Map<string, string>();
  private readonly seen = new Set<string>();

  constructor(
    private readonly api: ApiClient,
    private readonly config: ContractConfig,
    private readonly data: DataFactory,
    /** Where the target's find answers hold their persons (support/layout/learned-readings.ts `foundIn`). */
    private readonly facts = new LearnedFacts(undefined),
  ) {}

  /** A wait for an effect of this test's: the availability deadline, the test named for the bench's wait log. */
  private waiting(transition?: Transition): WaitOptions {
    return {
      timeoutMs: this.config.availabilityTimeoutMs,
      transition,
      test: this.api.work?.name,
      clock: this.api.clock,
    };
  }

  private note(event: LedgerEntry['event'], personId: string): void {
    const { baseUrl, client, runId } = this.config;
    recordInLedger(ledgerFile(runId), { event, personId, target: new URL(baseUrl).origin, clientId: client.clientId });
    if (event === 'created') this.open.add(personId);
    else this.open.delete(personId);
  }

  /**
   * Operation 1, `PUT /consumer-intelligence/sandbox/v1/persons` (`CONTRACT_SANDBOX_PERSONS_PATH`), the person as the
   * JSON body exactly as given (support/data/factories.ts makes them), checked against the documented fields first.
   */
  async put(person: SandboxPerson, purpose = 'write person'): Promise<ApiResponse> {
    assertSandboxTarget(this.config, 'operation 1 (PUT sandbox person)');
    expectSchema('sandbox-person', person);
    const first = !this.open.has(person.id);
    if (first) this.note('created', person.id);
    // A first PUT refused, or never sent (its test had ended), created nobody to clean up (and a DELETE of an id
    // another client owns could only be refused again). A refused update leaves the person to clean up.
    const response = await this.api
      .request('PUT', this.config.paths.sandboxPersons, { json: person, operation: 'op1', purpose })
      .catch((error: unknown) => {
        if (first && error instanceof NotSentError) this.note('deleted', person.id);
        throw error;
      });
    if (first && response.status >= 400 && response.status < 500) this.note('deleted', person.id);
    return response;
  }

  /**
   * Operation 1 with the documented outcome: a 2xx whose body contains the person's gedi. Anything else fails as
   * person.create-returns-gedi's promise (`acknowledged`): a 2xx without a gedi is that rule's verdict alone, a
   * precondition not met in any other spec; a refusal in a When or Then breaks the rule under test (`rule`,
   * support/verbs/contract.ts).
   */
  async store(person: SandboxPerson): Promise<StoredPerson> {
    const first = !this.open.has(person.id);
    const response = await this.put(person);
    // A first PUT without a merge has no resource that could be missing: a 404 says the path is wrong.
    if (response.status === 404 && first && person.merged === undefined) {
      const detail = 'a PUT that creates a person addresses no resource that could be missing';
      throw operationNotFound('op1', response, detail);
    }
    return this.acknowledged(person, response);
  }

  /** A sent PUT's documented answer, a 2xx containing the gedi (person.create-returns-gedi, wherever it shows). */
  acknowledged(person: SandboxPerson, response: ApiResponse): StoredPerson {
    try {
      expectAccepted(response, 'PUT sandbox person');
      expectSchema('put-person-response', response.body);
    } catch (error) {
      // A refusal may be another rule's; a 2xx without a gedi breaks this one.
      throw new OtherRuleFailure('person.create-returns-gedi', error, response.ok);
    }
    const gedi = gediIn(response.body)!;
    this.legalIds.set(gedi, person.legalId);
    return { person, gedi };
  }

  /** A new, fully populated person from the test's data factory (`data.person`), stored by operation 1. */
  async create(overrides: Partial<SandboxPerson> = {}): Promise<StoredPerson> {
    return this.store(this.data.person(overrides));
  }

  /** `create`, then `awaitRetrievable`: a new person that operation 3 already returns (rule 2 waited out). */
  async createAvailable(overrides: Partial<SandboxPerson> = {}): Promise<StoredPerson> {
    const stored = await this.create(overrides);
    await this.awaitRetrievable(stored);
    return stored;
  }

  /** Operation 2 with only `id`: deletes the custom person. */
  async delete(personId: string): Promise<ApiResponse> {
    const response = await deleteSandboxPerson(this.api, this.config, personId);
    if (response.ok) this.note('deleted', personId);
    return response;
  }

  /** Operation 2 with `removed: true` plus the person fields: marks the person as removed. */
  async markRemoved(person: SandboxPerson): Promise<ApiResponse> {
    return deleteSandboxPerson(this.api, this.config, person);
  }

  /**
   * Operation 3, `GET /consumer-intelligence/v3/markets/{market}/persons/{gedi}` (`CONTRACT_PERSON_PATH`, `market`
   * from `CONTRACT_MARKET`): the person record by gedi within the market.
   */
  async retrieve(gedi: string, purpose = 'read person'): Promise<ApiResponse> {
    const path = expandPath(this.config.paths.person, { market: this.config.market, gedi });
    const response = await this.api.request('GET', path, { operation: 'op3', purpose });
    if (response.ok) this.seen.add(gedi);
    return response;
  }

  /**
   * Operation 4, `POST /consumer-intelligence/v3/markets/{market}/persons/_find` (`CONTRACT_FIND_PERSON_PATH`) with
   * `{ legalId }`: the persons matching a legal id.
   */
  find(legalId: string): Promise<ApiResponse> {
    const body = { legalId };
    expectSchema('find-person-request', body);
    const path = expandPath(this.config.paths.findPerson, { market: this.config.market });
    return this.api.request('POST', path, { json: body, operation: 'op4', purpose: 'find person' });
  }

  /**
   * Reads by operation 3 until it answers 2xx for the gedi and `shows(body).holds` (a reading that does not hold is
   * "not yet"), and returns that reading (support/readings/eventually.ts's schedule); at the availability deadline it
   * fails with what the last answer showed (`NotConsistentError`). A transition's time to show is measured.
   */
  async awaitRecord(gedi: string, what: string, shows: RecordReading, transition?: Transition): Promise<Shown> {
    const { value, response } = await eventually<Reading>(
      `person ${gedi} ${what}`,
      () => this.retrieve(gedi, transition ? `read until the ${transition} shows` : 'read until it shows'),
      (response) => response.ok && shows(response.body),
      this.waiting(transition),
    ).catch(async (error: unknown) => {
      // A record that never satisfied a learned location may hold the fact elsewhere: the layout moved.
      const last = error instanceof NotConsistentError && error.lastResponse.ok ? error.lastResponse : undefined;
      throw (last && (await shows.settle?.(last.body, false))) || (await this.neverRetrievable(gedi, error));
    });
    await shows.settle?.(response.body, true);
    // The gate counts it apart from the rules proven: this target shows back what it was sent.
    if (value.asSent) await labels({ evidence: 'as-sent', links: [] });
    return { reading: value, record: response.body };
  }

  /** A timed-out wait for a stored person op 3 never found: unavailable, or op 3 served elsewhere if op 4 finds it. */
  private async neverRetrievable(gedi: string, error: unknown): Promise<unknown> {
    const legalId = this.legalIds.get(gedi);
    const notFound = error instanceof NotConsistentError && error.lastResponse.status === 404;
    if (!notFound || this.seen.has(gedi) || legalId === undefined) return error;
    const found = await this.find(legalId).catch(() => undefined);
    if (found?.ok && personWithLegalId(this.facts.foundIn(found.body), legalId).holds) {
      const detail = `operation 4 finds the person by its legal id ${legalId}: it exists, with gedi ${gedi}`;
      return operationNotFound('op3', error.lastResponse, detail);
    }
    return new OtherRuleFailure('person.eventually-available', error, true);
  }

  /** Waits (rule 2) until operation 3 returns the stored person's own record and `shows` holds on it. */
  awaitRetrievable(
    stored: StoredPerson,
    what = 'to be retrievable by gedi',
    shows?: RecordReading,
    transition: Transition = 'create',
  ): Promise<Shown> {
    // The record must be the person's own before what it shows of the person counts.
    const ownAndShows = Object.assign(
      (body: unknown) => {
        const own = this.facts.ownRecord(body, stored);
        return own.holds && shows ? shows(body) : own;
      },
      { settle: shows?.settle },
    );
    return this.awaitRecord(stored.gedi, `(id ${stored.person.id}) ${what}`, ownAndShows, transition);
  }

  /**
   * What learning compares `stored`'s answers with (support/layout/learning.ts): its own generated data, and the
   * answer of a control person written the same way without the When, once two reads in a row agree. The control is
   * created only when a run learns or a strict reading failed, the only times it is read: a reviewed layout's
   * passing night sends nothing for it. `relative`: the control's parent is the relative its locations select.
   */
  withControl(stored: StoredPerson, { relative = false } = {}): Pick<Subject, 'own' | 'control'> {
    let settled: Promise<Observed> | undefined;
    return {
      own: { given: stored.person, identity: [stored.gedi, stored.person.id] },
      control: () => (settled ??= this.settledControl(relative)),
    };
  }

  private async settledControl(relative: boolean): Promise<Observed> {
    const control = await step('create a control person written the same way, without the When', () =>
      this.createAvailable(),
    );
    const controlRelative = control.person.relationshipList?.[0]?.legalId?.socialSecurityNumber;
    let previous: string | undefined;
    const { response } = await eventually(
      `control person ${control.gedi} to answer the same twice in a row`,
      () => this.retrieve(control.gedi, 'read the control'),
      (answer) => {
        const same = answer.ok && JSON.stringify(answer.body) === previous;
        previous = JSON.stringify(answer.body);
        return same;
      },
      this.waiting(),
    );
    return {
      record: response.body,
      bindings: relative ? { relative: controlRelative } : {},
      given: control.person,
      identity: [control.gedi, control.person.id],
    };
  }

  /** Reads by gedi for `windowMs` (what positive controls took): the first answer `changed` holds for, or the last. */
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
      changed,
      { ...this.waiting(), timeoutMs: windowMs },
    );
    return last!; // a watch reads once, at the end of its window
  }

  /**
   * Waits until operation 4 finds the person, or one of `others` (a find that answers one person whatever it is asked
   * ends in that answer, not a timeout), each by a record of its own, never by the echoed legal id asked for.
   */
  async awaitFindable(stored: StoredPerson, others: StoredPerson[] = []): Promise<Shown> {
    const namesSomeone = (body: unknown) => {
      const persons = this.facts.foundIn(body);
      const own = personWithLegalId(persons, stored.person.legalId);
      return own.holds ? own : (others.map((other) => listsPerson(persons, other)).find((read) => read.holds) ?? own);
    };
    const { value, response } = await eventually<Reading>(
      `person ${stored.gedi} to be found by legal id ${stored.person.legalId}`,
      () => this.find(stored.person.legalId),
      (response) => response.ok && namesSomeone(response.body),
      this.waiting(),
    ).catch((error: unknown) => {
      throw error instanceof LayoutChangedError ? error : new OtherRuleFailure('person.eventually-available', error);
    });
    // A learning run compares the answer with a find for a legal id nobody has (support/layout/learning.ts).
    await this.facts.observeFound(stored.person.legalId, response.body, async () => {
      const legalId = this.data.unknownLegalId();
      return { legalId, answer: (await this.find(legalId)).body };
    });
    return { reading: value, record: response.body };
  }

  /** Waits until the person is neither retrievable by gedi nor found by legal id. */
  async awaitGone(stored: StoredPerson): Promise<void> {
    await eventually(
      `person ${stored.gedi} to be no longer retrievable (404 or 410)`,
      () => this.retrieve(stored.gedi, 'read until the delete shows'),
      (response) => GONE_STATUSES.has(response.status),
      this.waiting('delete'),
    );
    const { legalId } = stored.person;
    await eventually(
      `legal id ${legalId} to be no longer found`,
      () => this.find(legalId),
      // Read as a find that found the person is read: a record of its own, never the query echoed back.
      (response) =>
        GONE_STATUSES.has(response.status) ||
        (response.ok && !personWithLegalId(this.facts.foundIn(response.body), legalId).holds),
      this.waiting(),
    );
  }

  /** Deletes every person this test created and did not delete itself, as the run's work: the test has ended. */
  async cleanUp(): Promise<void> {
    if (this.open.size === 0) return;
    const ledger = ledgerFile(this.config.runId);
    const api = this.api.forWork(undefined);
    await step(`Clean up: delete the ${this.open.size} person(s) this test created`, async () => {
      for (const personId of [...this.open]) {
        let problem: string | undefined;
        try {
          const { ok, status } = await deleteSandboxPerson(api, this.config, personId);
          if (ok || GONE_STATUSES.has(status)) this.note('deleted', personId);
          else if (!ok) problem = `DELETE of person ${personId} answered ${status}`;
        } catch (error) {
          problem = `could not delete person ${personId} (${String(error)})`;
        }
        if (problem) console.warn(redactText(`cleanup: ${problem}; it stays in ${ledger} for \`npm run sweep\`.`));
      }
    });
  }
}
