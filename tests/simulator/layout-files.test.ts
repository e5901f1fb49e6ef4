// The layouts' handling of a person's mark agrees with the simulator's layout files: for each probe that names the fact
// its PUT leaves (`shows` in probes.ts), every layout and status form, and every form of a body stored as sent, shows
// it where its file of schemas/layouts/simulator/ says, and a person written without it does not. A transition that
// keeps its mark as state of its own must be rendered by each layout: the vendor's rebuilds `status` from the stored
// state and fields, so a mark taken out of the fields reads false there, which only this check and the vendor's run
// would say.
import { expect, test } from 'vitest';
import { readLayoutFile } from '../../support/layout/layout-file.js';
import { resolve, satisfies } from '../../support/layout/locations.js';
import { simulatorLayoutFile } from '../../simulator/layouts/layout-files.js';
import { SENT_FORMS, STATUS_FORMS, type SimulatorOptions } from '../../simulator/options.js';
import { Harness, PERSONS, personPath } from './harness.js';
import { PROBES } from './probes.js';

const LAYOUTS = ['standard', 'alternate', 'vendor'] as const;
const SHOWN = Object.values(PROBES).flatMap(({ shows }) => (shows ? [shows] : []));

/** The simulator's options that move a person's marks, and the file of the code that renders them. */
const VARIANTS: { options: SimulatorOptions; renderedBy: string }[] = [
  ...LAYOUTS.flatMap((layout) =>
    STATUS_FORMS.map((statusForm) => ({
      options: { layout, statusForm },
      renderedBy:
        statusForm === 'layout'
          ? `simulator/layouts/${layout}.ts`
          : `simulator/layouts/${layout}.ts and honest-shapes.ts (status form ${statusForm})`,
    })),
  ),
  ...SENT_FORMS.map((storeAsSent) => ({
    options: { storeAsSent },
    renderedBy: `simulator/layouts/as-sent.ts (a body stored ${storeAsSent})`,
  })),
];

test.concurrent.for(VARIANTS)(
  '$renderedBy shows each mark where its layout file says',
  async ({ options, renderedBy }) => {
    const h = await Harness.start(options);
    try {
      const path = simulatorLayoutFile(h.simulator.options);
      const file = `schemas/layouts/simulator/${path.split('/').pop()}`;
      const { facts } = readLayoutFile(path);
      const token = await h.token();
      const problems: string[] = [];
      for (const { fact, fields } of SHOWN) {
        const learned = facts[fact];
        if (!learned) {
          problems.push(`${fact} is not in ${file}: add its location there, as ${renderedBy} renders it`);
          continue;
        }
        const [subject, control] = [h.person(fields), h.person()];
        const written = await Promise.all([subject, control].map((json) => h.request('PUT', PERSONS, { token, json })));
        h.settle();
        const [marked, unmarked] = await Promise.all(
          written.map(({ body }) => h.request('GET', personPath(body?.gedi ?? body?.data?.gedi), { token })),
        );
        const bindings = { sent: subject };
        const at = (record: unknown) => resolve(record, learned.location, bindings);
        const shown = (record: unknown) => {
          const found = at(record);
          return found.found
            ? `${found.path} = ${JSON.stringify(found.value)}`
            : `${learned.location}: not in the answer`;
        };
        const holds = (record: unknown) => at(record).found && satisfies(at(record).value, learned.predicate, bindings);
        const where = `${file} says ${learned.location} ${learned.predicate}`;
        if (!holds(marked.body))
          problems.push(
            `${fact}: after a PUT with ${JSON.stringify(fields)} the answer shows ${shown(marked.body)}, ` +
              `where ${where}: render the mark in ${renderedBy}, or correct the file`,
          );
        if (holds(unmarked.body))
          problems.push(`${fact}: a person written without ${JSON.stringify(fields)} shows it too, where ${where}`);
      }
      expect(problems, `the layouts' handling of each mark (${renderedBy}) against ${file}`).toEqual([]);
    } finally {
      await h.close();
    }
  },
);
