// WebSocket abuse on loopback (issue 47, docs/benchmarks.md "WebSocket abuse"): one
// `cohort serve` on SQLite, and from one address
//   1. memory: five sockets each sending 45 MB of a text message (in frames of 1 MiB) and
//      never finishing it, plus N idle lobby watchers (default 3,000): the server's resident memory
//      (VmRSS of its process) before and after, the sockets accepted and refused;
//   2. the lobby: W lobby watchers (default 2,000) and C create-and-cancel cycles (default
//      100) of a challenge, while another client asks for a game's view in a loop: that
//      client's p50/p99 latency before and during the cycles, the lists the watchers got,
//      the server's CPU time.
// The sockets are raw TCP (a WebSocket handshake, then frames by hand), so that a message
// can be left unfinished and thousands of watchers cost the client little.
// Usage: node scripts/server/ws-abuse.mjs [--watchers 3000] [--lobby-watchers 2000]
//          [--cycles 100] [--hold-ms 0] [--serve-args "--ws-per-address 5000"] [--max-growth-mb 50]
//          [--max-p99 50]
// COHORT_BIN: the cohort binary (default target/release/cohort). Exit 1 if a bound fails.
import net from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { api, check, freePort, startServer, stopServer } from './common.mjs';

const arg = (name, dflt) => {
  const i = process.argv.lastIndexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const WATCHERS = Number(arg('watchers', 3000));
const LOBBY_WATCHERS = Number(arg('lobby-watchers', 2000));
const CYCLES = Number(arg('cycles', 100));
const HOLD_MS = Number(arg('hold-ms', 0)); // how long each challenge stays open before its cancel
const SERVE_ARGS = arg('serve-args', '').split(' ').filter(Boolean);
const MAX_GROWTH_MB = Number(arg('max-growth-mb', 50));
const MAX_P99 = Number(arg('max-p99', 50));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const rssMb = (pid) => {
  const s = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(s)[1]) / 1024;
};
const cpuS = (pid) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) / 100; // utime + stime, in clock ticks of 10 ms
};

/** A raw WebSocket: resolves { status, sock, texts } once the answer's head is read. */
function openWs(port, path) {
  return new Promise((resolve) => {
    const sock = net.connect(port, '127.0.0.1');
    let head = Buffer.alloc(0);
    let done = false;
    const ws = { status: 0, sock, texts: 0, closed: false, buf: Buffer.alloc(0), last: null };
    const finish = (status) => { if (!done) { done = true; ws.status = status; resolve(ws); } };
    sock.on('connect', () => sock.write(
      `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
      'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n'));
    sock.on('data', (d) => {
      if (!done) {
        head = Buffer.concat([head, d]);
        const end = head.indexOf('\r\n\r\n');
        if (end < 0) return;
        const status = Number(head.subarray(9, 12).toString());
        ws.buf = head.subarray(end + 4);
        finish(status);
        if (status !== 101) { sock.destroy(); return; }
      } else {
        ws.buf = Buffer.concat([ws.buf, d]);
      }
      frames(ws);
    });
    sock.on('error', () => { ws.closed = true; finish(-1); });
    sock.on('close', () => { ws.closed = true; finish(-1); });
  });
}

/** Read the server's frames off `ws.buf`: count text frames, answer pings. */
function frames(ws) {
  for (;;) {
    const b = ws.buf;
    if (b.length < 2) return;
    let len = b[1] & 0x7f;
    let at = 2;
    if (len === 126) { if (b.length < 4) return; len = b.readUInt16BE(2); at = 4; }
    else if (len === 127) { if (b.length < 10) return; len = Number(b.readBigUInt64BE(2)); at = 10; }
    if (b.length < at + len) return;
    const op = b[0] & 0x0f;
    const payload = b.subarray(at, at + len);
    if (op === 1) { ws.texts += 1; ws.last = payload.toString(); }
    if (op === 9) ws.sock.write(Buffer.concat([frameHead(10, true, len), payload]));
    ws.buf = b.subarray(at + len);
  }
}

/** A client frame's head (masked with a zero key, so the payload goes as it is). */
function frameHead(op, fin, len) {
  let h;
  if (len < 126) { h = Buffer.from([(fin ? 0x80 : 0) | op, 0x80 | len]); }
  else if (len < 65536) { h = Buffer.alloc(4); h[0] = (fin ? 0x80 : 0) | op; h[1] = 0x80 | 126; h.writeUInt16BE(len, 2); }
  else { h = Buffer.alloc(10); h[0] = (fin ? 0x80 : 0) | op; h[1] = 0x80 | 127; h.writeBigUInt64BE(BigInt(len), 2); }
  return Buffer.concat([h, Buffer.alloc(4)]);
}

/** Send up to `total` bytes of a text message in fragments of 1 MiB (each frame within
 *  tungstenite's former 16 MiB frame limit), never finished; resolves with the bytes sent
 *  before the server closed the socket (or all of them). */
function sendUnfinished(ws, total) {
  return new Promise((resolve) => {
    let sent = 0;
    const chunk = Buffer.alloc(1 << 20, 0x78);
    const pump = () => {
      while (sent < total && !ws.closed) {
        const n = Math.min(chunk.length, total - sent);
        const frame = Buffer.concat([frameHead(sent === 0 ? 1 : 0, false, n), chunk.subarray(0, n)]);
        sent += n;
        if (!ws.sock.write(frame)) { ws.sock.once('drain', pump); return; }
      }
      resolve(sent);
    };
    ws.sock.on('close', () => resolve(sent));
    pump();
    // Nobody waits for ever: a server that neither reads nor closes holds it.
    setTimeout(() => resolve(sent), 20000);
  });
}

async function openMany(port, path, n) {
  const out = { open: [], refused: 0, failed: 0 };
  for (let i = 0; i < n; i += 200) {
    const batch = await Promise.all(Array.from({ length: Math.min(200, n - i) }, () => openWs(port, path)));
    for (const w of batch) {
      if (w.status === 101) out.open.push(w);
      else if (w.status === 429) out.refused += 1;
      else out.failed += 1;
    }
  }
  return out;
}

function percentile(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(p * s.length))] : NaN;
}

async function latencies(http, path, until) {
  const ms = [];
  while (!until()) {
    const t = performance.now();
    const r = await http.get(path);
    check(r.status === 200, `GET ${path}: ${r.status}`);
    ms.push(performance.now() - t);
  }
  return ms;
}

const dir = mkdtempSync(join(tmpdir(), 'cohort-ws-abuse-'));
let failed = false;
try {
  // 1. Memory.
  {
    const port = await freePort();
    const server = await startServer(port, `sqlite://${join(dir, 'memory.db')}`, SERVE_ARGS);
    await sleep(500);
    const before = rssMb(server.pid);
    const big = await Promise.all(Array.from({ length: 5 }, () => openWs(port, '/api/challenges/watch')));
    check(big.every((w) => w.status === 101), 'the five sockets open');
    const taken = await Promise.all(big.map((w) => sendUnfinished(w, 45_000_000)));
    const watchers = await openMany(port, '/api/challenges/watch', WATCHERS);
    await sleep(3000);
    const after = rssMb(server.pid);
    const stillOpen = watchers.open.filter((w) => !w.closed).length;
    const bigClosed = big.filter((w) => w.closed).length;
    console.log(`memory: 5 sockets sent [${taken.map((n) => (n / 1e6).toFixed(2)).join(', ')}] MB of 45 MB messages, ${bigClosed} closed by the server; ` +
      `${WATCHERS} watchers: ${watchers.open.length} open (${stillOpen} still open 3 s later), ${watchers.refused} refused (429), ${watchers.failed} failed; ` +
      `server RSS ${before.toFixed(1)} MB -> ${after.toFixed(1)} MB (+${(after - before).toFixed(1)} MB)`);
    if (after - before >= MAX_GROWTH_MB) { console.log(`FAIL: RSS grew by ${MAX_GROWTH_MB} MB or more`); failed = true; }
    for (const w of [...big, ...watchers.open]) w.sock.destroy();
    await stopServer(server);
  }
  // 2. The lobby.
  {
    const port = await freePort();
    const server = await startServer(port, `sqlite://${join(dir, 'lobby.db')}`, SERVE_ARGS);
    const http = api(port);
    const g = await http.post('/api/games', { variant: 'chess', white: 'human', black: 'human' });
    check(g.status === 200, `create a game: ${JSON.stringify(g.body)}`);
    const probe = `/api/games/${g.body.id}`;
    let stop = false;
    const t0 = performance.now();
    const base = await latencies(http, probe, () => performance.now() - t0 > 2000);
    const watchers = await openMany(port, '/api/challenges/watch', LOBBY_WATCHERS);
    await sleep(1000);
    const textsBefore = watchers.open.reduce((a, w) => a + w.texts, 0);
    const cpu0 = cpuS(server.pid);
    const during = latencies(http, probe, () => stop);
    const c0 = performance.now();
    for (let i = 0; i < CYCLES; i++) {
      const c = await http.post('/api/challenges', { variant: 'chess' });
      check(c.status === 200, `create a challenge: ${JSON.stringify(c.body)}`);
      if (HOLD_MS) await sleep(HOLD_MS);
      const x = await http.post(`/api/challenges/${c.body.id}/cancel`, { token: c.body.token });
      check(x.status === 200, `cancel: ${JSON.stringify(x.body)}`);
    }
    const cycleS = (performance.now() - c0) / 1000;
    await sleep(1000);
    stop = true;
    const ms = await during;
    const cpu = cpuS(server.pid) - cpu0;
    const texts = watchers.open.reduce((a, w) => a + w.texts, 0) - textsBefore;
    const finalEmpty = watchers.open.filter((w) => w.last === '[]').length;
    console.log(`lobby: ${LOBBY_WATCHERS} watchers: ${watchers.open.length} open, ${watchers.refused} refused (429), ${watchers.failed} failed; ` +
      `${CYCLES} create-cancel cycles (held ${HOLD_MS} ms) in ${cycleS.toFixed(2)} s; lists sent ${texts} (${(texts / Math.max(1, watchers.open.length)).toFixed(1)} per watcher), ` +
      `${finalEmpty} watchers end on the empty list; server CPU ${cpu.toFixed(2)} s over ${(cycleS + 1).toFixed(2)} s`);
    console.log(`other requests (GET ${'/api/games/<id>'}): before p50 ${percentile(base, 0.5).toFixed(2)} ms p99 ${percentile(base, 0.99).toFixed(2)} ms (${base.length}); ` +
      `during p50 ${percentile(ms, 0.5).toFixed(2)} ms p99 ${percentile(ms, 0.99).toFixed(2)} ms (${ms.length})`);
    if (percentile(ms, 0.99) >= MAX_P99) { console.log(`FAIL: p99 ${MAX_P99} ms or more`); failed = true; }
    if (finalEmpty !== watchers.open.length) { console.log('FAIL: not every watcher ends on the final list'); failed = true; }
    for (const w of watchers.open) w.sock.destroy();
    await stopServer(server);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
