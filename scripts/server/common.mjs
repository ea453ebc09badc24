// Shared by the kill test and the load test: start `cohort serve`, call its JSON API.
import { spawn } from 'node:child_process';
import net from 'node:net';

export const BIN = process.env.COHORT_BIN || new URL('../../target/release/cohort', import.meta.url).pathname;

export async function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => resolve(p)); });
    s.on('error', reject);
  });
}

/** Start the server (with `extra` arguments); resolves once it prints its address. */
export function startServer(port, database, extra = []) {
  return startCohort(['serve', '--port', String(port), '--database', database, ...extra], 'open http://');
}

/** Start `cohort worker` on `database`; resolves once it says what it serves. */
export function startWorker(database, extra = []) {
  return startCohort(['worker', '--database', database, ...extra], 'cohort worker: taking');
}

/** Start `cohort <args>`; resolves once its output holds `ready`. */
function startCohort(args, ready) {
  return new Promise((resolve, reject) => {
    // COHORT_SERVER_CPUS=0 pins the server to core 0 (taskset), away from the load generator.
    const pin = process.env.COHORT_SERVER_CPUS;
    const child = pin
      ? spawn('taskset', ['-c', pin, BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
      : spawn(BIN, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const timer = setTimeout(() => reject(new Error(`cohort ${args[0]} did not start: ${out}`)), 20000);
    const onData = (d) => {
      out += d;
      if (out.includes(ready)) { clearTimeout(timer); child.output = () => out; resolve(child); }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (d) => { out += d; });
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`cohort ${args[0]} exited (${code}): ${out}`)); });
  });
}

export function stopServer(child, signal = 'SIGTERM') {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.removeAllListeners('exit');
    child.on('exit', () => resolve());
    child.kill(signal);
  });
}

export function api(port) {
  const base = `http://127.0.0.1:${port}`;
  return {
    async get(path) {
      const r = await fetch(base + path);
      return { status: r.status, body: await r.json() };
    },
    async post(path, body) {
      const r = await fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: r.status, body: await r.json() };
    },
  };
}

/** A random legal step of a GameView: a unit move, or `end` when allowed (more often once
 *  a few steps were made, so turns have several steps but do end). */
export function randomStep(view, rnd) {
  const legal = view.legal;
  if (view.can_end && (legal.length === 0 || rnd() < 0.25 + 0.15 * view.turn_steps.length)) return 'end';
  if (legal.length === 0) return null;
  return legal[Math.floor(rnd() * legal.length)].text;
}

export function rng(seed) {
  let x = BigInt(seed) | 1n;
  return () => {
    x ^= (x << 13n) & 0xffffffffffffffffn; x ^= x >> 7n; x ^= (x << 17n) & 0xffffffffffffffffn;
    return Number(x % 1000000n) / 1000000;
  };
}

export function check(cond, msg) {
  if (!cond) throw new Error(msg);
}
