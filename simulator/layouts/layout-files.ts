// The simulator's own layout files (schemas/layouts/simulator/), written by hand from the layouts in this folder so
// that the check that learning proposes them is not learning compared with itself.
import { fileURLToPath } from 'node:url';
import type { ResolvedSimulatorOptions } from '../options.js';

const FOLDER = fileURLToPath(new URL('../../schemas/layouts/simulator/', import.meta.url));

/**
 * The layout file for these options: a body stored as sent has its form's file; a merge shown by the target's record
 * moves the merge's fact (vendor records name no gedi, so only there is it written); every other option moves none.
 */
export function simulatorLayoutFile({ layout, storeAsSent, mergesShownByTarget }: ResolvedSimulatorOptions): string {
  if (storeAsSent) return `${FOLDER}as-sent-${storeAsSent}.json`;
  if (mergesShownByTarget && layout !== 'vendor')
    throw new Error(`no layout file of the simulator's for mergesShownByTarget in the ${layout} layout`);
  return `${FOLDER}${layout}${mergesShownByTarget ? '-merges-by-target' : ''}.json`;
}
