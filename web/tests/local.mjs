// Browser test of local play (docs/wasm.md, "Local play" and "cohort site"): the page
// `/local` of `cohort serve` plays against the engine with the rules on the page's thread
// and the engine in a Web Worker, and makes no request once loaded; a click is answered
// while the engine searches; undo, take back, the record (checked with `cohort replay`) and
// "Continue on the server"; a pasted variant file (a bad one reported); the static site
// `cohort site DIR` writes, served by `python3 -m http.server`, plays too.
// Usage (from web/, after scripts/wasm-build): COHORT_BIN=../target/release/cohort node tests/local.mjs
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, check, cleanup, freePort, launchBrowser, startServer, tempDir } from './harness.mjs';

const children = [];
const dirs = [];

// The page's state, read from its body's data attributes.
const body = (page) => page.evaluate(() => ({ ...document.body.dataset }));

// Wait until the person may play (or the game is over): the engine is not thinking and it is
// the person's turn.
async function waitMyTurn(page, me, ms = 30000) {
  await page.waitForFunction((side) => {
    const d = document.body.dataset;
    return d.over === '1' || (d.thinking === '0' && d.toMove === side);
  }, me, { timeout: ms });
}

// The person's turn, by clicks: a unit, then one of its destinations (a choice if several
// steps share the squares), until End turn is possible; then End turn. The step is picked
// from the module's legal steps (the test reads them; the page draws them).
async function playMyTurn(page) {
  for (let i = 0; i < 40; i++) {
    const info = await page.evaluate(() => {
      const s = window.cohortLocal.state;
      const steps = s.game.legalSteps();
      const open = s.log.length && !s.log[s.log.length - 1].end;
      return { steps, open, toMove: s.game.sideToMove(), me: s.me, over: !!s.game.outcome() };
    });
    if (info.over || info.toMove !== info.me) return;
    const end = info.steps.find((x) => x.kind === 'end');
    if (end && info.open) {
      await page.click('[data-testid=local-end]');
      return;
    }
    const moves = info.steps.filter((x) => x.from && x.to && x.kind !== 'lead');
    const step = moves.length ? moves[Math.floor(Math.random() * moves.length)] : null;
    if (step) {
      await page.click(`[data-testid="sq-${step.from}"]`);
      const drawn = await page.locator('rect.target-sq').count();
      check(drawn > 0, `a click on ${step.from} draws its destinations`);
      await page.click(`[data-testid="sq-${step.to}"]`);
      if (await page.locator('[data-testid=local-choice]').count()) {
        await page.click('[data-testid=local-choice] >> nth=0');
      }
    } else if (await page.locator('[data-testid=local-other-step]').count()) {
      await page.click('[data-testid=local-other-step] >> nth=0');
    } else if (end) {
      await page.click('[data-testid=local-end]');
      return;
    } else {
      // A lead step (Fusion) or another kind this test does not click.
      throw new Error(`no step to click among ${JSON.stringify(info.steps.slice(0, 5))}`);
    }
  }
  throw new Error('the turn did not end in 40 steps');
}

// Play `turns` full turns (the person's and the engine's), or until the game ends; with
// `again`, a game that ends first is followed by a new one (New game, on the same page),
// until `turns` full turns are played in all. The turns played and the games started.
async function playTurns(page, turns, again = false) {
  const me = (await body(page)).toMove === 'black' ? 'black' : 'white';
  const target = 2 * turns;
  let before = 0;
  let games = 1;
  for (;;) {
    await waitMyTurn(page, me);
    const d = await body(page);
    const played = before + Number(d.turns);
    if (played >= target || (d.over === '1' && !again)) return { turns: played, games, over: d.over === '1' };
    if (d.over === '1') {
      before = played;
      games += 1;
      await page.click('[data-testid=local-start]');
      await page.waitForFunction(() => document.body.dataset.over === '0' && document.body.dataset.turns === '0');
      continue;
    }
    await playMyTurn(page);
  }
}

async function openLocal(browser, url, variant, ms) {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(url);
  await page.waitForFunction(() => document.body.dataset.ready === '1' && document.body.dataset.engine === 'ready', null, { timeout: 30000 });
  await page.selectOption('[data-testid=local-variant]', variant);
  await page.selectOption('[data-testid=local-time]', String(ms));
  await page.click('[data-testid=local-start]');
  await page.waitForFunction((v) => document.querySelector('[data-testid=local-game] h1 .vid')?.textContent === v, variant);
  return { page, errors };
}

try {
  const dir = tempDir('cohort-local-');
  const port = await freePort();
  await startServer(port, `sqlite://${join(dir, 'db.sqlite')}?mode=rwc`);
  const base = `http://127.0.0.1:${port}`;
  const browser = await launchBrowser();

  // 1. Ten turns against the engine in chesimals-1 and in chessma-84, every request after
  // the page's load aborted (and counted: none may be made).
  for (const variant of ['chesimals-1', 'chessma-84']) {
    const t0 = Date.now();
    const { page, errors } = await openLocal(browser, `${base}/local`, variant, 100);
    const after = [];
    await page.route('**/*', (route) => { after.push(route.request().url()); route.abort(); });
    // Ten full turns, in a second game (New game, no request) if the engine wins first.
    const { turns, games } = await playTurns(page, 10, true);
    check(turns >= 20, `${variant}: ${turns} turns played`);
    check(after.length === 0, `${variant}: requests after the page's load: ${after.join(', ')}`);
    check(errors.length === 0, `${variant}: page errors: ${errors.join('; ')}`);
    console.log(`local ${variant}: ${turns / 2} full turns against the engine (100 ms a turn) in ${Date.now() - t0} ms, ${games} game(s), ${after.length} requests after load`);
    await page.close();
  }

  // 2. A click is answered within 100 ms while the engine searches for 3 s (a hint).
  {
    const { page, errors } = await openLocal(browser, `${base}/local`, 'chieftain', 3000);
    await waitMyTurn(page, 'white');
    await page.click('[data-testid=local-hint]');
    await page.waitForFunction(() => document.body.dataset.hinting === '1');
    const started = Date.now();
    await page.waitForTimeout(500);
    const from = await page.evaluate(() => window.cohortLocal.state.game.legalSteps().find((s) => s.from && s.to).from);
    await page.click(`[data-testid="sq-${from}"]`);
    const ms = Number((await body(page)).answerMs);
    const still = (await body(page)).hinting === '1';
    const drawn = await page.locator('rect.target-sq').count();
    check(still && Date.now() - started < 2500, 'the click came while the engine searched');
    check(drawn > 0, `the destinations of ${from} are drawn`);
    check(ms >= 0 && ms < 100, `the click was answered in ${ms} ms`);
    await page.waitForFunction(() => document.body.dataset.hinting === '0', null, { timeout: 10000 });
    const hint = await page.locator('[data-testid=local-hint-text]').textContent();
    check(/Hint: /.test(hint), `the hint is shown: ${hint}`);
    check(errors.length === 0, `page errors: ${errors.join('; ')}`);
    console.log(`local: during a 3 s engine search a click on ${from} was answered in ${ms} ms (destinations drawn: ${drawn}); hint "${hint}"`);
    await page.close();
  }

  // 3. Undo, take back, the record (cohort replay accepts it), and "Continue on the server".
  {
    const { page, errors } = await openLocal(browser, `${base}/local`, 'mini-chieftain', 100);
    await playTurns(page, 2);
    const before = (await body(page)).position;
    const steps = Number((await body(page)).steps);
    // One step of a new turn, then Undo: the same position again.
    const step = await page.evaluate(() => window.cohortLocal.state.game.legalSteps().find((s) => s.from && s.to));
    await page.click(`[data-testid="sq-${step.from}"]`);
    await page.click(`[data-testid="sq-${step.to}"]`);
    check(Number((await body(page)).steps) === steps + 1, 'a step was made');
    check(await page.isEnabled('[data-testid=local-undo]'), 'Undo is offered mid-turn');
    await page.click('[data-testid=local-undo]');
    let d = await body(page);
    check(d.position === before && Number(d.steps) === steps, `Undo: back to ${d.position} (want ${before})`);
    // Take back: the person's last turn and the engine's answer.
    const turnsBefore = Number(d.turns);
    await page.click('[data-testid=local-takeback]');
    await waitMyTurn(page, 'white');
    d = await body(page);
    check(Number(d.turns) === turnsBefore - 2, `Take back: ${d.turns} turns (want ${turnsBefore - 2})`);
    // Another turn, then a step of the next (an open turn in the record).
    await playTurns(page, turnsBefore / 2);
    const s2 = await page.evaluate(() => window.cohortLocal.state.game.legalSteps().find((s) => s.from && s.to));
    await page.click(`[data-testid="sq-${s2.from}"]`);
    await page.click(`[data-testid="sq-${s2.to}"]`);
    const position = (await body(page)).position;
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=local-download]')]);
    const file = join(dir, 'local-record.txt');
    await download.saveAs(file);
    const text = readFileSync(file, 'utf8');
    check(/\[Variant "mini-chieftain"\]/.test(text) && /,\.\.\.\s*\n\*\s*$/.test(text), `the record: ${text}`);
    const replay = spawnSync(BIN, ['replay', file], { encoding: 'utf8' });
    check(replay.status === 0, `cohort replay: ${replay.status} ${replay.stderr}`);
    const last = replay.stdout.trim().split('\n').pop();
    check(last === position, `cohort replay ends at ${last}, the page at ${position}`);
    // A bad variant file: a clear message, the game goes on.
    await page.click('[data-testid=local-setup] summary');
    await page.fill('[data-testid=local-text]', '[broken\nthis is not a variant file');
    await page.click('[data-testid=local-start]');
    const bad = await page.locator('[data-testid=local-setup-error]').textContent();
    check(/does not load/.test(bad), `a bad variant file: ${bad}`);
    check((await body(page)).position === position, 'the game is kept after a bad file');
    await page.fill('[data-testid=local-text]', '');
    // Continue on the server: a game at the same position, opened.
    await page.click('[data-testid=local-carry]');
    await page.waitForURL(/\/game\/[A-Za-z0-9]+\?token=/, { timeout: 15000 });
    const id = new URL(page.url()).pathname.split('/').pop();
    const view = await (await fetch(`${base}/api/games/${id}`)).json();
    check(view.position === position, `the server game is at ${view.position}, the local one was at ${position}`);
    check(errors.length === 0, `page errors: ${errors.join('; ')}`);
    console.log(`local: undo and take back; the record (${text.split('\n').length} lines) replays with cohort replay to the page's position; continued on the server as game ${id} at the same position`);
    await page.close();
  }

  // 5. A variant file pasted: played, and its record (with the file in it) replays.
  {
    const TINY = `# Tiny Test Chieftain: two Chieftains a side on 6x6
[tiny-test]
base = mini-chieftain
name = Tiny Test Chieftain
board = 6x6
piece C = Chieftain, K^, leader royal
setup = 1ccm2/6/6/6/6/2CMC1 w
`;
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${base}/local`);
    await page.waitForFunction(() => document.body.dataset.engine === 'ready', null, { timeout: 30000 });
    await page.selectOption('[data-testid=local-time]', '100');
    await page.click('[data-testid=local-setup] summary');
    await page.fill('[data-testid=local-text]', TINY.replace('K^, leader', 'K^Y, leader'));
    await page.click('[data-testid=local-start]');
    const bad = await page.locator('[data-testid=local-setup-error]').textContent();
    check(/does not load/.test(bad) && /Y/.test(bad), `a bad variant file is reported: ${bad}`);
    await page.fill('[data-testid=local-text]', TINY);
    await page.click('[data-testid=local-start]');
    await page.waitForFunction(() => document.querySelector('[data-testid=local-game] h1 .vid')?.textContent === 'tiny-test');
    check((await page.locator('[data-testid=local-setup-error]').textContent()) === '', 'no error for a good file');
    const { turns } = await playTurns(page, 2);
    const position = (await body(page)).position;
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=local-download]')]);
    const file = join(dir, 'tiny-record.txt');
    await download.saveAs(file);
    const text = readFileSync(file, 'utf8');
    check(/\[VariantFile "# Tiny Test Chieftain/.test(text), `the record carries the file: ${text}`);
    const replay = spawnSync(BIN, ['replay', file], { encoding: 'utf8' });
    check(replay.status === 0 && replay.stdout.trim().split('\n').pop() === position,
      `cohort replay of the custom record: ${replay.status} ${replay.stdout} ${replay.stderr} (want ${position})`);
    check(errors.length === 0, `page errors: ${errors.join('; ')}`);
    console.log(`local: a bad variant file reported ("${bad}"); a pasted file played ${turns / 2} full turns; its record (VariantFile) replays with cohort replay`);
    await page.close();
  }

  // 4. The static site: `cohort site DIR`, served by python3 -m http.server, plays.
  {
    const site = mkdtempSync(join(tmpdir(), 'cohort-site-'));
    dirs.push(site);
    const made = spawnSync(BIN, ['site', site], { encoding: 'utf8' });
    check(made.status === 0, `cohort site: ${made.status} ${made.stderr}`);
    const missing = spawnSync(BIN, ['site', join(site, 'x')], { encoding: 'utf8', env: { ...process.env, COHORT_WASM: join(site, 'none.wasm') } });
    check(missing.status === 2 && /not built/.test(missing.stderr), `cohort site without the module: ${missing.status} ${missing.stderr}`);
    const sport = await freePort();
    const http = spawn('python3', ['-m', 'http.server', String(sport), '--bind', '127.0.0.1', '--directory', site], { stdio: 'ignore' });
    children.push(http);
    const sbase = `http://127.0.0.1:${sport}`;
    for (let i = 0; ; i++) {
      try { if ((await fetch(`${sbase}/index.html`)).ok) break; } catch { /* not yet */ }
      check(i < 100, 'python3 -m http.server did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
    const page0 = await browser.newPage();
    await page0.goto(`${sbase}/`);
    await page0.click('[data-testid=site-variant-micro-chieftain]');
    await page0.waitForFunction(() => document.body.dataset.ready === '1', null, { timeout: 30000 });
    await page0.close();
    const { page, errors } = await openLocal(browser, `${sbase}/local.html`, 'micro-chieftain', 100);
    const apis = [];
    page.on('request', (r) => { if (new URL(r.url()).pathname.startsWith('/api')) apis.push(r.url()); });
    const { turns } = await playTurns(page, 3);
    check(turns >= 6 || (await body(page)).over === '1', `static site: ${turns} turns`);
    check(await page.locator('[data-testid=local-carry]').count() === 0, 'no "Continue on the server" on the static site');
    check(apis.length === 0, `static site: API requests ${apis.join(', ')}`);
    check(errors.length === 0, `static site page errors: ${errors.join('; ')}`);
    console.log(`static site (cohort site, python3 -m http.server): ${turns / 2} full turns against the engine`);
    await page.close();

    // 5. The static site's analysis board and rules pages, linked from its index: the board
    // evaluates a position in the browser (a score and a line appear), each built-in
    // variant's rules page shows what the server's /rules/<id> shows; every request goes to
    // the static host and none fails.
    const spage = await browser.newPage();
    const requests = [];
    const failures = [];
    spage.on('request', (r) => requests.push(r.url()));
    spage.on('requestfailed', (r) => failures.push(`${r.url()} failed: ${r.failure()?.errorText}`));
    spage.on('response', (r) => { if (r.status() >= 400) failures.push(`${r.url()} -> ${r.status()}`); });
    spage.on('pageerror', (e) => failures.push(`page error: ${e.message}`));
    spage.on('console', (m) => { if (m.type() === 'error') failures.push(`console error: ${m.text()}`); });
    await spage.goto(`${sbase}/`);
    await Promise.all([spage.waitForURL(/analysis\.html\?variant=chieftain$/), spage.click('[data-testid=site-analysis-chieftain]')]);
    await spage.waitForSelector('[data-testid=board][data-position]');
    check(await spage.locator('[data-testid=analysis-where]').count() === 0, 'no "Analyse on the server" on the static site');
    // A free step, then its position evaluated.
    const unit = await spage.getAttribute('[data-movable]', 'data-movable');
    await spage.click(`[data-testid=sq-${unit}]`);
    const target = await spage.getAttribute('[data-target]', 'data-target');
    await spage.click(`[data-testid=sq-${target}]`);
    await spage.waitForSelector('[data-testid=board]:not([data-free=""])');
    await spage.click('[data-testid=evaluate]');
    await spage.waitForSelector('[data-testid=engine-score]', { timeout: 30000 });
    await spage.waitForSelector('[data-testid=engine-best]', { timeout: 30000 });
    const score = (await spage.textContent('[data-testid=engine-score]')).trim();
    const line = (await spage.textContent('[data-testid=engine-line]')).match(/Line: (.*)/);
    check(score && line && line[1].trim(), `a score and a line on the static site's analysis board: ${score} / ${line}`);
    const depth = await spage.getAttribute('[data-testid=engine-depth]', 'data-depth');
    // Every built-in variant's rules page, from the index's links, as the server shows it.
    const ids = await spage.evaluate(async () => [...new DOMParser().parseFromString(await (await fetch('index.html')).text(), 'text/html')
      .querySelectorAll('[data-testid^=site-rules-]')].map((a) => a.getAttribute('data-testid').slice('site-rules-'.length)));
    const server = await browser.newPage();
    for (const id of ids) {
      await spage.goto(`${sbase}/index.html`);
      await Promise.all([spage.waitForURL((u) => u.pathname.endsWith('/rules.html') && u.searchParams.get('variant') === id),
        spage.click(`[data-testid="site-rules-${id}"]`)]);
      await spage.waitForSelector('[data-testid=rules-victory]');
      await server.goto(`${base}/rules/${id}`);
      await server.waitForSelector('[data-testid=rules-victory]');
      const [mine, theirs] = [await spage.innerText('[data-testid=rules]'), await server.innerText('[data-testid=rules]')];
      check(mine === theirs, `the static site's rules of ${id} are the server's:\n${mine.slice(0, 1500)}\n----\n${theirs.slice(0, 1500)}`);
    }
    await server.close();
    const elsewhere = requests.filter((u) => !u.startsWith(`${sbase}/`));
    check(ids.length >= 10, `rules pages linked from the index: ${ids.length}`);
    check(!elsewhere.length, `static site: requests to another host: ${elsewhere.join(', ')}`);
    check(!failures.length, `static site: failed requests or errors: ${failures.join('; ')}`);
    const apiFiles = new Set(requests.filter((u) => new URL(u).pathname.startsWith('/api/')).map((u) => new URL(u).pathname));
    console.log(`static site: the analysis board evaluated a chieftain position in the browser (${score}, depth ${depth}); ${ids.length} rules pages drawn as the server's from ${apiFiles.size} files api/variants/<id>.json; ${requests.length} requests, all to the static host, none failed`);
    await spage.close();
  }
} catch (e) {
  console.error(e.stack || e.message);
  process.exitCode = 1;
} finally {
  for (const c of children) c.kill('SIGKILL');
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  await cleanup();
}
