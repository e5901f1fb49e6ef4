// Owns what `npm run doctor` prints: one line per check, each failure naming the setting that fixes it, and a summary.
import { TokenError } from './tokens.js';
import { TargetThrottledError, TargetUnavailableError } from '../transport/http.js';
import { NetworkSetupError } from '../transport/network-errors.js';

export interface DoctorLine {
  check: string;
  verdict: 'ok' | 'FAIL' | 'skip' | 'note';
  detail: string;
  /** The setting that fixes a failing check. */
  setting?: string;
}

const line =
  (verdict: DoctorLine['verdict']) =>
  (check: string, detail: string, setting?: string): DoctorLine => ({ check, verdict, detail, setting });
export const [ok, fail, skip, note] = (['ok', 'FAIL', 'skip', 'note'] as const).map(line);

export interface DoctorReport {
  lines: DoctorLine[];
  requests: number;
  failed: number;
  personCreated: boolean;
  /** Why there was no sandbox to check, when there was none: the doctor then claims no check. */
  nothingToCheck?: string;
}

/** A check that threw, as a failing line naming the setting its error names, else `fallbackSetting`. */
export function failureLine(check: string, error: unknown, fallbackSetting: string): DoctorLine {
  if (error instanceof NetworkSetupError) return fail(check, error.message, error.setting);
  if (error instanceof TokenError) return fail(check, error.message, error.variables.join(' or '));
  // Throttled to its deadline, the probe says nothing about the path or the credentials it used.
  if (error instanceof TargetThrottledError) return fail(check, error.message, 'CONTRACT_MAX_RPS');
  if (error instanceof TargetUnavailableError) return fail(check, error.message, fallbackSetting);
  return fail(check, error instanceof Error ? `${error.name}: ${error.message}` : String(error), fallbackSetting);
}

/** One line per check: the verdict, the check, what it found, and for a failure the setting to change. */
export function formatDoctor(
  { lines, requests, failed, personCreated, nothingToCheck }: DoctorReport,
  seconds: number,
): string {
  if (nothingToCheck !== undefined) return `doctor: nothing to check: ${nothingToCheck}`;
  const width = Math.max(...lines.map((line) => line.check.length));
  const body = lines.map(
    ({ verdict, check, detail, setting }) =>
      `${verdict.padEnd(4)}  ${check.padEnd(width)}  ` +
      `${detail}${verdict === 'FAIL' && setting ? ` → fix: ${setting}` : ''}`,
  );
  const summary = failed === 0 ? 'everything checked works' : `${failed} check(s) to fix`;
  const persons = personCreated
    ? 'one person created and deleted'
    : 'no person created (--create-person creates and deletes one)';
  return [...body, `doctor: ${summary}; ${requests} request(s) in ${seconds.toFixed(1)} s, ${persons}`].join('\n');
}
