// Kill test: several human-vs-human games play random legal steps over HTTP; the server is
// killed with SIGKILL while steps are in flight, then restarted on the same database.
// Before the kill every step must be acknowledged: a refusal, an error answer or a request
// without an answer fails the test with a message (only a step in flight at the kill may go
// unanswered). After the restart every acknowledged step must be in the stored game, at its
// place (0 lost); a step in flight at the kill may or may not be there.
// Usage: node scripts/server/kill-test.mjs [sqlite://file | postgres://...]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { api, check, freePort, randomStep, rng, startServer, stopServer } from './common.mjs';

const GAMES = 8;
const MIN_STEPS = 50; // overall, before the kill
const MIN_GAME_STEPS = 3; // each game, before the kill
const dir = mkdtempSync(join(tmpdir(), 'cohort-kill-'));
const database = process.argv[2] || `sqlite://${join(dir, 'games.db')}`;
const port = await freePort();
let server = await startServer(port, database);
const http = api(port);
const variants = ['chesimals-1', 'mini-chieftain', 'chieftain', 'lifeform'];
const games = [];
for (let i = 0; i < GAMES; i++) {
  const variant = variants[i % variants.length];
  const { status, body } = await http.post('/api/games', { variant, white: 'human', black: 'human' });
  check(status === 200, `create: ${JSON.stringify(body)}`);
  games.push({ id: body.id, variant, tokens: body.tokens, acked: [], stopped: false });
}

// Set just before the SIGKILL: from then on a request may go unanswered.
let killing = false;
const problems = []; // every step not acknowledged before the kill, and why

async function player(g, seed) {
  const rnd = rng(seed);
  let view = (await http.get(`/api/games/${g.id}`)).body;
  while (!g.stopped && !view.result) {
    const step = randomStep(view, rnd);
    if (!step) break;
    let r;
    try {
      r = await http.post(`/api/games/${g.id}/step`, { token: g.tokens[view.to_move], step });
    } catch (e) {
      // No answer: after the kill the server is gone and the step was never acknowledged;
      // before it, that is a failure.
      if (!killing) problems.push(`game ${g.id}: step ${g.acked.length + 1} (${step}) got no answer before the kill: ${e.cause?.message || e.message}`);
      return;
    }
    if (r.status !== 200) {
      problems.push(`game ${g.id} (${g.variant}): step ${g.acked.length + 1} (${step}) refused${killing ? ' while the server was being killed' : ''}: ${r.status} ${JSON.stringify(r.body)}`);
      return;
    }
    g.acked.push(step);
    view = r.body;
  }
}

const players = games.map((g, i) => player(g, 1000 + i));
await new Promise((r) => setTimeout(r, 1500 + Math.random() * 1000));
killing = true;
await stopServer(server, 'SIGKILL');
games.forEach((g) => { g.stopped = true; });
const settled = await Promise.allSettled(players);
settled.forEach((s, i) => { if (s.status === 'rejected') problems.push(`game ${games[i].id}: the player failed: ${s.reason?.stack || s.reason}`); });
const acknowledged = games.reduce((n, g) => n + g.acked.length, 0);
for (const g of games) {
  if (g.acked.length < MIN_GAME_STEPS) problems.push(`game ${g.id} (${g.variant}): only ${g.acked.length} steps acknowledged before the kill (at least ${MIN_GAME_STEPS})`);
}
if (acknowledged < MIN_STEPS) problems.push(`only ${acknowledged} steps acknowledged before the kill (at least ${MIN_STEPS})`);
if (problems.length) {
  for (const p of problems) console.error(p);
  console.error(`kill test: FAILED before the kill (${problems.length} problem(s) above)`);
  rmSync(dir, { recursive: true, force: true });
  process.exit(1);
}

server = await startServer(port, database);
let lost = 0; // acknowledged steps not stored at their place
let wrong = 0; // games with a lost step or more than one unacknowledged step stored
for (const g of games) {
  const { status, body } = await http.get(`/api/games/${g.id}/record?format=json`);
  check(status === 200, `record of ${g.id}: ${JSON.stringify(body)}`);
  const stored = body.steps;
  const missing = g.acked.filter((s, i) => stored[i] !== s).length;
  const extra = stored.length - g.acked.length; // the step in flight at the kill, if it was stored
  if (missing || extra > 1) {
    lost += missing;
    wrong++;
    const first = g.acked.findIndex((s, i) => stored[i] !== s);
    console.error(`game ${g.id}: acknowledged ${g.acked.length} steps, stored ${stored.length}; ${missing} acknowledged step(s) not stored at their place` +
      `${first >= 0 ? ` (the first: step ${first + 1}, acknowledged ${g.acked[first]}, stored ${stored[first] ?? 'nothing'})` : ''}` +
      `${extra > 1 ? `; ${extra} steps stored that were never acknowledged` : ''}`);
  }
  // The game goes on where it stood.
  const view = (await http.get(`/api/games/${g.id}`)).body;
  if (!view.result) {
    const step = randomStep(view, rng(7));
    const r = await http.post(`/api/games/${g.id}/step`, { token: g.tokens[view.to_move], step });
    check(r.status === 200, `game ${g.id} does not go on after the restart: ${JSON.stringify(r.body)}`);
  }
}
await stopServer(server);
rmSync(dir, { recursive: true, force: true });
console.log(`kill test: ${GAMES} games, ${acknowledged} steps before SIGKILL, every one acknowledged (per game: ${games.map((g) => g.acked.length).join(' ')}); ` +
  `after the restart: acknowledged steps lost ${lost}, games not as acknowledged ${wrong}`);
process.exit(lost === 0 && wrong === 0 ? 0 : 1);
