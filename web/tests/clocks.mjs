// Browser tests of fair clocks in multi-step games (docs/server.md, "Clocks"): playwright-core
// drives Debian's chromium against a real `cohort serve` on a temporary SQLite file, two
// players each in a browser context of their own.
//   1. A 1+0 chesimals-1 game: no clock runs before White's first step (both pages say so);
//      White plays a turn of nine steps and `end` by clicking; Black's page replays it at the
//      default speed (550 ms a step) and Black replies after it. Black's clock loses at most
//      0.5 s beyond Black's own thinking (from the replay's end to the click on End turn),
//      and both pages show Black's time standing during the replay.
//   2. The same with Black's page at the slow replay speed (1000 ms a step): the page speeds
//      its replay up so that it ends when Black's time starts.
// Usage (from web/): npm ci && COHORT_BIN=../target/release/cohort node tests/clocks.mjs [filter]
import { check, runSuite } from './harness.mjs';

let base = '';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function getView(id) {
  const r = await fetch(`${base}/api/games/${id}`);
  check(r.ok, `GET game ${id}: ${r.status}`);
  return r.json();
}

const clockMs = (page, side) => page.getAttribute(`[data-testid=clock-${side}]`, 'data-ms').then(Number);

/** Click one step of the side to move on `page`: a legal move that takes nothing and is the
 * only step between its two squares. Waits until the server has it. */
async function clickStep(page, id) {
  const v = await getView(id);
  const same = (a, b) => a.from === b.from && a.to === b.to;
  const s = v.legal.find((x) => x.from && !x.captures.length && v.legal.filter((y) => same(x, y)).length === 1);
  check(s, `a quiet step to click: ${JSON.stringify(v.legal.slice(0, 5))}`);
  await page.click(`[data-testid=sq-${s.from}]`);
  await page.click(`[data-testid=sq-${s.to}]`);
  const n = v.turn_steps.length + 1;
  for (let i = 0; i < 200; i++) {
    const now = await getView(id);
    if (now.turn_steps.length >= n || now.to_move !== v.to_move) return s.text;
    await sleep(25);
  }
  throw new Error(`step ${s.text} did not reach the server`);
}

const scenarios = [];

/** The game of scenario 1; Black's page replays at `replayMs` a step (its setting). */
async function nineStepTurn(sc, replayMs) {
  const r = await fetch(`${base}/api/games`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ variant: 'chesimals-1', white: 'human', black: 'human', clock: { minutes: 1, increment: 0 } }),
  });
  const g = await r.json();
  check(r.ok, `create: ${JSON.stringify(g)}`);
  const id = g.id;
  const white = await sc.page();
  const black = await sc.page();
  if (replayMs !== null) {
    await black.addInitScript((ms) => localStorage.setItem('cohort-replay-ms', String(ms)), replayMs);
  }
  await white.goto(`${base}${g.links.white}`);
  await black.goto(`${base}${g.links.black}`);
  for (const p of [white, black]) await p.waitForSelector('[data-testid=clock-white]');
  // Before White's first step no clock runs, and the pages say when they start.
  await sleep(1000);
  for (const p of [white, black]) {
    check(await clockMs(p, 'white') === 60000 && await clockMs(p, 'black') === 60000, 'no time ran before the first step');
    check(await p.isVisible('[data-testid=clock-waits]'), 'the page says the clocks start with the first step');
  }
  // White's turn: nine steps clicked as fast as the page takes them, then End turn.
  await white.waitForFunction(() => document.querySelector('[data-testid=board]').dataset.seat === 'white');
  const steps = [];
  for (let i = 0; i < 9; i++) steps.push(await clickStep(white, id));
  await white.click('[data-testid=end-turn]');
  await black.waitForFunction(() => document.querySelector('[data-testid=board]').dataset.toMove === 'black');
  const ended = await getView(id);
  check(ended.turns[0].steps.length === 10, `White's turn: ${ended.turns[0].steps.join(' ')}`);
  check(ended.clock.running === 'black' && ended.clock.starts_in_ms > 0, `the replay is credited: ${JSON.stringify(ended.clock)}`);
  // During Black's replay both pages show Black's time standing, the same on both.
  await black.waitForFunction(() => document.querySelector('[data-testid=board]').dataset.replaying === 'yes');
  await sleep(800);
  const during = [await clockMs(white, 'black'), await clockMs(black, 'black')];
  check(during[0] === 60000 && during[1] === 60000, `Black's time stands during the replay on both pages: ${during}`);
  // The replay ends; Black thinks a second, plays a step and ends the turn.
  await black.waitForFunction(() => {
    const b = document.querySelector('[data-testid=board]');
    return b.dataset.toMove === 'black' && b.dataset.replaying !== 'yes';
  }, null, { polling: 10 });
  const replayEnd = Date.now();
  await sleep(1000);
  await clickStep(black, id);
  const endClick = Date.now();
  await black.click('[data-testid=end-turn]');
  let after = await getView(id);
  for (let i = 0; i < 200 && after.to_move !== 'white'; i++) { await sleep(25); after = await getView(id); }
  check(after.to_move === 'white', 'Black\'s turn ended');
  const thinking = endClick - replayEnd;
  const lost = 60000 - after.clock.black_ms;
  const beyond = lost - thinking;
  check(beyond <= 500, `Black's clock lost ${lost} ms for ${thinking} ms of thinking: ${beyond} ms beyond it (at most 500)`);
  // Both pages show the server's time for Black after the turn.
  for (const p of [white, black]) {
    await p.waitForFunction((ms) => Number(document.querySelector('[data-testid=clock-black]').dataset.ms) === ms, after.clock.black_ms);
  }
  return `White's 9-step turn replayed on Black's page; Black lost ${lost} ms for ${thinking} ms of thinking: ${beyond} ms beyond it`;
}

scenarios.push(['1+0 chesimals-1: a nine-step turn costs the replying side at most 0.5 s beyond its thinking', 90000,
  (sc) => nineStepTurn(sc, null)]);
// At the slow replay speed (1000 ms a step) the page speeds its replay up to end when the
// player's time starts: the slow setting costs no time either.
scenarios.push(['the same at the slow replay speed: the replay ends when the credit does', 90000,
  (sc) => nineStepTurn(sc, 1000)]);

await runSuite('clock browser tests', scenarios, {
  prefix: 'cohort-clocks-',
  viewport: { width: 1300, height: 900 },
  ready: (env) => ({ base } = env),
});
