// The set-up every browser test shares: a real `cohort serve` on a free port and a temporary
// SQLite file, Debian's chromium driven by playwright-core (never a downloaded browser), a
// cleanup that runs on success, failure and Ctrl-C alike, and the scenario runner
// (`runSuite`, `Scenario`).
// Env: COHORT_BIN (default ../target/release/cohort), CHROMIUM (default /usr/bin/chromium),
// SCREENSHOTS (default ../docs/screenshots), COHORT_STATIC_DIR (passed on to the server).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
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

// One scenario's pages, each in a browser context of its own that `close` takes down. A page
// error or a dialog (the interface has none) is collected and fails the scenario.
export class Scenario {
  constructor(browser, { viewport = { width: 1400, height: 900 }, waitMs = 25000 } = {}) {
    Object.assign(this, { browser, viewport, waitMs, contexts: [], errors: [] });
  }
  async context(opts = {}) {
    const c = await this.browser.newContext({ viewport: this.viewport, ...opts });
    this.contexts.push(c);
    return c;
  }
  // A page in `contextOrOptions` when it is a context, else in a new context with those options.
  async page(contextOrOptions) {
    const ctx = typeof contextOrOptions?.newPage === 'function' ? contextOrOptions : await this.context(contextOrOptions);
    const page = await ctx.newPage();
    page.on('pageerror', (e) => this.errors.push(`page error on ${page.url()}: ${e.message}`));
    page.on('dialog', (d) => { this.errors.push(`unexpected dialog: ${d.message()}`); d.dismiss().catch(() => {}); });
    page.setDefaultTimeout(this.waitMs);
    return page;
  }
  async close() {
    for (const c of this.contexts) await c.close().catch(() => {});
    this.contexts = [];
  }
}

// Run a suite: the server on a free port with a temporary SQLite file, the browser, then each
// scenario ([name, run] or [name, time limit in ms, run]; those whose name contains the first
// command-line argument, if one is given) with its time limit. `ready` receives
// { dir, port, base, database, browser } before the first scenario. Prints a line per
// scenario and a total, and exits with 1 if anything failed.
export async function runSuite(title, scenarios, { prefix, timeoutMs = 60000, viewport, waitMs, ready = () => {} }) {
  let passed = 0;
  let failed = 0;
  try {
    mkdirSync(SHOTS, { recursive: true });
    const dir = tempDir(prefix);
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const database = `sqlite://${join(dir, 't.db')}`;
    await startServer(port, database);
    const browser = await launchBrowser();
    ready({ dir, port, base, database, browser });
    const filter = process.argv[2];
    for (const entry of scenarios) {
      const [name, run] = [entry[0], entry[entry.length - 1]];
      const limit = entry.length > 2 ? entry[1] : timeoutMs;
      if (filter && !name.includes(filter)) continue;
      const t0 = Date.now();
      const seconds = () => ((Date.now() - t0) / 1000).toFixed(1);
      const sc = new Scenario(browser, { viewport, waitMs });
      let timer;
      try {
        const what = await Promise.race([
          run(sc),
          new Promise((_, rej) => { timer = setTimeout(() => rej(new Error(`timed out after ${limit / 1000} s`)), limit); }),
        ]);
        check(!sc.errors.length, sc.errors.join('; '));
        passed++;
        console.log(`ok   ${name} (${seconds()} s): ${what}`);
      } catch (e) {
        failed++;
        console.log(`FAIL ${name} (${seconds()} s): ${e.stack || e}`);
        if (sc.errors.length) console.log(`     page errors: ${sc.errors.join('; ')}`);
      } finally {
        clearTimeout(timer);
        await sc.close();
      }
    }
  } catch (e) {
    failed++;
    console.log(`FAIL setup: ${e.stack || e}`);
  } finally {
    await cleanup();
  }
  console.log(`${title}: ${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}
