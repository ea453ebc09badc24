// Browser tests of Cohort in the browser (docs/wasm.md, "Analysis in the browser", "Live
// games"): a finished game analysed by the engine in the page's Web Worker, saved with the
// game and shown to a second browser without a search; a unit's steps drawn within 50 ms of
// the click in a live game whose server answers 200 ms late (the steps after one's own step
// come from the rules in the page); and the analysis board's evaluation deepening in the
// browser with no request to the server's analysis.
// Usage (from web/): COHORT_BIN=../target/release/cohort node tests/local-analysis.mjs
import { join } from 'node:path';
import { SHOTS, check, runSuite } from './harness.mjs';
import { Cohort } from '../static/wasm/cohort.js';

const WAIT_MS = 60000;
let base = '';

async function api(method, path, body) {
  const r = await fetch(`${base}${path}`, { method, headers: body ? { 'content-type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined });
  const json = await r.json();
  check(r.ok, `${method} ${path}: ${r.status} ${JSON.stringify(json)}`);
  return json;
}

// The requests a page makes to the server's analysis (searches and their polling) and to a
// game's saved analysis, as "METHOD path".
function watchRequests(page) {
  const seen = [];
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (u.pathname.startsWith('/api/')) seen.push(`${r.method()} ${u.pathname}`);
  });
  return seen;
}
const serverSearches = (seen) => seen.filter((r) => /^POST \/api\/analysis$/.test(r) || /^GET \/api\/analysis\/[0-9a-f]{32}$/.test(r));

async function savedAndShown(sc) {
  // 1. e4 f6 2. d4 g5 3. Qh5#: Black's g5 throws the game away.
  const g = await api('POST', '/api/games', { variant: 'chess', white: 'human', black: 'human' });
  const played = ['e2-e4', 'f7-f6', 'd2-d4', 'g7-g5', 'd1-h5'];
  for (const [i, step] of played.entries()) {
    await api('POST', `/api/games/${g.id}/step`, { token: g.tokens[i % 2 ? 'black' : 'white'], step });
  }
  const page = await sc.page();
  const seen = watchRequests(page);
  await page.goto(`${base}/game/${g.id}?token=${g.tokens.white}`);
  await Promise.all([page.waitForURL(/\/analysis\?game=/), page.click('[data-testid=analysis-link]')]);
  await page.waitForSelector('[data-testid=analyse-game]');
  check(await page.inputValue('[data-testid=analysis-where]') === 'local', 'the engine runs in the browser by default');
  await page.selectOption('[data-testid=analysis-ms]', '200');
  const t0 = Date.now();
  await page.click('[data-testid=analyse-game]');
  await page.waitForSelector('[data-testid=analysis-saved]', { timeout: WAIT_MS });
  const took = Date.now() - t0;
  await page.waitForSelector('[data-testid=score-chart][data-points="6"]');
  check(!serverSearches(seen).length, `no search on the server: ${serverSearches(seen)}`);
  check(seen.includes(`POST /api/games/${g.id}/analysis`), `the analysis saved: ${seen}`);
  const marksA = await page.$$eval('[data-testid=chart-mark]', (es) => es.map((e) => e.getAttribute('data-mark')));
  check(marksA.includes('blunder'), `a blunder on the chart: ${marksA}`);
  const saved = await api('GET', `/api/games/${g.id}/analysis`);
  check(saved.saved && saved.points.length === 6, `stored with the game: ${JSON.stringify(saved).slice(0, 200)}`);
  check(saved.points[3].mark === 'blunder', `g5 (turn 4) a blunder in what was stored: ${JSON.stringify(saved.points[3])}`);

  // A second browser (another context: no shared storage) opens the game's analysis.
  const other = await sc.page();
  const seen2 = watchRequests(other);
  await other.goto(`${base}/analysis?game=${g.id}`);
  await other.waitForSelector('[data-testid=score-chart][data-points="6"]');
  await other.waitForSelector('[data-testid=analysis-saved]');
  const marksB = await other.$$eval('[data-testid=chart-mark]', (es) => es.map((e) => e.getAttribute('data-mark')));
  check(JSON.stringify(marksB) === JSON.stringify(marksA), `the same marks: ${marksB} vs ${marksA}`);
  const listed = await other.$$eval('[data-testid=turn-mark]', (es) => es.map((e) => `${e.closest('[data-turn]').getAttribute('data-turn')}:${e.textContent}`));
  check(listed.includes('4:??'), `g5 (turn 4) marked ?? in the move list: ${listed}`);
  await other.waitForSelector('[data-hint-arrow]', { state: 'attached' });
  // Shown without a search: no job started in its worker, nothing asked of the server's
  // analysis, nothing posted.
  await other.waitForTimeout(500);
  const jobs = await other.evaluate(() => document.documentElement.dataset.localSearches || '0');
  check(jobs === '0', `no search in the second browser: ${jobs} started`);
  check(!serverSearches(seen2).length, `no server search in the second browser: ${serverSearches(seen2)}`);
  // (The board's views come from the module; were it not to load, they would be its only
  // posts, `POST /api/analysis/view`: no search.)
  const posts = seen2.filter((r) => r.startsWith('POST') && r !== 'POST /api/analysis/view');
  check(!posts.length, `no analysis posted by the second browser: ${posts}`);
  check(seen2.includes(`GET /api/games/${g.id}/analysis`), `the saved analysis read: ${seen2}`);
  await other.screenshot({ path: join(SHOTS, 'analysis-saved.png') });
  return `analysed in the browser in ${(took / 1000).toFixed(1)} s (6 points, marks [${marksA}]), saved, shown in a second browser with [${listed}], 0 searches there`;
}

async function instantSteps(sc) {
  // A live mini-chieftain game between two people; White plays through the page.
  const g = await api('POST', '/api/games', { variant: 'mini-chieftain', white: 'human', black: 'human' });
  const page = await sc.page();
  // Every answer of the server 200 ms late (a far server).
  const DELAY = 200;
  await page.route('**/*', async (route) => { await new Promise((r) => setTimeout(r, DELAY)); await route.continue(); });
  await page.goto(`${base}/game/${g.id}?token=${g.tokens.white}`);
  await page.waitForSelector('[data-testid=board][data-to-move=white]');
  await page.waitForFunction(() => document.documentElement.dataset.localRules === 'on', null, { timeout: WAIT_MS });
  // The first step, and the units that may move after it, as the rules say (the module in
  // node: the test recomputes nothing).
  const cohort = await Cohort.load();
  const local = cohort.newGame('mini-chieftain');
  const first = local.legalSteps().find((s) => s.kind === 'move');
  local.make(first.text);
  const after = local.legalSteps().filter((s) => s.kind === 'move' && s.from !== first.to);
  check(after.length && local.sideToMove() === 'white', `White goes on after ${first.text}`);
  // The unit with the most destinations then.
  const count = (sq) => new Set(after.filter((s) => s.from === sq).map((s) => s.to)).size;
  const unit = after.map((s) => s.from).reduce((a, b) => (count(b) > count(a) ? b : a));
  const wanted = [...new Set(after.filter((s) => s.from === unit).map((s) => s.to))].sort();
  const view0 = await api('GET', `/api/games/${g.id}`);
  // Select the unit and play the step: at once, the board shows the position after it.
  await page.click(`[data-testid=sq-${first.from}]`);
  await page.waitForSelector(`[data-target="${first.to}"]`);
  const posted = page.waitForResponse((r) => r.url().endsWith(`/api/games/${g.id}/step`));
  const ms = await page.evaluate(([to, sq]) => new Promise((done) => {
    const click = (name) => document.querySelector(`[data-testid=sq-${name}]`).dispatchEvent(new MouseEvent('click', { bubbles: true }));
    const t0 = performance.now();
    click(to);
    const t1 = performance.now();
    // Then the next unit: its destinations drawn.
    click(sq);
    const wait = () => {
      if (document.querySelector('[data-target]')) done([t1 - t0, performance.now() - t1]);
      else requestAnimationFrame(wait);
    };
    wait();
  }), [first.to, unit]);
  const drawnTargets = await page.$$eval('[data-target]', (es) => [...new Set(es.map((e) => e.getAttribute('data-target')))].sort());
  const version = await page.getAttribute('[data-testid=board]', 'data-version');
  check(ms[1] < 50, `the unit's steps drawn ${ms[1].toFixed(1)} ms after the click (under 50 ms)`);
  check(JSON.stringify(drawnTargets) === JSON.stringify(wanted), `the rules' destinations: ${drawnTargets} (want ${wanted})`);
  check(version === String(view0.version), `drawn before the server answered (version ${version})`);
  // The server still judges and stores the step: its answer comes, the page takes it.
  await posted;
  const stored = await api('GET', `/api/games/${g.id}`);
  check(stored.turn_steps.join(' ') === first.text, `the server stored ${first.text}: ${stored.turn_steps}`);
  await page.waitForSelector(`[data-testid=board][data-version="${stored.version}"]`);
  // The second step goes too (played from the local view, posted after the first).
  const second = after.find((s) => s.from === unit);
  await page.click(`[data-testid=sq-${second.to}]`);
  await page.waitForFunction(async ([id, n]) => (await (await fetch(`/api/games/${id}`)).json()).turn_steps.length === n, [g.id, 2], { timeout: WAIT_MS });
  const end = await api('GET', `/api/games/${g.id}`);
  check(end.turn_steps.join(' ') === `${first.text} ${second.text}`, `both steps stored: ${end.turn_steps}`);
  await page.screenshot({ path: join(SHOTS, 'live-local-steps.png') });
  local.free();
  return `with every answer 200 ms late: step shown in ${ms[0].toFixed(1)} ms, the next unit's ${drawnTargets.length} destinations drawn ${ms[1].toFixed(1)} ms after the click; the server stored ${end.turn_steps.join(' ')}`;
}

async function deepening(sc) {
  const page = await sc.page();
  const seen = watchRequests(page);
  await page.goto(`${base}/analysis?variant=chess`);
  await page.waitForSelector('[data-testid=evaluate]');
  await page.click('[data-testid=evaluate]');
  // Each finished depth is shown as it comes: collect the depths drawn.
  const depths = await page.evaluate(() => new Promise((done) => {
    const got = [];
    const t0 = performance.now();
    const look = () => {
      const e = document.querySelector('[data-testid=engine-depth]');
      if (e && e.getAttribute('data-live') === 'yes') {
        const d = Number(e.getAttribute('data-depth'));
        if (!got.length || got[got.length - 1] !== d) got.push(d);
      }
      if (got.length >= 3 || performance.now() - t0 > 20000) done(got);
      else requestAnimationFrame(look);
    };
    look();
  }));
  check(depths.length >= 2 && depths.every((d, i) => i === 0 || d > depths[i - 1]), `the evaluation deepens live: depths ${depths}`);
  // It finishes (5 s) with the engine's turn.
  await page.waitForSelector('[data-testid=engine-best]', { timeout: WAIT_MS });
  const best = await page.textContent('[data-testid=engine-best]');
  check(!serverSearches(seen).length, `no request to the server's analysis: ${serverSearches(seen)}`);
  const jobs = await page.evaluate(() => document.documentElement.dataset.localSearches);
  check(jobs === '1', `one search in the browser: ${jobs}`);
  return `depths ${depths} shown live, then the turn ${best.trim()}; requests to the server's analysis: ${serverSearches(seen).length}`;
}

// A finished game of mini-chieftain (several steps a turn, captures), played here with the
// module's legal steps and ended by resigning.
async function playedGame(turns) {
  const g = await api('POST', '/api/games', { variant: 'mini-chieftain', white: 'human', black: 'human' });
  const cohort = await Cohort.load();
  const local = cohort.newGame('mini-chieftain');
  let captures = 0;
  for (let n = 0; n < turns && !local.outcome(); ) {
    const side = local.sideToMove();
    const steps = local.legalSteps();
    // A capture where there is one, else the first move, and the turn ended after two steps.
    const pick = steps.find((s) => s.removes.length) || (local.view().command_info.moves >= 2 && steps.find((s) => s.kind === 'end')) || steps.find((s) => s.kind === 'move') || steps[0];
    if (pick.removes.length) captures++;
    await api('POST', `/api/games/${g.id}/step`, { token: g.tokens[side], step: pick.text });
    local.make(pick.index);
    if (local.sideToMove() !== side) n++;
  }
  if (!local.outcome()) await api('POST', `/api/games/${g.id}/resign`, { token: g.tokens.white });
  return { g, captures };
}

// The analysis board stepped through a finished game from start to end, then one free step:
// each point's board as drawn (the SVG) and its position.
async function steppedThrough(page, base, id) {
  await page.goto(`${base}/analysis?game=${id}`);
  await page.waitForSelector('[data-testid=board][data-at="0"]');
  const shown = [];
  const grab = async () => shown.push(`${await attr(page, '[data-testid=board]', 'data-position')}\n${await page.innerHTML('[data-testid=board]')}`);
  await grab();
  for (;;) {
    const at = await attr(page, '[data-testid=board]', 'data-at');
    await page.click('[data-testid=analysis-next]');
    await page.waitForTimeout(50);
    await page.waitForFunction((a) => document.querySelector('[data-testid=board]').getAttribute('data-at') !== a, at, { timeout: 2000 }).catch(() => {});
    if (await attr(page, '[data-testid=board]', 'data-at') === at) break;
    await grab();
  }
  return { shown };
}

const attr = (page, sel, name) => page.getAttribute(sel, name);

async function localViews(sc) {
  const { g, captures } = await playedGame(8);
  const game = await api('GET', `/api/games/${g.id}`);
  const steps = allSteps(game);
  // With the module: every view from the rules in the page.
  const page = await sc.page();
  const seen = watchRequests(page);
  const local = await steppedThrough(page, base, g.id);
  const views = seen.filter((r) => r === 'POST /api/analysis/view');
  check(views.length === 0, `no POST /api/analysis/view with the module: ${views.length} made`);
  check(await page.evaluate(() => document.documentElement.dataset.localViews) === 'on', 'the views come from the module');
  check(local.shown.length === game.turns.length + 1, `a board at each point: ${local.shown.length} for ${game.turns.length} turns`);
  // A free step from the last point (the first unit that may move, to its first target),
  // from the local rules too.
  await page.click(`[data-testid=sq-${await firstMovable(page)}]`);
  const target = await page.getAttribute('[data-target]', 'data-target');
  await page.click(`[data-testid=sq-${target}]`);
  await page.waitForSelector('[data-testid=board]:not([data-free=""])');
  const freeLocal = `${await attr(page, '[data-testid=board]', 'data-free')}\n${await page.innerHTML('[data-testid=board]')}`;
  check(!seen.includes('POST /api/analysis/view'), `a free step asks the server nothing: ${seen}`);
  // Without the module (not loadable): the server's views, the same boards.
  const other = await sc.page();
  await other.route('**/wasm/cohort.wasm', (route) => route.abort('aborted'));
  const seen2 = watchRequests(other);
  const server = await steppedThrough(other, base, g.id);
  check(await other.evaluate(() => document.documentElement.dataset.localViews) === 'off', 'without the module the server\'s views');
  const asked = seen2.filter((r) => r === 'POST /api/analysis/view').length;
  check(asked === server.shown.length, `the server's views asked for: ${asked} for ${server.shown.length} points`);
  const differ = local.shown.map((b, i) => (b === server.shown[i] ? null : i)).filter((i) => i !== null);
  check(local.shown.length === server.shown.length && !differ.length,
    `the boards drawn from the module's views are the server's: points ${differ} differ${differ.length ? `\n${local.shown[differ[0]].slice(0, 3000)}\n----\n${server.shown[differ[0]].slice(0, 3000)}` : ''}`);
  await other.click(`[data-testid=sq-${await firstMovable(other)}]`);
  await other.click(`[data-testid=sq-${target}]`);
  await other.waitForSelector('[data-testid=board]:not([data-free=""])');
  const freeServer = `${await attr(other, '[data-testid=board]', 'data-free')}\n${await other.innerHTML('[data-testid=board]')}`;
  check(freeLocal === freeServer, `the board after a free step is the server's:\n${freeLocal.slice(0, 2000)}\n----\n${freeServer.slice(0, 2000)}`);
  return `${steps} steps (${captures} captures) in ${game.turns.length} turns stepped through: 0 POST /api/analysis/view with the module (${asked} without it), ${local.shown.length} boards and a free step drawn the same both ways`;
}

const allSteps = (v) => v.turns.reduce((n, t) => n + t.steps.length, 0);
// The first unit that may move, as the board marks it.
const firstMovable = (page) => page.getAttribute('[data-movable]', 'data-movable');

await runSuite('local analysis browser tests', [
  ['local: a finished game analysed in the browser, saved, shown elsewhere without a search', 120000, savedAndShown],
  ['local: a unit\'s steps within 50 ms in a live game 200 ms away', 60000, instantSteps],
  ['local: the analysis board deepens in the browser, no server analysis', 60000, deepening],
  ['local: the analysis board steps through a game with the module\'s views, drawn as the server\'s', 90000, localViews],
], {
  prefix: 'cohort-local-analysis-', waitMs: WAIT_MS,
  ready: (env) => ({ base } = env),
});
