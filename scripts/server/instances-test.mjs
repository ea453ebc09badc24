// Instances test (issue 26): several `cohort serve` processes and a `cohort worker` on one
// fresh PostgreSQL database, the AI's searches taken from the shared job queue.
//  1. Three instances started at once; a person-against-AI game created on A, White's turn
//     posted to B. The instance whose worker took the AI's search (the job's owner, read from
//     the database) is killed with SIGKILL while it searches. The AI's reply must still
//     come, from another instance, once the dead one's lease runs out, and every step White
//     had acknowledged must be stored (0 lost). Then one more turn each.
//  2. An instance with --ai-workers 0 (it never searches) and a `cohort worker`: the AI's
//     replies in a game on that instance come from the worker. The worker, stopped with
//     SIGTERM in the middle of a search, gives that job back as it exits (checked before the
//     job's lease could have run out), and a second worker plays the AI's turn. An
//     analysis asked of that instance is run by the worker too.
// Usage: node scripts/server/instances-test.mjs postgres://user:password@host/db
// (the user must be allowed to create databases: the test makes its own, cohort_instances_test).
import { execFileSync } from 'node:child_process';
import { api, check, freePort, randomStep, rng, startServer, startWorker, stopServer } from './common.mjs';

const base = process.argv[2];
check(base && base.startsWith('postgres'), 'usage: node scripts/server/instances-test.mjs postgres://user:password@host/db');
const LEASE_MS = 1500;
const AI_MS = 4000;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const psql = (url, sql) => execFileSync('psql', [url, '-v', 'ON_ERROR_STOP=1', '-At', '-c', sql], { env: { ...process.env, PGOPTIONS: '-c client_min_messages=warning' } }).toString().trim();

// A fresh database of our own.
const dbName = 'cohort_instances_test';
psql(base, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
psql(base, `CREATE DATABASE ${dbName}`);
const url = (() => { const u = new URL(base); u.pathname = `/${dbName}`; return u.toString(); })();
const jobOwner = (id) => psql(url, `SELECT owner FROM ai_jobs WHERE game_id = '${id}'`);
const pidOf = (owner) => Number(owner.split(':')[1]);

const children = [];
const problems = [];
async function waitFor(what, cond, ms) {
  const until = Date.now() + ms;
  for (;;) {
    const v = await cond();
    if (v) return v;
    if (Date.now() > until) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(50);
  }
}

// One turn of White's random steps on `http`; returns the steps acknowledged.
async function whiteTurn(http, id, token, rnd) {
  const played = [];
  let view = (await http.get(`/api/games/${id}`)).body;
  check(view.to_move === 'white' && !view.result, `game ${id}: White is not to move: ${JSON.stringify(view).slice(0, 200)}`);
  while (view.to_move === 'white' && !view.result) {
    const step = randomStep(view, rnd);
    check(step, `game ${id}: White has no step`);
    const r = await http.post(`/api/games/${id}/step`, { token, step });
    check(r.status === 200, `game ${id}: ${step} refused: ${r.status} ${JSON.stringify(r.body)}`);
    played.push(step);
    view = r.body;
  }
  return played;
}

const stepsStored = (id) => psql(url, `SELECT step FROM steps WHERE game_id = '${id}' ORDER BY ply`).split('\n').filter(Boolean);

try {
  // 1. Three instances at once; kill the one searching.
  const ports = [await freePort(), await freePort(), await freePort()];
  const flags = ['--ai-workers', '1', '--ai-lease-ms', String(LEASE_MS)];
  const servers = await Promise.all(ports.map((p) => startServer(p, url, flags)));
  children.push(...servers);
  const [A, B, C] = ports.map((p) => api(p));
  console.log(`instances: 3 started at once on a fresh database (pids ${servers.map((s) => s.pid).join(', ')})`);
  const created = await A.post('/api/games', { variant: 'chesimals-1', white: 'human', black: 'ai', ai: { agent: 'engine', time_ms: AI_MS } });
  check(created.status === 200, `create on A: ${JSON.stringify(created.body)}`);
  const id = created.body.id;
  const token = created.body.tokens.white;
  const rnd = rng(7);
  const acked = await whiteTurn(B, id, token, rnd);
  const owner = await waitFor('the AI job taken', () => jobOwner(id) || null, 3000);
  const victim = servers.find((s) => s.pid === pidOf(owner));
  check(victim, `the job's owner ${owner} is none of the instances`);
  const before = (await C.get(`/api/games/${id}`)).body;
  check(before.to_move === 'black' && before.turn_steps.length === 0 && before.ai_thinking, `the AI had already played: ${JSON.stringify(before.turn_steps)}`);
  victim.kill('SIGKILL');
  const killedAt = Date.now();
  console.log(`instances: White's turn (${acked.length} steps) posted to B; the AI's search taken by pid ${victim.pid} (instance ${servers.indexOf(victim) + 1}); SIGKILL sent`);
  const alive = servers.filter((s) => s !== victim).map((s) => api(ports[servers.indexOf(s)]));
  const owners = new Set();
  const replied = await waitFor('the AI reply after the kill', async () => {
    const o = jobOwner(id);
    if (o) owners.add(o);
    const v = (await alive[0].get(`/api/games/${id}`)).body;
    return v.to_move === 'white' ? v : null;
  }, LEASE_MS + AI_MS + 15000);
  const takeover = [...owners].filter((o) => o !== owner);
  check(takeover.length === 0 || takeover.every((o) => pidOf(o) !== victim.pid), `a job owner of the killed process: ${[...owners]}`);
  const stored = stepsStored(id);
  const lost = acked.filter((s, i) => stored[i] !== s).length;
  const aiSteps = stored.length - acked.length;
  console.log(`instances: the AI replied ${((Date.now() - killedAt) / 1000).toFixed(1)} s after the kill` +
    `${takeover.length ? `, taken over by pid ${pidOf(takeover[0])}` : ''}; its turn: ${aiSteps} steps; White's acknowledged steps lost: ${lost}`);
  check(lost === 0, `White's acknowledged steps lost: stored ${stored.join(' ')}, acknowledged ${acked.join(' ')}`);
  check(aiSteps > 0, 'the AI played no step');
  check(replied.to_move === 'white', 'White is not to move after the AI');
  // Play on: the survivors keep serving the game.
  const more = await whiteTurn(alive[1], id, token, rnd);
  await waitFor('the AI reply to the next turn', async () => (await alive[0].get(`/api/games/${id}`)).body.to_move === 'white', AI_MS + 15000);
  console.log(`instances: one more turn of ${more.length} steps and the AI's reply, on the two left`);
  await Promise.all(servers.filter((s) => s !== victim).map((s) => stopServer(s)));

  // 2. An instance that never searches, and a worker.
  const portD = await freePort();
  const D = await startServer(portD, url, ['--ai-workers', '0', '--ai-lease-ms', String(LEASE_MS)]);
  children.push(D);
  check(D.output().includes('AI: 0 workers'), `instance D's banner: ${D.output()}`);
  const worker = await startWorker(url, ['--ai-workers', '1', '--ai-lease-ms', String(LEASE_MS)]);
  children.push(worker);
  const httpD = api(portD);
  const g = await httpD.post('/api/games', { variant: 'mini-chieftain', white: 'human', black: 'ai', ai: { agent: 'engine', time_ms: 1000 } });
  check(g.status === 200, `create on D: ${JSON.stringify(g.body)}`);
  for (let turn = 1; turn <= 2; turn++) {
    await whiteTurn(httpD, g.body.id, g.body.tokens.white, rnd);
    const seen = new Set();
    await waitFor(`the worker's reply (turn ${turn})`, async () => {
      const o = jobOwner(g.body.id);
      if (o) seen.add(pidOf(o));
      const v = (await httpD.get(`/api/games/${g.body.id}`)).body;
      return v.to_move === 'white' || v.result;
    }, 15000);
    check([...seen].every((p) => p === worker.pid), `a job taken by another process than the worker: ${[...seen]}`);
    console.log(`instances: turn ${turn} on D (--ai-workers 0): the AI's reply came from the worker (pid ${worker.pid}${seen.size ? ', seen as the job\'s owner' : ''})`);
  }
  // An analysis asked of D (no workers) is a job too: the worker runs it, D reads it done.
  const an = await httpD.post('/api/analysis', { variant: 'chess', ms: 200 });
  check(an.status === 200, `analysis on D: ${an.status} ${JSON.stringify(an.body)}`);
  let analysis = null;
  await waitFor('the analysis, run by the worker', async () => {
    analysis = (await httpD.get(`/api/analysis/${an.body.id}`)).body;
    return analysis.state !== 'running';
  }, 15000);
  check(analysis.state === 'done' && analysis.points.length === 1, `the analysis: ${JSON.stringify(analysis)}`);
  console.log(`instances: an analysis asked of D (--ai-workers 0) was run by the worker: ${analysis.points[0].best.join(' ')}`);
  // A worker stopped with SIGTERM while it searches gives its job back at once: right after
  // it exits, the job is queued again (no owner), long before its lease would have run out,
  // and a second worker takes it and plays the AI's turn.
  const slow = await httpD.post('/api/games', { variant: 'mini-chieftain', white: 'human', black: 'ai', ai: { agent: 'engine', time_ms: 5000 } });
  check(slow.status === 200, `create on D: ${JSON.stringify(slow.body)}`);
  await whiteTurn(httpD, slow.body.id, slow.body.tokens.white, rnd);
  await waitFor('the worker taking the slow search', () => pidOf(jobOwner(slow.body.id) || ':0') === worker.pid, 5000);
  const leaseLeft = Number(psql(url, `SELECT lease_until_ms FROM ai_jobs WHERE game_id = '${slow.body.id}'`)) - Date.now();
  await stopServer(worker);
  const afterExit = psql(url, `SELECT owner || '|' || lease_until_ms FROM ai_jobs WHERE game_id = '${slow.body.id}'`);
  check(afterExit === '|0', `the job after the worker's SIGTERM: ${afterExit} (owner|lease; still held: not given back)`);
  console.log(`instances: SIGTERM to the worker mid-search: its job was queued again when it exited (its lease had ${leaseLeft} ms left)`);
  const second = await startWorker(url, ['--ai-workers', '1', '--ai-lease-ms', String(LEASE_MS)]);
  children.push(second);
  await waitFor('the second worker\'s reply', async () => {
    const v = (await httpD.get(`/api/games/${slow.body.id}`)).body;
    return v.to_move === 'white' || v.result;
  }, 20000);
  console.log(`instances: the second worker (pid ${second.pid}) played the AI's turn`);
  await stopServer(second);
  await stopServer(D);
  const held = psql(url, `SELECT COUNT(*) FROM ai_jobs WHERE owner <> '' AND lease_until_ms < 9223372036854775807`);
  check(held === '0', `${held} jobs still held after every process stopped`);
  console.log('instances test: passed');
} catch (e) {
  problems.push(e.message);
} finally {
  for (const c of children) await stopServer(c, 'SIGKILL');
}
if (problems.length) {
  console.error(`instances test: FAILED: ${problems.join('; ')}`);
  process.exit(1);
}
