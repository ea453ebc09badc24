// Kill test: several human-vs-human games play random legal steps over HTTP; the server is
// killed with SIGKILL while steps are in flight, then restarted on the same database. Every
// acknowledged step must be there, in order (a step in flight at the kill may or may not be).
// Usage: node scripts/server/kill-test.mjs [sqlite://file | postgres://...]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { api, check, freePort, randomStep, rng, startServer, stopServer } from './common.mjs';

const GAMES = 8;
const dir = mkdtempSync(join(tmpdir(), 'cohort-kill-'));
const database = process.argv[2] || `sqlite://${join(dir, 'games.db')}`;
const port = await freePort();
let server = await startServer(port, database);
const http = api(port);
const variants = ['chesimals-1', 'mini-chieftain', 'chieftain', 'lifeform'];
const games = [];
for (let i = 0; i < GAMES; i++) {
  const { status, body } = await http.post('/api/games', { variant: variants[i % variants.length], white: 'human', black: 'human' });
  check(status === 200, `create: ${JSON.stringify(body)}`);
  games.push({ id: body.id, tokens: body.tokens, acked: [], stopped: false });
}

async function player(g, seed) {
  const rnd = rng(seed);
  let view = (await http.get(`/api/games/${g.id}`)).body;
  while (!g.stopped && !view.result) {
    const step = randomStep(view, rnd);
    if (!step) break;
    let r;
    try {
      r = await http.post(`/api/games/${g.id}/step`, { token: g.tokens[view.to_move], step });
    } catch {
      return; // the server is gone: this step was never acknowledged
    }
    check(r.status === 200, `game ${g.id}: step ${step}: ${JSON.stringify(r.body)}`);
    g.acked.push(step);
    view = r.body;
  }
}

const players = games.map((g, i) => player(g, 1000 + i));
await new Promise((r) => setTimeout(r, 1500 + Math.random() * 1000));
await stopServer(server, 'SIGKILL');
games.forEach((g) => { g.stopped = true; });
await Promise.allSettled(players);
const acknowledged = games.reduce((n, g) => n + g.acked.length, 0);
check(acknowledged > 50, `too few steps were played before the kill (${acknowledged})`);

server = await startServer(port, database);
let lost = 0;
for (const g of games) {
  const { status, body } = await http.get(`/api/games/${g.id}/record?format=json`);
  check(status === 200, `record of ${g.id}: ${JSON.stringify(body)}`);
  const stored = body.steps;
  const prefix = stored.slice(0, g.acked.length);
  const ok = prefix.length === g.acked.length && prefix.every((s, i) => s === g.acked[i]) && stored.length <= g.acked.length + 1;
  if (!ok) {
    lost++;
    console.error(`game ${g.id}: acknowledged ${g.acked.length} steps, stored ${stored.length}; first difference at ${prefix.findIndex((s, i) => s !== g.acked[i])}`);
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
console.log(`kill test: ${GAMES} games, ${acknowledged} acknowledged steps before SIGKILL, games with a lost step: ${lost}`);
process.exit(lost === 0 ? 0 : 1);
