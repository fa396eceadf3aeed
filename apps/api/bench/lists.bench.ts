/**
 * `npm run bench:lists` (after `npm run seed:large`): runs the statistics' list query N times against
 * the large database and prints its p50 and p95 (goal: p95 <= 200 ms). The query is the one the route
 * runs (packages/server/src/stats/user-stats.query.ts), called in-process without HTTP.
 */
import { createDb } from '@helix/server/db';
import type { Actor } from '@helix/server/sessions/session.service';
import { userStatsPage } from '@helix/server/stats/user-stats.query';
import { UserStatsQuery } from '@helix/shared/schemas/list-query';

const url = process.env.LARGE_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/helix_large';
const N = Number(process.env.BENCH_N ?? 20);
const db = createDb(url);
const tenant = await db.tenant.findFirstOrThrow({ where: { domainPrefix: 'school5000' } });
const actorOf = (isAdmin: boolean) =>
  ({ user: { isAdmin }, tenant, permissions: ['User.listing.view'] }) as unknown as Actor;

const cases: [string, Actor, Record<string, string>][] = [
  ['platform admin, top users by views', actorOf(true), {}],
  ['platform admin, search "pupil 4242"', actorOf(true), { search: 'pupil 4242' }],
  ['platform admin, by name, page 500', actorOf(true), { sort: 'name', order: 'asc', page: '500' }],
  ["an owner, the school's top users", actorOf(false), {}],
];
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.ceil((p / 100) * xs.length) - 1]!;
for (const [label, actor, query] of cases) {
  const input = UserStatsQuery.parse(query);
  await userStatsPage(db, actor, input); // warm-up
  const times: number[] = [];
  for (let i = 0; i < N; i += 1) {
    const t = performance.now();
    await userStatsPage(db, actor, input);
    times.push(performance.now() - t);
  }
  console.log(
    `GET /stats/users  ${label.padEnd(40)} p50 ${pct(times, 50).toFixed(0).padStart(5)} ms  p95 ${pct(times, 95).toFixed(0).padStart(5)} ms`,
  );
}
await db.$disconnect();
