// npm run doctor: one line per check of the configured sandbox, what works and what to fix (support/run/doctor.ts).
import { formatDoctor, runDoctor } from '../support/run/doctor.js';
import { redactText } from '../support/transport/redact.js';

const started = performance.now();
const report = await runDoctor();
console.log(redactText(formatDoctor(report, (performance.now() - started) / 1000)));
// Idle keep-alive connections would hold the process for their timeout: the checks are done.
process.exit(report.failed === 0 ? 0 : 1);
