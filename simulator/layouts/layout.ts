import type { ConsumerRecord } from '../consumers.js';
import type { ConsumerView, SubscriptionView } from '../consumer-ops.js';
import type { HttpError } from '../errors.js';
import type { ListOrder } from '../pagination.js';
import type { PersonView } from '../person-queries.js';
import type { ScreeningResult } from '../screening.js';

/** A rendered answer: status, optional JSON body, extra headers. */
export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface PersonAck {
  id: string;
  /** Absent only under the gedi-missing mutant. */
  gedi?: string;
  created: boolean;
}

/**
 * The query answered back beside no person (mutants only): `request`, as an object that names the request;
 * `field`, the legal id as a field of the answer beside its empty results.
 */
export interface Echo {
  legalId: string;
  as: 'request' | 'field';
}

/** The two lists: operation 6 (consumers) and operation 7 (subscribed persons). */
export type ListName = 'consumers' | 'subscriptions';

export type PagingStyle = 'next-url' | 'link-header' | 'page-number' | 'offset' | 'page-token';

/**
 * Everything the documentation leaves "not shown" about responses: statuses, envelopes, list
 * order and paging, flag spelling, the error body. Two implementations keep every documented
 * name and value but differ in all of these, so the suite can be shown not to depend on one.
 */
export interface ResponseLayout {
  order: ListOrder;
  /** The paging convention of the lists unless SIMULATOR_PAGING chooses another. */
  paging: PagingStyle;
  /** The page size of the lists unless SIMULATOR_PAGE_SIZE or the client's query asks for another. */
  pageSize: number;
  /** The key of a page's records per list, for the conventions that do not name it (all but page-number). */
  listKeys: Record<ListName, string>;
  /** The query parameter that carries a page cursor. */
  cursorParam: string;
  /** Status for a body of a content type the operation does not take. */
  unsupportedMediaTypeStatus: number;
  personWritten(ack: PersonAck): Reply;
  personDeleted(ack: PersonAck): Reply;
  person(view: PersonView): Reply;
  /** Operation 3 before the person is available, where it answers a placeholder: the gedi and a pending status. */
  pending(gedi: string): Reply;
  /**
   * Operation 4; `echo`: the query answered back beside no person (the find mutants that echo it only); `query`: what
   * an honest find asked for (the findEcho setting answers it back).
   */
  found(views: PersonView[], echo?: Echo, query?: { legalId: string }): Reply;
  consumersAccepted(records: ConsumerRecord[]): Reply;
  consumer(view: ConsumerView): unknown;
  subscription(view: SubscriptionView): unknown;
  screening(result: ScreeningResult): Reply;
  error(error: HttpError): Reply;
}
