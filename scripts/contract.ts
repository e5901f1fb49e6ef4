/**
 * npm run contract [-- vitest args]: the contract specs against CONTRACT_BASE_URL, or against the
 * embedded simulator when none is set. Prints the target and the seed first, writes Allure results
 * and reports/junit.xml, generates the HTML report, exits non-zero when a promise is broken.
 * npm run learn (`--learn`), or a run with no layout file to read, learns: it proposes the
 * target's layout file (support/layout/learning.ts) and says first and last that its verdicts are
 * provisional.
 */
import { rmSync } from 'node:fs';
import { describeTarget, newRunId, RUN_ID_VARIABLE, settingsFor } from '../support/run/config.js';
import { runVitest } from '../support/run/child-runs.js';
import { pruneLedgers } from '../support/data/ledger.js';
import { ALLURE_RESULTS_DIR, LEARNING_JOURNAL_DIR, OBSERVED_DIR } from '../support/run/paths.js';
import { clearJournal, provisional, writeProposal } from '../support/layout/learning-journal.js';

// The report's code (the observed contract and its chart) and the Allure report writer, which
// loads Allure and its configuration in a process of its own, take about a second to load: they
// load while the specs run instead of after them.
const reporting = import('../support/evidence/report-generation.js');

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const learn = args.includes('--learn');
  const env = { ...process.env, ...(learn ? { CONTRACT_LEARN: 'always' } : {}) };
  const settings = settingsFor(learn ? 'learn' : 'contract', env);
  if (!settings) return 2;
  const learning = settings.layout.kind === 'learn' ? settings.layout.into : undefined;
  if (learning) console.warn(provisional(learning));
  const seed = settings.seed ?? Math.floor(Math.random() * 2 ** 31);
  // Every person and consumer id carries the run id's tag (support/data/factories.ts newId): named here, in the ledger
  // and in the report.
  const runId = newRunId();
  console.log(`contract: target ${describeTarget(settings)}`);
  console.log(
    `contract: seed ${seed} (CONTRACT_SEED=${seed} reproduces this run's data), run ${runId} (its persons' and ` +
      `consumers' ids carry ${runId.slice(1)})`,
  );

  // allure-vitest and the observation recorder only ever append: a new run starts from empty folders.
  for (const dir of [ALLURE_RESULTS_DIR, OBSERVED_DIR]) rmSync(dir, { recursive: true, force: true });
  clearJournal(LEARNING_JOURNAL_DIR);
  const writer = reporting.then(({ startReportWriter }) => startReportWriter());
  const { code } = await runVitest(
    ['--project', 'contract', ...args.filter((arg) => arg !== '--learn')],
    { ...env, CONTRACT_SEED: String(seed), [RUN_ID_VARIABLE]: runId, CONTRACT_REPORTS: '1' },
    { echo: true },
  );
  pruneLedgers(); // ledgers whose persons were all deleted; what is left is for `npm run sweep`
  const { generateReport, printReport } = await reporting;
  printReport(
    await generateReport({
      environment: {
        seed: String(seed),
        run: `${runId} (person and consumer ids p/c${runId.slice(1)}…; ledger ${runId}.jsonl)`,
      },
      writer: await writer,
    }),
  );
  if (learning) {
    const { facts, unlearned = {} } = writeProposal(LEARNING_JOURNAL_DIR, learning, runId);
    for (const [fact, { location, predicate, by }] of Object.entries(facts))
      console.log(`learn: ${fact} at ${location} ${predicate} (by ${by})`);
    for (const [fact, why] of Object.entries(unlearned)) console.log(`learn: ${fact}: nothing proposed, ${why}`);
    console.warn(provisional(learning));
  }
  return code;
}

process.exitCode = await main();
