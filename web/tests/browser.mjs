// Browser tests: playwright-core drives Debian's chromium (never a downloaded browser)
// against a real `cohort serve` on a temporary SQLite file. Each scenario asserts what a
// player would see; any failure exits non-zero. Usage (from web/):
//   COHORT_BIN=../target/release/cohort node tests/browser.mjs
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
const BIN = resolve(process.env.COHORT_BIN || join(here, '../../target/release/cohort'));
const SHOTS = resolve(join(here, '../../docs/screenshots'));
const BROWSER = process.env.CHROMIUM || '/usr/bin/chromium';

function check(cond, msg) {
  if (!cond) throw new Error(`check failed: ${msg}`);
}

async function freePort() {
  return new Promise((res, rej) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => res(p)); });
    s.on('error', rej);
  });
}

function startServer(port, database) {
  return new Promise((res, rej) => {
    const child = spawn(BIN, ['serve', '--port', String(port), '--database', database], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const t = setTimeout(() => rej(new Error(`server did not start: ${out}`)), 20000);
    child.stdout.on('data', (d) => { out += d; if (out.includes('open http://')) { clearTimeout(t); res(child); } });
    child.stderr.on('data', (d) => { out += d; process.stderr.write(`[server] ${d}`); });
    child.on('exit', (c) => { clearTimeout(t); rej(new Error(`server exited ${c}: ${out}`)); });
  });
}

const dir = mkdtempSync(join(tmpdir(), 'cohort-browser-'));
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const server = await startServer(port, `sqlite://${join(dir, 'games.db')}`);
const browser = await chromium.launch({
  executablePath: BROWSER,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});

async function getView(gameId, token) {
  const r = await fetch(`${base}/api/games/${gameId}${token ? `?token=${token}` : ''}`);
  return r.json();
}

function gameOf(page) {
  const u = new URL(page.url());
  return { id: u.pathname.split('/').pop(), token: u.searchParams.get('token') };
}

async function newPage(context) {
  const page = await context.newPage();
  page.on('pageerror', (e) => { throw new Error(`page error: ${e.message}`); });
  page.setDefaultTimeout(30000);
  return page;
}

async function version(page) {
  return Number(await page.getAttribute('[data-testid=board]', 'data-version'));
}

async function waitVersionAbove(page, v, what) {
  try {
    await page.waitForFunction((old) => {
      const b = document.querySelector('[data-testid=board]');
      return b && Number(b.dataset.version) > old;
    }, v, { timeout: 30000 });
  } catch {
    throw new Error(`${what}: the board never changed from version ${v}`);
  }
}

/** Click one legal step (its unit, then its destination) and wait for the board to show it. */
async function clickStep(page, step) {
  const v0 = await version(page);
  await page.click(`[data-testid=sq-${step.from}]`);
  await page.waitForFunction((sq) => document.querySelector('[data-testid=board]').dataset.selected === sq, step.from);
  check(await page.locator(`[data-target=${step.to}]`).count() === 1, `destination ${step.to} of ${step.from} is highlighted`);
  await page.click(`[data-testid=sq-${step.to}]`);
  await waitVersionAbove(page, v0, `step ${step.text}`);
}

/** A legal step that is not a capture (keeps turns simple), preferring a forward move. */
function pickStep(view, seed = 0) {
  const quiet = view.legal.filter((s) => s.from && !s.text.includes('x'));
  const list = quiet.length ? quiet : view.legal.filter((s) => s.from);
  return list[(seed * 7919) % list.length];
}

async function playTurnByClicking(page, steps, seed) {
  const { id, token } = gameOf(page);
  const played = [];
  for (let i = 0; i < steps; i++) {
    const view = await getView(id, token);
    if (!view.legal.some((s) => s.from)) break;
    const s = pickStep(view, seed + i);
    await clickStep(page, s);
    played.push(s.text);
    const shown = await page.textContent('[data-testid=turn-steps]');
    check(shown.includes(s.text), `the turn shows ${s.text} (shows "${shown}")`);
  }
  const v0 = await version(page);
  await page.click('[data-testid=end-turn]');
  await waitVersionAbove(page, v0, 'end of turn');
  return played;
}

async function vsAi(variant, stepsWanted, shotName) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await newPage(context);
  await page.goto(base + '/');
  await page.selectOption(`[data-testid=opponent-${variant}]`, 'engine:200');
  await page.click(`[data-testid=start-${variant}]`);
  await page.waitForSelector('[data-testid=board] svg');
  const { id, token } = gameOf(page);
  check(token && token.length === 32, 'the creator holds a seat token');
  const played = await playTurnByClicking(page, stepsWanted, 3);
  check(played.length >= Math.min(2, stepsWanted), `${variant}: played ${played.length} steps in one turn by clicking`);
  // The AI replies: its turn appears in the move list and it is our turn again.
  await page.waitForFunction(() => {
    const b = document.querySelector('[data-testid=board]');
    return b.dataset.toMove === 'white' && document.querySelectorAll('[data-testid=move-list] li').length >= 2;
  }, null, { timeout: 30000 });
  const moves = await page.locator('[data-testid=move-list] li').allTextContents();
  check(moves[0].includes(played[0]), `${variant}: our turn is in the move list (${moves[0]})`);
  const view = await getView(id, token);
  check(view.turns.length === 2 && view.turns[1].side === 'black', `${variant}: the AI played a turn`);
  // Reload: the same position, drawn the same way.
  const before = await page.getAttribute('[data-testid=board]', 'data-position');
  const unitsBefore = await page.locator('[data-testid=board] g.unit').count();
  await page.reload();
  await page.waitForSelector('[data-testid=board] svg');
  check(await page.getAttribute('[data-testid=board]', 'data-position') === before, `${variant}: same position after reload`);
  check(await page.locator('[data-testid=board] g.unit').count() === unitsBefore, `${variant}: same units after reload`);
  check(before === view.position, `${variant}: the page shows the stored position`);
  if (shotName) {
    // Mid-turn, a unit selected, the command drawn.
    const s = pickStep(await getView(id, token), 1);
    await clickStep(page, s);
    const next = pickStep(await getView(id, token), 2);
    await page.click(`[data-testid=sq-${next.from}]`);
    await page.click('[data-testid=show-command]');
    await page.waitForSelector('[data-testid=board] .command');
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, shotName) });
  }
  await context.close();
  return `${variant}: ${played.length}-step turn by clicking (${played.join(' ')}), AI replied, same position after reload`;
}

async function humanVsHuman() {
  const ctxA = await browser.newContext({ viewport: { width: 1300, height: 850 } });
  const ctxB = await browser.newContext({ viewport: { width: 1300, height: 850 } });
  const a = await newPage(ctxA);
  const b = await newPage(ctxB);
  await a.goto(base + '/');
  await a.selectOption('[data-testid=opponent-chesimals-1]', 'human');
  await a.click('[data-testid=start-chesimals-1]');
  await a.waitForSelector('[data-testid=invite-link]');
  const invite = await a.inputValue('[data-testid=invite-link]');
  const { id, token: whiteToken } = gameOf(a);
  const blackToken = new URL(invite).searchParams.get('token');
  check(blackToken && blackToken !== whiteToken, 'the invitation carries the other seat token');
  await b.goto(invite);
  await b.waitForSelector('[data-testid=board] svg');
  check((await b.textContent('[data-testid=status]')).includes('waiting'), 'Black waits for White');

  // Black cannot move for White: clicking a White unit does nothing but say why.
  const v0 = await version(b);
  const white = pickStep(await getView(id, whiteToken), 0);
  await b.click(`[data-testid=sq-${white.from}]`);
  check((await b.textContent('[data-testid=error]')).includes("White's turn"), 'Black is told it is White\'s turn');
  check(await version(b) === v0, 'nothing changed');
  // Nor through the API with its token.
  let r = await fetch(`${base}/api/games/${id}/step`, { method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: blackToken, step: white.text }) });
  let body = await r.json();
  check(r.status === 409 && body.error, `Black's token moving White's unit: ${r.status} ${JSON.stringify(body)}`);
  check((await getView(id)).version === v0, 'the refused step changed nothing');

  // White plays a turn by clicking; Black sees it live, without reloading.
  const vb = await version(b);
  const playedA = await playTurnByClicking(a, 2, 5);
  await waitVersionAbove(b, vb, 'Black\'s page (live update)');
  await b.waitForFunction(() => document.querySelector('[data-testid=board]').dataset.toMove === 'black');
  const seen = await b.locator('[data-testid=move-list] li').allTextContents();
  check(seen[0].includes(playedA[0]), `Black sees White's turn live (${seen[0]})`);

  // On Black's turn, Black's token still cannot move a White unit.
  const whiteUnit = (await getView(id)).units.find((u) => u.side === 'white').square;
  r = await fetch(`${base}/api/games/${id}/step`, { method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: blackToken, step: `${whiteUnit}-${whiteUnit.replace(/\d+/, (n) => String(Number(n) + 1))}` }) });
  body = await r.json();
  check(r.status === 400 && body.error, `Black moving a White unit on Black's turn: ${r.status} ${JSON.stringify(body)}`);

  // Black plays; White sees it.
  const va = await version(a);
  const playedB = await playTurnByClicking(b, 1, 9);
  await waitVersionAbove(a, va, 'White\'s page (live update)');
  await a.waitForFunction(() => document.querySelector('[data-testid=board]').dataset.toMove === 'white');
  const seenA = await a.locator('[data-testid=move-list] li').allTextContents();
  check(seenA.length === 2 && seenA[1].includes(playedB[0]), `White sees Black's turn (${seenA})`);

  // A spectator sees the game and no controls.
  const c = await newPage(ctxB);
  await c.goto(`${base}/game/${id}`);
  await c.waitForSelector('[data-testid=board] svg');
  check(await c.locator('[data-testid=end-turn]').count() === 0, 'a spectator has no End-turn button');

  // Undo inside a turn, then a draw by agreement, then the replay.
  const s = pickStep(await getView(id, whiteToken), 2);
  await clickStep(a, s);
  const vu = await version(a);
  await a.click('[data-testid=undo]');
  await waitVersionAbove(a, vu, 'undo');
  check((await a.textContent('[data-testid=turn-steps]')).includes('no step'), 'undo took the step back');
  const vd = await version(b);
  await a.click('[data-testid=offer-draw]');
  await waitVersionAbove(b, vd, 'draw offer');
  await b.click('[data-testid=accept-draw]');
  await a.waitForFunction(() => document.querySelector('[data-testid=status]').textContent.includes('Draw'));
  await a.goto(`${base}/game/${id}?replay`);
  await a.waitForSelector('[data-testid=replay-slider]');
  await a.click('[data-testid=replay-first]');
  await a.waitForFunction(() => document.querySelector('[data-testid=status]').textContent.includes('Start position'));
  await a.click('[data-testid=replay-next]');
  await a.waitForFunction((t) => document.querySelector('[data-testid=status]').textContent.includes(t), playedA[0]);
  await ctxA.close();
  await ctxB.close();
  return `human vs human through the invitation link: live updates both ways, Black's token refused for White's units (409 and 400), undo, draw by agreement, replay`;
}

let failed = 0;
const scenarios = [
  ['vs AI, chesimals-1', () => vsAi('chesimals-1', 2, 'game-16x12.png')],
  ['vs AI, mini-chieftain', () => vsAi('mini-chieftain', 2, 'game-8x8.png')],
  ['human vs human', humanVsHuman],
];
for (const [name, run] of scenarios) {
  const t0 = Date.now();
  try {
    const what = await run();
    console.log(`ok   ${name} (${((Date.now() - t0) / 1000).toFixed(1)} s): ${what}`);
  } catch (e) {
    failed++;
    console.log(`FAIL ${name}: ${e.stack || e}`);
  }
}
await browser.close();
server.removeAllListeners('exit');
server.kill('SIGTERM');
rmSync(dir, { recursive: true, force: true });
console.log(`browser tests: ${scenarios.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
