// Load test on loopback: N concurrent human-vs-human games, each playing random legal steps
// through the HTTP API (with a WebSocket watcher on a share of them) for a fixed time, then
// stops by itself. Reports steps served per second, p50/p99 step latency, and checks that
// every stored game replays legally (`cohort check-games`) and holds every acknowledged step.
// Usage: node scripts/server/load-test.mjs [--games 200] [--seconds 60] [--database URL]
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
const dir = mkdtempSync(join(tmpdir(), 'cohort-load-'));
const database = arg('database', `sqlite://${join(dir, 'games.db')}`);
const port = await freePort();
const server = await startServer(port, database);
const http = api(port);
const variants = ['chesimals-1', 'mini-chieftain', 'chieftain', 'chesimals-2'];
const latencies = [];
const acked = new Map(); // game id -> steps acknowledged
let errors = 0;
let finished = 0;
let sockets = 0;
let socketMessages = 0;
const deadline = Date.now() + SECONDS * 1000;

async function newGame(slot) {
  const { status, body } = await http.post('/api/games', { variant: variants[slot % variants.length], white: 'human', black: 'human' });
  check(status === 200, `create: ${JSON.stringify(body)}`);
  acked.set(body.id, []);
  return body;
}

async function slotLoop(slot) {
  const rnd = rng(slot + 1);
  while (Date.now() < deadline) {
    const g = await newGame(slot);
    let ws = null;
    if (slot % 10 === 0 && typeof WebSocket !== 'undefined') {
      ws = new WebSocket(`ws://127.0.0.1:${port}/api/games/${g.id}/ws`);
      sockets++;
      ws.onmessage = () => { socketMessages++; };
    }
    let view = (await http.get(`/api/games/${g.id}`)).body;
    while (!view.result && Date.now() < deadline) {
      const step = randomStep(view, rnd);
      if (!step) break;
      if (THINK_MS > 0) await sleep(rnd() * 2 * THINK_MS);
      if (Date.now() >= deadline) break;
      const t0 = performance.now();
      const r = await http.post(`/api/games/${g.id}/step`, { token: g.tokens[view.to_move], step });
      latencies.push(performance.now() - t0);
      if (r.status !== 200) { errors++; console.error(`game ${g.id}: ${step}: ${JSON.stringify(r.body)}`); break; }
      acked.get(g.id).push(step);
      view = r.body;
    }
    if (view.result) finished++;
    if (ws) ws.close();
  }
}

// The server's own CPU time (user + system, from /proc), to tell its cost per step apart
// from waiting for a core the machine's other work holds.
const cpuSeconds = () => {
  try {
    const f = readFileSync(`/proc/${server.pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(f[11]) + Number(f[12])) / 100; // utime + stime, in USER_HZ (100)
  } catch { return NaN; }
};
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
await stopServer(server);
const checkOut = execFileSync(BIN, ['check-games', '--database', database]).toString().trim();
rmSync(dir, { recursive: true, force: true });

latencies.sort((a, b) => a - b);
const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))];
console.log(`load test: ${GAMES} concurrent games for ${elapsed.toFixed(1)} s on ${database.split(':')[0]}` +
  `${THINK_MS ? `, each thinking ${THINK_MS} ms on average before a step` : ', no think time (each game steps as soon as answered)'}` +
  `${process.env.COHORT_SERVER_CPUS ? `, server pinned to CPU ${process.env.COHORT_SERVER_CPUS}` : ''}`);
console.log(`steps served: ${latencies.length}  steps/s: ${(latencies.length / elapsed).toFixed(0)}  p50: ${pct(0.5).toFixed(2)} ms  p99: ${pct(0.99).toFixed(2)} ms`);
console.log(`server CPU: ${serverCpu.toFixed(1)} s in ${elapsed.toFixed(1)} s (${(100 * serverCpu / elapsed).toFixed(0)}% of a core), ${(1000 * serverCpu / Math.max(1, latencies.length)).toFixed(2)} ms a step`);
console.log(`games: ${acked.size} (finished ${finished})  websocket watchers: ${sockets} (messages ${socketMessages})  errors: ${errors}  games with lost steps: ${lost}`);
console.log(checkOut);
const p99ok = MAX_P99 === null || pct(0.99) <= Number(MAX_P99);
if (!p99ok) console.log(`p99 ${pct(0.99).toFixed(2)} ms is above the limit of ${MAX_P99} ms`);
process.exit(errors === 0 && lost === 0 && checkOut.includes('failed: 0') && p99ok ? 0 : 1);
