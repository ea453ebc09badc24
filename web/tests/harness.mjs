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

// One scenario's pages, each in a browser context of its own that `close` takes down. What a
// person would notice goes wrong fails the scenario: a page error (an uncaught exception), a
// dialog (the interface has none; it is dismissed and recorded), a console error, and a
// request that fails (a network failure, or an answer with HTTP status 400 or more). A
// scenario that causes failed requests or console errors on purpose declares them with
// `expect` (regular expressions, in the scenario entry or by `sc.expect(...)`), matched
// against the problem's description:
//   `GET http://127.0.0.1:PORT/api/x -> 404 Not Found`            (an HTTP error answer)
//   `GET http://127.0.0.1:PORT/api/x failed: net::ERR_...`          (a network failure)
//   `console error at http://127.0.0.1:PORT/api/x: Failed to load…` (a console error)
// A request the page itself abandons (net::ERR_ABORTED: a navigation or a closed socket
// cancels it) is not a failure. Page errors and dialogs cannot be declared expected.
export class Scenario {
  constructor(browser, { viewport = { width: 1400, height: 900 }, waitMs = 25000, expect = [] } = {}) {
    Object.assign(this, { browser, viewport, waitMs, contexts: [], errors: [], expected: [], allowed: [...expect] });
  }
  // Declare failed requests or console errors this scenario causes on purpose.
  expect(...patterns) {
    this.allowed.push(...patterns);
  }
  // A failed request or a console error: allowed if declared, else an error of the scenario.
  problem(text) {
    if (this.allowed.some((re) => re.test(text))) this.expected.push(text);
    else this.errors.push(text);
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
    page.on('dialog', (d) => { this.errors.push(`unexpected dialog (${d.type()}): ${d.message()}`); d.dismiss().catch(() => {}); });
    page.on('console', (m) => {
      if (m.type() === 'error') this.problem(`console error at ${m.location().url || page.url()}: ${m.text()}`);
    });
    page.on('requestfailed', (r) => {
      const why = r.failure()?.errorText || 'unknown';
      if (why !== 'net::ERR_ABORTED') this.problem(`${r.method()} ${r.url()} failed: ${why}`);
    });
    page.on('response', (r) => {
      if (r.status() >= 400) this.problem(`${r.request().method()} ${r.url()} -> ${r.status()} ${r.statusText()}`);
    });
    page.setDefaultTimeout(this.waitMs);
    return page;
  }
  async close() {
    for (const c of this.contexts) await c.close().catch(() => {});
    this.contexts = [];
  }
}

// Runs in the page (page.evaluate): the units of the board `selector` as they are DRAWN, read
// from the SVG, not from any data the page was given: each unit's square is the square whose
// drawn rectangle holds the centre of the unit's drawing, and its piece is told from the
// drawing itself (the markup of which piece and side of pieces.js it is; for a unit drawn
// as a letter, the letter and the colour of its disc). `units` (a GameView's units) and
// `pieces` (its letter -> name table), when given, are described the same way as `want`,
// what the board should show. Both are sorted lists of "square side piece".
export function readDrawnBoard([selector, units, pieces]) {
  const board = document.querySelector(selector);
  if (!board) return { drawn: null, want: null };
  const NS = 'http://www.w3.org/2000/svg';
  const normal = (markup) => { const t = document.createElementNS(NS, 'g'); t.innerHTML = markup; return t.innerHTML; };
  const label = new Map(); // drawing -> "side name" (the first name drawn so: an alias draws the same)
  for (const side of ['white', 'black']) {
    for (const name of CohortPieces.names()) {
      const m = CohortPieces.markup(name, side);
      const k = m && normal(m);
      if (k && !label.has(k)) label.set(k, `${side} ${name}`);
    }
  }
  const squares = [...board.querySelectorAll('rect[data-square]')].map((r) => ({ name: r.getAttribute('data-square'), box: r.getBoundingClientRect() }));
  const squareAt = (x, y) => {
    const s = squares.find(({ box }) => x >= box.left && x < box.right && y >= box.top && y < box.bottom);
    return s ? s.name : 'off-board';
  };
  const centre = (e) => { const b = e.getBoundingClientRect(); return [b.left + b.width / 2, b.top + b.height / 2]; };
  const drawn = [];
  for (const g of board.querySelectorAll('g.units > g.unit')) {
    const art = g.querySelector(':scope > svg.piece-art');
    const glyph = g.querySelector(':scope > text.glyph');
    const letter = g.querySelector(':scope > text.letter');
    if (art) {
      drawn.push(`${squareAt(...centre(art))} ${label.get(art.innerHTML) || 'unknown drawing'}`);
    } else if (glyph) {
      drawn.push(`${squareAt(...centre(glyph))} ${glyph.classList.contains('black') ? 'black' : 'white'} glyph ${glyph.textContent}`);
    } else if (letter) {
      const disc = g.querySelector(':scope > circle.disc');
      drawn.push(`${squareAt(...centre(letter))} ${disc && disc.classList.contains('black') ? 'black' : 'white'} letter ${letter.textContent}`);
    } else {
      drawn.push(`${squareAt(...centre(g))} nothing drawn`);
    }
  }
  let want = null;
  if (units) {
    want = units.map((u) => {
      const name = pieces && pieces[u.letter.toUpperCase()];
      const m = name && CohortPieces.markup(name, u.side);
      return `${u.square} ${m ? label.get(normal(m)) : `${u.side} letter ${u.letter}`}`;
    }).sort();
  }
  return { drawn: drawn.sort(), want };
}

// The board as drawn in `page`, and what it should show: the units and piece names of `view`
// (a GameView, from the API or computed by the test). Throws if they differ.
export async function checkDrawnBoard(page, view, what, selector = '[data-testid=board]') {
  const { drawn, want } = await page.evaluate(readDrawnBoard, [selector, view.units, view.pieces]);
  check(drawn, `${what}: no board drawn`);
  const missing = want.filter((x) => !drawn.includes(x));
  const extra = drawn.filter((x) => !want.includes(x));
  check(!missing.length && !extra.length && drawn.length === want.length,
    `${what}: the drawn board differs from the position; not drawn: [${missing.join(', ')}], drawn but not there: [${extra.join(', ')}]`);
  return drawn;
}

// Run a suite: the server on a free port with a temporary SQLite file, the browser, then each
// scenario (those whose name contains the first command-line argument, if one is given) with
// its time limit. A scenario is [name, run], [name, time limit in ms, run] or
// [name, { timeoutMs, expect }, run] (`expect`: see Scenario). `ready` receives
// { dir, port, base, database, browser } before the first scenario. Prints a line per
// scenario and a total, and exits with 1 if anything failed; with `exit: false` it returns
// { passed, failed, results: [{ name, ok, message }] } instead (the runner's own test).
export async function runSuite(title, scenarios, { prefix, timeoutMs = 60000, viewport, waitMs, ready = () => {}, exit = true, log = console.log }) {
  let passed = 0;
  let failed = 0;
  const results = [];
  try {
    mkdirSync(SHOTS, { recursive: true });
    const dir = tempDir(prefix);
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const database = `sqlite://${join(dir, 't.db')}`;
    await startServer(port, database);
    const browser = await launchBrowser();
    await ready({ dir, port, base, database, browser });
    const filter = exit ? process.argv[2] : null;
    for (const entry of scenarios) {
      const [name, run] = [entry[0], entry[entry.length - 1]];
      const opts = entry.length > 2 ? (typeof entry[1] === 'number' ? { timeoutMs: entry[1] } : entry[1]) : {};
      const limit = opts.timeoutMs || timeoutMs;
      if (filter && !name.includes(filter)) continue;
      const t0 = Date.now();
      const seconds = () => ((Date.now() - t0) / 1000).toFixed(1);
      const sc = new Scenario(browser, { viewport, waitMs, expect: opts.expect || [] });
      let timer;
      try {
        const what = await Promise.race([
          run(sc),
          new Promise((_, rej) => { timer = setTimeout(() => rej(new Error(`timed out after ${limit / 1000} s`)), limit); }),
        ]);
        check(!sc.errors.length, `the page went wrong: ${sc.errors.join('; ')}`);
        passed++;
        const declared = sc.expected.length ? ` [${sc.expected.length} declared failure(s) seen]` : '';
        results.push({ name, ok: true, message: String(what) });
        log(`ok   ${name} (${seconds()} s): ${what}${declared}`);
      } catch (e) {
        failed++;
        results.push({ name, ok: false, message: String(e.message || e) });
        log(`FAIL ${name} (${seconds()} s): ${e.stack || e}`);
        if (sc.errors.length && !String(e.message).includes('the page went wrong')) log(`     the page went wrong too: ${sc.errors.join('; ')}`);
      } finally {
        clearTimeout(timer);
        await sc.close();
      }
    }
  } catch (e) {
    failed++;
    results.push({ name: 'setup', ok: false, message: String(e.message || e) });
    log(`FAIL setup: ${e.stack || e}`);
  } finally {
    await cleanup();
  }
  log(`${title}: ${passed} passed, ${failed} failed`);
  if (!exit) return { passed, failed, results };
  process.exit(failed ? 1 : 0);
}
