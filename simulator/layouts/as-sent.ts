// The setting that stores person bodies as sent (SIMULATOR_STORE_AS_SENT): operation 3 answers the
// last body the client wrote (a PUT, or a DELETE with removed), its fields and marks exactly as the
// client sent them, flat or under one envelope key. The marks are honest: without a mutant the
// simulator applies every transition a body asks for.
import type { SentForm } from '../options.js';
import type { PersonView } from '../person-queries.js';
import type { ResponseLayout } from './layout.js';

function sentRecord({ gedi, state, lastWrite }: PersonView, form: SentForm) {
  const record = { ...state.sent, gedi, ...(lastWrite === undefined ? {} : { lastWrite }) };
  if (form === 'flat') return record;
  if (form === 'attributes') return { gedi, attributes: state.sent, ...(lastWrite === undefined ? {} : { lastWrite }) };
  return { [form]: record };
}

/** The layout with operation 3 answering the body as sent; a version with no body (a background record) as before. */
export function storingAsSent(layout: ResponseLayout, form: SentForm): ResponseLayout {
  return {
    ...layout,
    person: (view) =>
      view.state.sent === undefined ? layout.person(view) : { status: 200, body: sentRecord(view, form) },
  };
}
