// npm run doctor [-- --create-person]: one line per check of the configured sandbox, what works and
// what to fix (support/run/doctor.ts).
import { runDoctor } from '../support/run/doctor.js';
import { redactText } from '../support/transport/redact.js';

const unknown = process.argv.slice(2).filter((argument) => argument !== '--create-person');
if (unknown.length > 0) {
  console.error(`doctor: unknown argument(s) ${unknown.join(' ')}; the one option is --create-person`);
  process.exit(2);
}
const { output, failed } = await runDoctor(process.env, process.argv.includes('--create-person'));
console.log(redactText(output));
// Idle keep-alive connections would hold the process for their timeout: the checks are done.
process.exit(failed ? 1 : 0);
