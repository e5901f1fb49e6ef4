// npm run drift: writes reports/drift.md; npm run drift:accept: makes this run's response shapes the baselines.
import { acceptObserved, defaultDriftPaths, writeDriftReport } from '../support/evidence/drift-report.js';

if (process.argv.includes('--accept')) {
  const accepted = acceptObserved();
  console.log(
    accepted.length
      ? `drift: baselines updated for ${accepted.join(', ')} in ${defaultDriftPaths.baselineDir}/ — review and commit them.`
      : `drift: nothing recorded in ${defaultDriftPaths.observedDir}/ — run \`npm run contract\` first.`,
  );
} else {
  const drift = writeDriftReport();
  const differing = drift.filter((entry) => entry.status === 'drifted' || entry.status === 'no baseline').length;
  console.log(`drift: ${differing} of ${drift.length} operation(s) differ from their baseline — ${defaultDriftPaths.reportFile}`);
}
