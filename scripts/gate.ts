// npm run gate [-- <results dir>...]: the release gate's verdict (support/evidence/release-gate.ts); exit 0 pass,
// 1 fail, 2 error.
import { evaluateGate, formatVerdict } from '../support/evidence/release-gate.js';

const resultsDirs = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
try {
  const verdict = await evaluateGate({ resultsDirs: resultsDirs.length ? resultsDirs : undefined });
  console.log(formatVerdict(verdict));
  process.exitCode = verdict.passed ? 0 : 1;
} catch (error) {
  console.error(`RELEASE GATE ERROR: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 2;
}
