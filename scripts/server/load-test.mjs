// Load test on loopback: N concurrent human-vs-human games, each playing random legal steps
// through the HTTP API (with a WebSocket watcher on every tenth) for a fixed time, then
// stops by itself. Reports steps served per second, p50/p99 step latency, and checks that
// every stored game replays legally (`cohort check-games`) and holds every acknowledged step,
// and that every watcher received a view after each step posted to its game (every step
// seen, in order: views received vs steps posted).
// Usage: node --experimental-websocket scripts/server/load-test.mjs [--games 200] [--seconds 60] [--database URL]
//   [--instances N] N `cohort serve` on the one database (PostgreSQL for N > 1): each game is
//                   created on one, its steps posted to each in turn, its watcher on another
//   [--think-ms N]  each game waits a random 0..2N ms (N on average) before each step, as
//                   players do; 0 (the default) sends the next step as soon as one is answered
//   [--max-p99 MS]  fail (exit 1) if the p99 step latency is above MS
// COHORT_SERVER_CPUS=0 runs the server under `taskset -c 0` (scripts/bench-load).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, api, check, freePort, randomStep, rng, startServer, stopServer } from './common.mjs';

const arg = (name, dflt) => {
  const i = process.argv.lastIndexOf(`--${name}`); // the last one given wins
  return i > 0 ? process.argv[i + 1] : dflt;
};
const GAMES = Number(arg('games', 200));
const SECONDS = Number(arg('seconds', 60));
const THINK_MS = Number(arg('think-ms', 0));
const MAX_P99 = arg('max-p99', null);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
check(typeof WebSocket !== 'undefined', 'load test: no WebSocket in this Node: run it with node --experimental-websocket (Node 20) or Node 22+');
const dir = mkdtempSync(join(tmpdir(), 'cohort-load-'));
const database = arg('database', `sqlite://${join(dir, 'games.db')}`);
const INSTANCES = Number(arg('instances', 1));
check(INSTANCES === 1 || database.startsWith('postgres'), 'load test: several --instances need a PostgreSQL --database');
const ports = [];
for (let i = 0; i < INSTANCES; i++) ports.push(await freePort());
// Started at once, as a deployment's instances are.
const servers = await Promise.all(ports.map((p) => startServer(p, database)));
const https = ports.map((p) => api(p));
const http = https[0];
const variants = ['chesimals-1', 'mini-chieftain', 'chieftain', 'chesimals-2'];
const latencies = [];
const acked = new Map(); // game id -> steps acknowledged
let errors = 0;
let finished = 0;
const watchers = []; // { id, posted: steps acknowledged, seen: step lists of the views received, problems }
const deadline = Date.now() + SECONDS * 1000;

async function newGame(slot) {
  const { status, body } = await https[slot % INSTANCES].post('/api/games', { variant: variants[slot % variants.length], white: 'human', black: 'human' });
  check(status === 200, `create: ${JSON.stringify(body)}`);
  acked.set(body.id, []);
  return body;
}

async function slotLoop(slot) {
  const rnd = rng(slot + 1);
  while (Date.now() < deadline) {
    const g = await newGame(slot);
    // The watcher on another instance than the game's creator, when there are several.
    const w = slot % 10 === 0 ? await watch(g.id, ports[(slot + 1) % INSTANCES]) : null;
    let view = (await https[slot % INSTANCES].get(`/api/games/${g.id}`)).body;
    let n = slot;
    while (!view.result && Date.now() < deadline) {
      const step = randomStep(view, rnd);
      if (!step) break;
      if (THINK_MS > 0) await sleep(rnd() * 2 * THINK_MS);
      if (Date.now() >= deadline) break;
      const t0 = performance.now();
      // Each step to the next instance: every step finds the game changed elsewhere.
      const r = await https[n++ % INSTANCES].post(`/api/games/${g.id}/step`, { token: g.tokens[view.to_move], step });
      latencies.push(performance.now() - t0);
      if (r.status !== 200) { errors++; console.error(`game ${g.id}: ${step}: ${JSON.stringify(r.body)}`); break; }
      acked.get(g.id).push(step);
      view = r.body;
    }
    if (view.result) finished++;
    if (w) await w.done();
  }
}

// Every step of a GameView: the finished turns' and the turn in progress.
const stepsOf = (v) => v.turns.flatMap((t) => t.steps).concat(v.turn_steps || []);

// A WebSocket watcher of game `id`, open and holding the first view before the game's first
// step is posted. `done()` waits (10 s at most) for the view after the last step posted,
// closes the socket, and records what the watcher missed.
async function watch(id, port) {
  const w = { id, posted: acked.get(id), seen: [], problems: [] };
  watchers.push(w);
  const ws = new WebSocket(`ws://127.0.0.1:${port}/api/games/${id}/ws`);
  ws.onmessage = (m) => {
    try { w.seen.push(stepsOf(JSON.parse(m.data))); } catch (e) { w.problems.push(`a message that is no view: ${e.message}`); }
  };
  ws.onerror = () => w.problems.push('a WebSocket error');
  const until = async (cond, ms) => { const t = Date.now() + ms; while (!cond() && Date.now() < t) await sleep(20); return cond(); };
  if (!await until(() => w.seen.length > 0, 10000)) w.problems.push('no first view within 10 s');
  w.done = async () => {
    const last = () => w.seen.length && w.seen[w.seen.length - 1].length >= w.posted.length;
    if (!await until(last, 10000)) w.problems.push(`no view after the last step within 10 s (${w.posted.length} posted, the last view has ${w.seen.length ? w.seen[w.seen.length - 1].length : 0})`);
    ws.close();
    // Every view is the game after a prefix of the steps posted, and there is one after each.
    const counts = new Set();
    for (const steps of w.seen) {
      if (steps.length > w.posted.length || steps.some((s, i) => s !== w.posted[i])) w.problems.push(`a view with steps ${steps.join(' ')} that were not posted so`);
      counts.add(steps.length);
    }
    const unseen = [];
    for (let k = 1; k <= w.posted.length; k++) if (!counts.has(k)) unseen.push(k);
    if (unseen.length) w.problems.push(`no view after step(s) ${unseen.slice(0, 10).join(', ')}${unseen.length > 10 ? ', ...' : ''} of ${w.posted.length}`);
  };
  return w;
}

// The server's own CPU time (user + system, from /proc), to tell its cost per step apart
// from waiting for a core the machine's other work holds.
const cpuSeconds = () => servers.reduce((sum, server) => {
  try {
    const f = readFileSync(`/proc/${server.pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return sum + (Number(f[11]) + Number(f[12])) / 100; // utime + stime, in USER_HZ (100)
  } catch { return NaN; }
}, 0);
const cpu0 = cpuSeconds();
const started = performance.now();
let last = 0;
const progress = setInterval(() => {
  const s = (performance.now() - started) / 1000;
  const rate = (latencies.length - last) / 2;
  last = latencies.length;
  process.stderr.write(`\rload: ${s.toFixed(0)}/${SECONDS} s  steps ${latencies.length}  ${rate.toFixed(0)} steps/s  games ${acked.size}   `);
}, 2000);
await Promise.all(Array.from({ length: GAMES }, (_, i) => slotLoop(i)));
clearInterval(progress);
const elapsed = (performance.now() - started) / 1000;
const serverCpu = cpuSeconds() - cpu0;
process.stderr.write('\n');

// Every acknowledged step is stored, in order.
let lost = 0;
for (const [id, steps] of acked) {
  const { body } = await http.get(`/api/games/${id}/record?format=json`);
  if (body.steps.length !== steps.length || body.steps.some((s, i) => s !== steps[i])) {
    lost++;
    console.error(`game ${id}: acknowledged ${steps.length} steps, stored ${body.steps.length}`);
  }
}
await Promise.all(servers.map((s) => stopServer(s)));
const checkOut = execFileSync(BIN, ['check-games', '--database', database]).toString().trim();
rmSync(dir, { recursive: true, force: true });

latencies.sort((a, b) => a - b);
const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))];
console.log(`load test: ${GAMES} concurrent games for ${elapsed.toFixed(1)} s on ${database.split(':')[0]}, ${INSTANCES} instance${INSTANCES > 1 ? 's' : ''}` +
  `${THINK_MS ? `, each thinking ${THINK_MS} ms on average before a step` : ', no think time (each game steps as soon as answered)'}` +
  `${process.env.COHORT_SERVER_CPUS ? `, server pinned to CPU ${process.env.COHORT_SERVER_CPUS}` : ''}`);
console.log(`steps served: ${latencies.length}  steps/s: ${(latencies.length / elapsed).toFixed(0)}  p50: ${pct(0.5).toFixed(2)} ms  p99: ${pct(0.99).toFixed(2)} ms`);
console.log(`server CPU${INSTANCES > 1 ? ' (all instances)' : ''}: ${serverCpu.toFixed(1)} s in ${elapsed.toFixed(1)} s (${(100 * serverCpu / elapsed).toFixed(0)}% of a core), ${(1000 * serverCpu / Math.max(1, latencies.length)).toFixed(2)} ms a step`);
const posted = watchers.reduce((n, w) => n + w.posted.length, 0);
const received = watchers.reduce((n, w) => n + w.seen.length, 0);
const blind = watchers.filter((w) => w.problems.length);
for (const w of blind) console.error(`watcher of game ${w.id}: ${w.problems.join('; ')}`);
console.log(`games: ${acked.size} (finished ${finished})  errors: ${errors}  games with lost steps: ${lost}`);
console.log(`websocket watchers: ${watchers.length}, steps posted to their games: ${posted}, views received: ${received} ` +
  `(one at connecting + one a step: ${watchers.length + posted}); watchers that missed a step: ${blind.length}`);
console.log(checkOut);
const p99ok = MAX_P99 === null || pct(0.99) <= Number(MAX_P99);
if (!p99ok) console.log(`p99 ${pct(0.99).toFixed(2)} ms is above the limit of ${MAX_P99} ms`);
const watched = watchers.length > 0 && blind.length === 0;
if (!watchers.length) console.log('no WebSocket watcher ran');
process.exit(errors === 0 && lost === 0 && watched && checkOut.includes('failed: 0') && p99ok ? 0 : 1);
