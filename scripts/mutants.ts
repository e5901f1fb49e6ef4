// npm run mutants [-- --full] [-- --only name,name] [-- --parallel N] [-- --layout L,L]: prints the mutant
// kill matrix (support/run/mutant-matrix.ts), beside a control run per layout without a mutant; exits
// non-zero on a survivor, or on a mutant not judged (its control run failed, or what failed judges
// nothing). N: spec files run at once (default 1, or 3 runs of their own with --full). L: the
// simulator layouts to run each mutant in (default standard).
import { parseArgs } from 'node:util';
import { isMutantName, MUTANT_NAMES } from '../simulator/mutants.js';
import { LAYOUT_NAMES, type Layout } from '../simulator/options.js';
import { runMutantMatrix } from '../support/run/mutant-matrix.js';
import { formatMatrix } from '../support/run/mutant-verdict.js';

const { values } = parseArgs({
  options: {
    full: { type: 'boolean', default: false },
    only: { type: 'string' },
    parallel: { type: 'string' },
    layout: { type: 'string' },
  },
});
const only = values.only?.split(',');
const unknown = only?.filter((name) => !isMutantName(name)) ?? [];
if (unknown.length > 0) {
  console.error(`mutants: unknown mutant(s) ${unknown.join(', ')}; known: ${MUTANT_NAMES.join(', ')}`);
  process.exit(2);
}
const parallel = values.parallel === undefined ? undefined : Number(values.parallel);
if (parallel !== undefined && !(Number.isInteger(parallel) && parallel >= 1)) {
  console.error(
    `mutants: --parallel ${values.parallel} is not a whole number, 1 or more (default: 1 spec file at once)`,
  );
  process.exit(2);
}
const layouts = values.layout?.split(',') as Layout[] | undefined;
const unknownLayouts = layouts?.filter((layout) => !LAYOUT_NAMES.includes(layout)) ?? [];
if (unknownLayouts.length > 0) {
  console.error(
    `mutants: --layout ${unknownLayouts.join(', ')} is not a simulator layout; use one or more of ` +
      `${LAYOUT_NAMES.join(', ')}`,
  );
  process.exit(2);
}
const started = Date.now();
console.log(
  `mutants: ${only?.length ?? MUTANT_NAMES.length} mutant(s), ` +
    `${values.full ? 'every spec file per mutant' : "the spec files of each mutant's rule"}, in the ` +
    `${(layouts ?? ['standard']).join(' and ')} layout(s)`,
);
const verdicts = await runMutantMatrix({ mutants: only?.filter(isMutantName), full: values.full, parallel, layouts });
console.log(`\nmutant → failed specs → rules named in the failures\n${formatMatrix(verdicts)}`);
const count = (judgement: string) => verdicts.filter((verdict) => verdict.judgement === judgement).length;
const seconds = ((Date.now() - started) / 1000).toFixed(1);
const judged = `${count('killed')} killed, ${count('survived')} survived, ${count('not judged')} not judged`;
console.log(`\nmutants: ${judged} in ${seconds} s`);
process.exitCode = count('killed') === verdicts.length ? 0 : 1;
