// The set-up every browser test shares: a real `cohort serve` on a free port and a temporary
// SQLite file, Debian's chromium driven by playwright-core (never a downloaded browser), and
// a cleanup that runs on success, failure and Ctrl-C alike.
// Env: COHORT_BIN (default ../target/release/cohort), CHROMIUM (default /usr/bin/chromium),
// SCREENSHOTS (default ../docs/screenshots), COHORT_STATIC_DIR (passed on to the server).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
export const BIN = resolve(process.env.COHORT_BIN || join(here, '../../target/release/cohort'));
export const SHOTS = resolve(process.env.SCREENSHOTS || join(here, '../../docs/screenshots'));
export const BROWSER = process.env.CHROMIUM || '/usr/bin/chromium';

// What cleanup() has to take down.
const open = { server: null, browser: null, dir: null };

export function check(cond, msg) {
  if (!cond) throw new Error(`check failed: ${msg}`);
}

export async function freePort() {
  return new Promise((res, rej) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => res(p)); });
    s.on('error', rej);
  });
}

// A temporary directory, removed by cleanup().
export function tempDir(prefix) {
  open.dir = mkdtempSync(join(tmpdir(), prefix));
  return open.dir;
}

// `cohort serve` on `port` and `database`; resolves once it listens, rejects if it exits or
// does not start within 20 s.
export function startServer(port, database) {
  return new Promise((res, rej) => {
    const child = spawn(BIN, ['serve', '--port', String(port), '--database', database], { stdio: ['ignore', 'pipe', 'pipe'] });
    open.server = child;
    let out = '';
    const t = setTimeout(() => rej(new Error(`the server did not start in 20 s: ${out}`)), 20000);
    const seen = (d) => { out += d; if (out.includes(`:${port}`)) { clearTimeout(t); res(child); } };
    child.stdout.on('data', seen);
    child.stderr.on('data', (d) => { seen(d); if (!String(d).includes(`:${port}`)) process.stderr.write(`[server] ${d}`); });
    child.on('error', (e) => { clearTimeout(t); rej(new Error(`cannot run ${BIN}: ${e.message}`)); });
    child.on('exit', (c) => { clearTimeout(t); rej(new Error(`the server exited with ${c}: ${out}`)); });
  });
}

// Kill the server as a crash would (SIGKILL) and wait until it is gone.
export async function killServer() {
  const s = open.server;
  open.server = null;
  s.removeAllListeners('exit');
  const gone = new Promise((r) => s.once('exit', r));
  s.kill('SIGKILL');
  await gone;
}

export async function launchBrowser() {
  open.browser = await chromium.launch({
    executablePath: BROWSER,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  return open.browser;
}

export async function cleanup() {
  if (open.browser) { const b = open.browser; open.browser = null; await b.close().catch(() => {}); }
  if (open.server) { open.server.removeAllListeners('exit'); open.server.kill('SIGKILL'); open.server = null; }
  if (open.dir) { rmSync(open.dir, { recursive: true, force: true }); open.dir = null; }
}
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, async () => { await cleanup(); process.exit(130); });
