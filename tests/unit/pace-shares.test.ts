// The pace against a token bucket (simulator/rate-limit.ts) on a discrete-event clock: several clients sharing one
// limit settle near equal shares, one alone comes near the limit, and at one request a second few are refused.
import { describe, expect, it } from 'vitest';
import { PACING } from '../../support/transport/pace.js';
import { acceptedRps, refusedShare, runChains, runOfTests, send } from './paced-clients.js';

/** Within 30 % of `share`. */
const near = (share: number) => ({ least: 0.7 * share, most: 1.3 * share });

describe('Pace against one token bucket', () => {
  it.each([
    { faults: 'no faults', faultRate: 0 },
    { faults: '3 % random faults', faultRate: 0.03 },
  ])('settles three clients sharing 5 requests a second within 30 % of equal shares, with $faults', async (sending) => {
    // Shares wander over a few minutes, each client's last limit moving with the refusals it happens to meet: where
    // they settle is their share over the 25 minutes after the first 5 (within 30 % at each of seeds 1 to 30).
    const clients = await send({ limitRps: 5, clients: 3, seconds: 1_800, faultRate: sending.faultRate });
    const { least, most } = near(5 / 3);
    for (const [index, answers] of clients.entries()) {
      const rps = acceptedRps(answers, 300, 1_800);
      expect(rps, `client ${index + 1}, requests a second over the last 25 minutes`).toBeGreaterThan(least);
      expect(rps, `client ${index + 1}`).toBeLessThan(most);
    }
  });

  it('brings a client alone to 85 % of the limit within a minute, and to 70 % with 3 % random faults', async () => {
    const [alone] = await send({ limitRps: 5, clients: 1, seconds: 60 });
    expect(acceptedRps(alone!, 30, 60), 'requests a second over its second half-minute').toBeGreaterThanOrEqual(4.25);
    const [faulted] = await send({ limitRps: 5, clients: 1, seconds: 60, faultRate: 0.03 });
    expect(acceptedRps(faulted!, 30, 60), 'with faults').toBeGreaterThanOrEqual(3.5);
  });

  it(
    'ends three shards within 1.3 × one client running all their tests, however their tests split, ' +
      'with a tenth of their requests refused at most',
    async () => {
      // vitest splits files, not work: shards end one after another, and the last one's share was learned while the
      // others sent. Where one refusal ended every probe, a fault ended each probe of a shard left alone at a squeezed
      // share, and doubled its hold.
      const shares: number[] = [];
      for (const seed of Array.from({ length: 30 }, (_, index) => index + 1)) {
        const tests = runOfTests(seed);
        const one = await runChains([tests], { limitRps: 5, faultRate: 0.03, seed });
        const splits = {
          'a small first shard': [tests.slice(0, 4), tests.slice(4, 15), tests.slice(15)],
          'a small last shard': [tests.slice(0, 14), tests.slice(14, 26), tests.slice(26)],
          even: [tests.slice(0, 10), tests.slice(10, 20), tests.slice(20)],
        };
        for (const [split, shards] of Object.entries(splits)) {
          const { endedS, answers } = await runChains(shards, { limitRps: 5, faultRate: 0.03, seed });
          const ratio = Math.max(...endedS) / Math.max(...one.endedS);
          expect(ratio, `seed ${seed}, ${split}: shards ended at ${endedS.map(Math.round).join(', ')} s`).toBeLessThan(
            1.3,
          );
          shares.push(refusedShare(...answers));
        }
      }
      // A night is one draw: its share wanders about the mean by a few points.
      const mean = shares.reduce((sum, share) => sum + share, 0) / shares.length;
      expect(mean, 'refused, on average over the seeds and splits').toBeLessThanOrEqual(0.1);
    },
  );

  it('meets a few refusals a shard at the opening, with three shards opening together', async () => {
    // A run's tests split into three shards, each a client of its own, all sending at once against 5 a second: each
    // pauses at its first refusal, so the opening costs it the requests it had in flight and a few more after the
    // pause, not the three refusals of a burst and all that went meanwhile (six a shard).
    const tests = runOfTests(7);
    const { answers } = await runChains([tests.slice(0, 10), tests.slice(10, 21), tests.slice(21)], {
      limitRps: 5,
      faultRate: 0.03,
    });
    const opening = answers.map((shard) => shard.refused.filter((at) => at < 2_000).length);
    expect(
      opening.reduce((sum, count) => sum + count, 0),
      `refusals in the first 2 s: ${opening.join(', ')}`,
    ).toBeLessThanOrEqual(3 * PACING.maxInFlight);
  });

  it('has at most a tenth of its requests refused by a limit of 1 a second, with and without faults', async () => {
    const [alone] = await send({ limitRps: 1, clients: 1, seconds: 300 });
    expect(refusedShare(alone!)).toBeLessThanOrEqual(0.1);
    const [faulted] = await send({ limitRps: 1, clients: 1, seconds: 300, faultRate: 0.03 });
    expect(refusedShare(faulted!), 'with faults').toBeLessThanOrEqual(0.1);
  });
});
