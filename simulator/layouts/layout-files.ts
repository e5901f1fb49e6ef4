// The simulator's own layout files (schemas/layouts/simulator/), written by hand from the layouts in this folder so
// that the check that learning proposes them is not learning compared with itself.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ResolvedSimulatorOptions } from '../options.js';

const FOLDER = fileURLToPath(new URL('../../schemas/layouts/simulator/', import.meta.url));

/**
 * The layout file for these options: the layout's own, named further by each honest option that moves a fact (a body
 * stored as sent, a status form, relations beside the sent ones, a merge shown by the target's record, find answers
 * wrapped beside an echo, page-number paging, whose pages hold their records under `content`, screening answers with
 * one entry per list screened, list entries keyed `nin`); the options that move none (a copy of the request,
 * placeholders, the other paging conventions, whose counts a page's keys leave out) keep the layout's file.
 */
export function simulatorLayoutFile(options: ResolvedSimulatorOptions): string {
  const {
    layout,
    storeAsSent,
    statusForm,
    relationsAsSent,
    mergesShownByTarget,
    findEcho,
    paging,
    screeningPerList,
    entryKeys,
  } = options;
  if (storeAsSent) return `${FOLDER}as-sent-${storeAsSent}.json`;
  const name = [
    layout,
    statusForm === 'layout' ? undefined : `status-${statusForm}`,
    // The vendor's relations are computed already: the sent list beside them moves nothing.
    relationsAsSent && layout !== 'vendor' ? 'relations-as-sent' : undefined,
    mergesShownByTarget ? 'merges-by-target' : undefined,
    // The standard layout's persons found are under `results` already.
    findEcho === 'searchParameters' && layout !== 'standard' ? 'find-echo' : undefined,
    paging === 'page-number' ? 'paging-page-number' : undefined,
    screeningPerList ? 'screening-per-list' : undefined,
    entryKeys === 'personGedi' ? 'entry-keys' : undefined,
  ]
    .filter(Boolean)
    .join('-');
  const file = `${FOLDER}${name}.json`;
  if (!existsSync(file))
    throw new Error(`the simulator has no layout file for these options (${name}.json): set CONTRACT_LAYOUT to one`);
  return file;
}
