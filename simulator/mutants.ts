import type { Layout } from './options.js';

/**
 * Named contract regressions the simulator can inject, one at a time. Each breaks exactly one
 * rule of docs/catalogue.json, so the mutant matrix proves the suite notices that rule breaking.
 */
type Step = 'When' | 'Then';

export interface Mutant {
  /** The id of the rule in docs/catalogue.json that the mutant breaks. */
  rule: string;
  /**
   * The step of its rule's spec that must fail for a kill: `When` where the rule breaks in the write's own answer
   * (a merge refused, a create without a gedi) or in the wait the When makes, otherwise `Then`. Per layout where the
   * layout's answer moves it: a find answered as one object shows an added person in place of the match.
   */
  exercisedIn: Step | Record<Layout, Step>;
  breaks: string;
  /**
   * The failure category its spec must report instead of naming the rule, for a mutant that keeps
   * the suite from judging the rule at all (a refusal for want of permission is no verdict).
   */
  reportedAs?: 'Not permitted' | 'List could not be read completely';
}

const CATALOGUE = {
  'update-creates-new-gedi': {
    rule: 'person.update-by-id',
    exercisedIn: 'Then',
    breaks: 'PUT with an existing id creates a second person with a new gedi instead of updating the first',
  },
  'update-ignored': {
    rule: 'person.update-by-id',
    exercisedIn: 'Then',
    breaks: 'PUT with an existing id answers with the gedi but stores nothing',
  },
  'delete-does-nothing': {
    rule: 'transition.delete',
    exercisedIn: 'Then',
    breaks: 'DELETE with only the id answers success but the person stays',
  },
  'removed-deletes-instead': {
    rule: 'transition.remove',
    exercisedIn: 'Then',
    breaks: 'DELETE with removed true deletes the person instead of marking it removed',
  },
  'removed-flag-dropped': {
    rule: 'transition.remove',
    exercisedIn: 'Then',
    breaks: 'DELETE with removed true stores the fields but the person is never shown removed',
  },
  'deregistered-dropped': {
    rule: 'transition.deregister',
    exercisedIn: 'Then',
    breaks: 'PUT with deregistered true stores the person without the deregistration',
  },
  'merge-unknown-accepted': {
    rule: 'transition.merge-unknown-rejected',
    exercisedIn: 'Then',
    breaks: 'PUT with merged.gedi naming no person is accepted',
  },
  'merge-ignored': {
    rule: 'transition.merge',
    exercisedIn: 'Then',
    breaks: 'PUT with merged.gedi of an existing person stores it without the merge',
  },
  'merge-rejected': {
    rule: 'transition.merge',
    exercisedIn: 'When',
    breaks: 'PUT with merged.gedi of an existing person is rejected with 422, as if the gedi did not exist',
  },
  'relationship-death-ignored': {
    rule: 'transition.relationship-death',
    exercisedIn: 'Then',
    breaks: 'a relationship with dateOfDeath is stored without being marked deceased',
  },
  'relationship-deregistration-ignored': {
    rule: 'transition.relationship-deregistered',
    exercisedIn: 'Then',
    breaks: 'a relationship with deregistered true is stored without the deregistration',
  },
  'consumer-not-identified': {
    rule: 'transition.consumer-identified',
    exercisedIn: 'Then',
    breaks: 'a consumer whose legal id matches a person never becomes IDENTIFIED',
  },
  'no-subscription': {
    rule: 'transition.subscription-created',
    exercisedIn: 'Then',
    breaks: 'identifying a consumer creates no subscription',
  },
  'stale-subscription': {
    rule: 'subscription.latest-version',
    exercisedIn: 'Then',
    breaks: 'subscriptions show the version of the person at subscription time, never a later one',
  },
  'delete-crosses-clients': {
    rule: 'person.write-isolation',
    exercisedIn: 'Then',
    breaks:
      "DELETE with an id the client does not have deletes (or marks removed) another client's person with that id",
  },
  'update-crosses-clients': {
    rule: 'person.write-isolation',
    exercisedIn: 'Then',
    breaks: "PUT with an id another client uses overwrites that client's person",
  },
  'consumers-leak': {
    rule: 'consumer.isolation',
    exercisedIn: 'Then',
    breaks: "the consumer and subscription lists include other clients' records",
  },
  'bearer-not-enforced': {
    rule: 'auth.bearer-required',
    exercisedIn: 'Then',
    breaks: 'requests without a valid bearer token are served',
  },
  'wrong-secret-accepted': {
    rule: 'auth.wrong-secret-rejected',
    exercisedIn: 'Then',
    breaks: 'a known client id with a wrong secret is issued a token',
  },
  'find-ignores-legal-id': {
    rule: 'person.find-by-legal-id',
    exercisedIn: 'Then',
    breaks: '_find returns every person of the market whatever the legal id',
  },
  'find-echoes-query': {
    rule: 'person.find-by-legal-id',
    exercisedIn: 'When',
    breaks: '_find answers 200 with the query echoed (the legal id asked for) and no person',
  },
  'find-adds-other-persons': {
    rule: 'person.find-by-legal-id',
    exercisedIn: { standard: 'Then', alternate: 'Then', vendor: 'When' },
    breaks: '_find answers two persons with other legal ids besides the matching person',
  },
  'unsubscribed-persons-listed': {
    rule: 'subscription.subscribed-only',
    exercisedIn: 'Then',
    breaks: 'the subscriptions list also shows every person of the client that no consumer identified',
  },
  'persons-listed-as-consumers': {
    rule: 'consumer.list-uploaded-only',
    exercisedIn: 'Then',
    breaks:
      'the consumer list also shows every person of the client that no consumer identified, as an identified ' +
      "consumer under the person's id",
  },
  'never-available': {
    rule: 'person.eventually-available',
    exercisedIn: 'Then',
    breaks: 'custom persons are accepted but never become readable',
  },
  'person-case-without-hit': {
    rule: 'screening.person-test-case',
    exercisedIn: 'Then',
    breaks: 'person_test_case_01 answers without the politician (PEP) hit',
  },
  'person-case-no-match-names-pep': {
    rule: 'screening.person-test-case',
    exercisedIn: 'Then',
    breaks:
      'person_test_case_01 answers no match, naming the lists it checked (PEP among them) and "No PEP match found"',
  },
  'company-cases-identical': {
    rule: 'screening.company-test-cases',
    exercisedIn: 'Then',
    breaks: 'company_test_case_02 answers the same result as company_test_case_01',
  },
  'root-screening-missing': {
    rule: 'screening.root-path',
    exercisedIn: 'Then',
    breaks: 'the root screening paths (without v2) answer 404',
  },
  'screening-not-deterministic': {
    rule: 'screening.deterministic',
    exercisedIn: 'Then',
    breaks: 'the same reference gives a different result on every call',
  },
  'screening-candidates-vary': {
    rule: 'screening.deterministic',
    exercisedIn: 'Then',
    breaks: 'the list of candidate matches changes length between calls of the same reference',
  },
  'gedi-missing': {
    rule: 'person.create-returns-gedi',
    exercisedIn: 'When',
    breaks: 'the PUT response carries no gedi',
  },
  'token-without-access-token': {
    rule: 'auth.token-issued',
    exercisedIn: 'Then',
    breaks: 'the token response has no access_token property',
  },
  'unknown-consumer-identified': {
    rule: 'consumer.unknown-not-identified',
    exercisedIn: 'Then',
    breaks: 'a consumer whose legal id matches no person becomes IDENTIFIED too',
  },
  'unmatched-consumers-not-listed': {
    rule: 'consumer.list-contains-uploaded',
    exercisedIn: 'Then',
    breaks: 'the consumer list omits consumers that were not identified',
  },
  'malformed-json-500': {
    rule: 'http.malformed-json-rejected',
    exercisedIn: 'Then',
    breaks: "malformed JSON is answered 500, a server error for the client's mistake",
  },
  'malformed-json-accepted': {
    rule: 'http.malformed-json-rejected',
    exercisedIn: 'Then',
    breaks: 'malformed JSON is answered 200, as if accepted',
  },
  'wrong-type-accepted': {
    rule: 'http.wrong-json-type-rejected',
    exercisedIn: 'Then',
    breaks: 'a JSON body of the wrong type (an array for an object, or the reverse) is answered 200',
  },
  'conformance-403': {
    rule: 'http.malformed-json-rejected',
    exercisedIn: 'Then',
    breaks: 'operation 8 answers a bad body with 403, as a target that checks permission before it reads the body',
    reportedAs: 'Not permitted',
  },
  'lists-answer-500': {
    rule: 'consumer.isolation',
    exercisedIn: 'When',
    breaks:
      'every page of the consumer and subscription lists after the first that lies beyond the last record the ' +
      'caller uploaded answers 500: a wait for its own upload passes, and only a read of the whole list meets it',
    reportedAs: 'List could not be read completely',
  },
  'media-type-ignored': {
    rule: 'http.unsupported-media-type-rejected',
    exercisedIn: 'Then',
    breaks: 'a body that is not JSON (another Content-Type) is answered 200',
  },
  'first-sample-rejected': {
    rule: 'person.first-sample-accepted',
    exercisedIn: 'Then',
    breaks: 'a person with firstName and no firstNames is rejected with 400',
  },
  'removed-only-in-copy': {
    rule: 'transition.remove',
    breaks: 'DELETE with removed true is not applied: the record shows removed false, its lastWrite copy removed true',
    exercisedIn: 'Then',
  },
  'deregistered-only-in-copy': {
    rule: 'transition.deregister',
    breaks: 'PUT with deregistered true is not applied: the record shows no deregistration, its lastWrite copy does',
    exercisedIn: 'Then',
  },
  'merge-only-in-copy': {
    rule: 'transition.merge',
    breaks: 'PUT with merged.gedi is not applied: the record shows no merge, its lastWrite copy holds merged.gedi',
    exercisedIn: 'Then',
  },
  'relationship-death-only-in-copy': {
    rule: 'transition.relationship-death',
    breaks: 'a relationship with dateOfDeath is stored alive (deceased false); only the lastWrite copy holds the death',
    exercisedIn: 'Then',
  },
  'relationship-deregistration-only-in-copy': {
    rule: 'transition.relationship-deregistered',
    breaks: 'a relationship with deregistered true is stored not deregistered; only the lastWrite copy holds the mark',
    exercisedIn: 'Then',
  },
  'person-case-pep-entries-deny': {
    rule: 'screening.person-test-case',
    breaks: 'person_test_case_01 answers its PEP match entry saying no (matched false; the vendor: status NO_MATCH)',
    exercisedIn: 'Then',
  },
  'person-case-pep-count-zero': {
    rule: 'screening.person-test-case',
    breaks: 'person_test_case_01 answers its PEP match entry beside an overall match count of zero',
    exercisedIn: 'Then',
  },
  'person-case-sanctions-lists-pep': {
    rule: 'screening.person-test-case',
    breaks: 'person_test_case_01 answers one sanctions match listing datasets ["PEP", "SANCTIONS"], and no PEP match',
    exercisedIn: 'Then',
  },
  'placeholders-forever': {
    rule: 'person.eventually-available',
    breaks: 'operation 3 answers a custom person with a placeholder (its gedi and a pending status), never its record',
    exercisedIn: 'Then',
  },
  'unsubscribed-behind-unknown-marker': {
    rule: 'subscription.subscribed-only',
    breaks:
      'the subscriptions list also shows unsubscribed persons, only past a first page full to its stated limit ' +
      'that names its continuation by a marker no common convention uses (@odata.nextLink; the vendor: nextPage)',
    reportedAs: 'List could not be read completely',
    exercisedIn: 'When',
  },
  'unknown-subscribed-list-refused': {
    rule: 'consumer.unknown-not-identified',
    breaks:
      'a consumer whose legal id matches no person is subscribed once a later subscription has been shown, and the ' +
      'subscriptions list answers 400 from then on',
    reportedAs: 'List could not be read completely',
    exercisedIn: 'Then',
  },
  'unsubscribed-listed-as-person-gedi': {
    rule: 'subscription.subscribed-only',
    breaks: 'unsubscribed-persons-listed, with list entries keyed personGedi and nin instead of gedi and legalId',
    exercisedIn: 'Then',
  },
  'find-repeats-query-beside-results': {
    rule: 'person.find-by-legal-id',
    breaks:
      '_find answers the legal id asked for beside empty results ({ legalId, results: [] }; { data: [], meta: ' +
      '{ legalId } }; the vendor: { results: [], meta: { legalId } })',
    exercisedIn: 'When',
  },
} as const satisfies Record<string, Mutant>;

export type MutantName = keyof typeof CATALOGUE;

export const MUTANTS: Record<MutantName, Mutant> = CATALOGUE;

export const MUTANT_NAMES = Object.keys(MUTANTS) as MutantName[];

export function isMutantName(value: string): value is MutantName {
  return Object.hasOwn(MUTANTS, value);
}
