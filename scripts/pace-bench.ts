/**
 * npm run bench:pace: the pace against the simulator's token bucket on a discrete-event clock
 * (tests/unit/paced-clients.ts), over several seeds, in seconds of real time; it prints figures and asserts nothing.
 * Clients that always have requests waiting: the share each of three takes of 5 a second over the 25 minutes after
 * the first 5, one alone at 5 a second with 3 % faults, the share refused by a limit of 1 a second. Test chains (a
 * run's shape: steps of three requests and an effect's delay): one client against three shards of the same tests,
 * as the release gate runs them, evenly and unevenly split, with the share of their requests the limit refused.
 */
import { acceptedRps, refusedShare, runChains, runOfTests, send } from '../tests/unit/paced-clients.js';

const SEEDS = [7, 11, 13, 17];
const rate = (value: number): string => value.toFixed(2);
const percent = (share: number): string => `${Math.round(share * 100)} %`;

for (const seed of SEEDS) {
  const three = await send({ limitRps: 5, clients: 3, seconds: 1_800, faultRate: 0.03, seed });
  const alone = await send({ limitRps: 5, clients: 1, seconds: 300, faultRate: 0.03, seed });
  const slow = await send({ limitRps: 1, clients: 1, seconds: 300, faultRate: 0.03, seed });
  const tests = runOfTests(seed);
  const requests = 3 * tests.reduce((sum, steps) => sum + steps, 0);
  const one = await runChains([tests], { limitRps: 5, faultRate: 0.03, seed });
  const shards = await runChains([tests.slice(0, 10), tests.slice(10, 21), tests.slice(21)], {
    limitRps: 5,
    faultRate: 0.03,
    seed,
  });
  // Shards of uneven work, as vitest's split by files leaves them: the last one's share was learned while others sent.
  const uneven = await runChains([tests.slice(0, 4), tests.slice(4, 15), tests.slice(15)], {
    limitRps: 5,
    faultRate: 0.03,
    seed,
  });
  const wall = (run: { endedS: number[] }) => Math.max(...run.endedS);
  console.log(
    `pace: ${JSON.stringify({
      seed,
      threeSharing5: three.map((answers) => rate(acceptedRps(answers, 300, 1_800))).join('/'),
      alone5Faults3: rate(acceptedRps(alone[0]!, 60, 300)),
      refusedAt1: percent(refusedShare(slow[0]!)),
      chains: { requests, floorS: requests / 5 },
      oneClientS: Math.round(wall(one)),
      threeShardsS: shards.endedS.map(Math.round).join('/'),
      shardsOverOne: rate(wall(shards) / wall(one)),
      unevenShardsS: uneven.endedS.map(Math.round).join('/'),
      unevenOverOne: rate(wall(uneven) / wall(one)),
      oneRefused: percent(refusedShare(...one.answers)),
      shardsRefused: percent(refusedShare(...shards.answers)),
    })}`,
  );
}
