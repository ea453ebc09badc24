// Browser tests of clocks, the lobby, accounts and ratings (docs/server.md): playwright-core
// drives Debian's chromium against a real `cohort serve` on a temporary SQLite file.
//   1. Two accounts (two browser contexts) sign up, find each other in the lobby and play a
//      rated micro-chieftain game at 1+1; no clock runs before White's first step; the clocks
//      run on both pages; Black lets its clock
//      fall; both pages show the time forfeit and the rating change.
//   2. A correspondence game (1 day per turn) survives a server restart with its clock intact.
// Usage (from web/): npm ci && COHORT_BIN=../target/release/cohort node tests/play.mjs [filter]
import { join } from 'node:path';
import { SHOTS, check, startServer, killServer, runSuite } from './harness.mjs';

const WAIT_MS = 25000;

let base = '';
let port = 0;
let database = '';

async function getView(id) {
  const r = await fetch(`${base}/api/games/${id}`);
  check(r.ok, `GET game ${id}: ${r.status}`);
  return r.json();
}

const gameOf = (page) => {
  const u = new URL(page.url());
  return { id: u.pathname.split('/').pop(), token: u.searchParams.get('token') };
};
const clockMs = (page, side) => page.getAttribute(`[data-testid=clock-${side}]`, 'data-ms').then(Number);
const running = (page, side) => page.getAttribute(`[data-testid=clock-${side}]`, 'data-running');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function signUp(page, name) {
  await page.goto(`${base}/login?next=/lobby`);
  await page.fill('[data-testid=signup-username]', name);
  await page.fill('[data-testid=signup-password]', `${name}'s secret password`);
  await page.click('[data-testid=signup-submit]');
  await page.waitForURL(`${base}/lobby`);
  await page.waitForSelector(`[data-testid=nav-me]:has-text("${name}")`);
}

/** Post a challenge from `page` (on the lobby) and accept it from `other`; both land on their seats. */
async function meetInLobby(page, other, { variant, clock, colour, rated }) {
  // The other player is on the lobby before the challenge exists: it must arrive there
  // without a reload, pushed over the lobby's WebSocket.
  await other.goto(`${base}/lobby`);
  await other.waitForSelector('[data-testid=challenge-form]');
  await page.waitForSelector('[data-testid=challenge-form]');
  await page.selectOption('[data-testid=challenge-variant]', variant);
  const labels = await page.locator('[data-testid=challenge-clock] option').allTextContents();
  await page.selectOption('[data-testid=challenge-clock]', String(labels.indexOf(clock)));
  await page.selectOption('[data-testid=challenge-colour]', colour);
  if (rated) await page.check('[data-testid=challenge-rated]');
  await page.click('[data-testid=challenge-create]');
  await page.waitForSelector('[data-testid=own-challenge]');
  const id = await page.getAttribute('[data-testid=own-challenge] >> xpath=..', 'data-challenge');
  // The other player sees it live, well within the list's 10 s resend: the change itself
  // was pushed. Then it accepts.
  const row = other.locator(`[data-challenge="${id}"]`);
  await row.waitFor({ timeout: 5000 });
  const text = await row.textContent();
  if (rated) await other.screenshot({ path: join(SHOTS, 'lobby.png') });
  check(text.includes(clock) && text.includes(rated ? 'rated' : 'casual'), `the challenge reads "${text}"`);
  await other.click(`[data-testid=accept-${id}]`);
  await other.waitForSelector('[data-testid=board] svg');
  await page.waitForURL(/\/game\/[0-9a-f]+\?token=/, { timeout: WAIT_MS });
  await page.waitForSelector('[data-testid=board] svg');
  const a = gameOf(page);
  const b = gameOf(other);
  check(a.id === b.id && a.token && b.token && a.token !== b.token, 'both players hold their own seat of one game');
  return a.id;
}

/** Play one quiet legal step by clicking its unit and destination, then end the turn. */
async function playTurn(page, id) {
  const v = await getView(id);
  // The page takes clicks once it has replayed the opponent's steps.
  await page.waitForFunction((side) => {
    const b = document.querySelector('[data-testid=board]');
    return b && b.dataset.toMove === side && b.dataset.replaying !== 'yes';
  }, v.to_move);
  const s = v.legal.find((x) => x.from && !x.text.includes('x'));
  await page.click(`[data-testid=sq-${s.from}]`);
  await page.click(`[data-testid=sq-${s.to}]`);
  // In chess the step ends the turn; elsewhere the turn goes on until End turn.
  await page.waitForFunction(([t, side]) => document.querySelector('[data-testid=board]').dataset.toMove !== side
    || document.querySelector('[data-testid=turn-steps]').textContent.includes(t), [s.text, v.to_move]);
  if (await page.getAttribute('[data-testid=board]', 'data-to-move') === v.to_move) {
    await page.click('[data-testid=end-turn]');
    await page.waitForFunction((side) => document.querySelector('[data-testid=board]').dataset.toMove !== side, v.to_move);
  }
  return s.text;
}

const scenarios = [];

scenarios.push(['rated 1+1 game in the lobby, a flag falls, both see the rating change', 150000, async (sc) => {
  const alice = await sc.page();
  const bob = await sc.page();
  await signUp(alice, 'alice');
  await signUp(bob, 'bob');
  const id = await meetInLobby(alice, bob, { variant: 'micro-chieftain', clock: '1+1', colour: 'white', rated: true });
  for (const p of [alice, bob]) {
    await p.waitForSelector('[data-testid=clock-white]');
    // No clock runs before White's first step (docs/server.md, "Clocks").
    check(await running(p, 'white') === 'false' && await running(p, 'black') === 'false', 'no clock runs before the first step');
    check(await p.isVisible('[data-testid=clock-waits]'), 'the page says the clocks start with the first step');
    check((await p.textContent('[data-testid=time-control]')).includes('1+1, rated'), 'the time control is shown');
    check((await p.textContent('[data-testid=clock-white]')).includes('alice'), 'the accounts are shown');
  }
  // White's clock stands in both browsers until her first step.
  await sleep(1300);
  const w1 = [await clockMs(alice, 'white'), await clockMs(bob, 'white')];
  check(w1[0] === 60000 && w1[1] === 60000, `White's clock stands on both pages before her first step (${w1})`);
  // alice's player page marks the game as her turn.
  const ap = await alice.context().newPage();
  await ap.goto(`${base}/player/alice`);
  await ap.waitForSelector(`[data-testid=player-game-${id}] [data-testid=your-turn]`);
  await ap.close();
  // White plays a turn: her clock stops with the increment, Black's runs. Her time after
  // the turn is her time before it, less at most the wall time between the two readings,
  // plus the 1 s increment: without the increment it would be below the time before.
  const tBefore = Date.now();
  const before = await getView(id);
  const step = await playTurn(alice, id);
  const v = await getView(id);
  const elapsed = Date.now() - tBefore;
  check(v.clock.running === 'black', `Black's clock runs after White's turn (${JSON.stringify(v.clock)})`);
  check(v.clock.white_ms >= before.clock.white_ms - elapsed + 1000 && v.clock.white_ms <= 61000,
    `White got her increment: ${before.clock.white_ms} ms before, ${v.clock.white_ms} after, ${elapsed} ms between the readings`);
  for (const p of [alice, bob]) {
    await p.waitForFunction(() => document.querySelector('[data-testid=clock-black]').dataset.running === 'true');
    check(await running(p, 'white') === 'false', 'White\'s clock stopped');
  }
  check((await bob.textContent('[data-testid=move-list]')).includes(step), 'Black sees White\'s turn');
  const ws = await clockMs(bob, 'white');
  // (Black's time starts once his page has replayed White's turn, 550 ms a step.)
  await sleep(1500);
  check(await clockMs(bob, 'white') === ws, 'White\'s clock stands while Black thinks');
  check(await clockMs(bob, 'black') < 60000, 'Black\'s clock runs');
  // Two turns each more: a game changes ratings only once both sides have played two turns
  // (docs/server.md, "Ratings"). Then it is Black's turn again.
  await playTurn(bob, id);
  await playTurn(alice, id);
  await playTurn(bob, id);
  await playTurn(alice, id);
  await bob.waitForFunction(() => document.querySelector('[data-testid=clock-black]').dataset.running === 'true');
  // Black lets his clock fall: nobody sends a request; the server's timer ends the game.
  const t0 = Date.now();
  for (const p of [alice, bob]) {
    await p.waitForFunction(() => /time forfeit/.test(document.querySelector('[data-testid=status]').textContent), null, { timeout: 75000 });
  }
  const waited = (Date.now() - t0) / 1000;
  check((await alice.textContent('[data-testid=status]')).includes('White wins (time forfeit): you win'), 'alice wins on time');
  check((await bob.textContent('[data-testid=status]')).includes('White wins (time forfeit): you lose'), 'bob loses on time');
  check(await clockMs(bob, 'black') === 0 && await running(bob, 'black') === 'false', 'Black\'s clock shows 0:00 and stopped');
  const end = await getView(id);
  check(end.result.reason === 'time forfeit', 'the API says time forfeit');
  const rc = end.rating_change;
  check(rc && rc.white.user === 'alice' && rc.white.delta > 0 && rc.black.delta < 0, `ratings changed: ${JSON.stringify(rc)}`);
  const shown = [];
  for (const p of [alice, bob]) {
    await p.waitForSelector('[data-testid=rating-change]');
    const t = await p.textContent('[data-testid=rating-change]');
    check(t.includes(`alice: 1500 \u2192 ${rc.white.after} (+${rc.white.delta})`), `White's change shown: ${t}`);
    check(t.includes(`bob: 1500 \u2192 ${rc.black.after} (\u2212${-rc.black.delta})`), `Black's change shown: ${t}`);
    shown.push(t);
  }
  await bob.screenshot({ path: join(SHOTS, 'clock-time-forfeit.png') });
  const rec = await (await fetch(`${base}/api/games/${id}/record?format=json`)).json();
  check(rec.result === '1-0' && rec.reason === 'time forfeit' && rec.time_control === '1+1', `the record: ${rec.result} ${rec.reason}`);
  // bob's player page: the rating and the finished game.
  await bob.goto(`${base}/player/bob`);
  await bob.waitForSelector('[data-testid=ratings]');
  check((await bob.textContent('[data-testid=ratings]')).includes(String(rc.black.after)), 'bob\'s new rating on his page');
  check((await bob.textContent(`[data-testid=player-game-${id}]`)).includes(String(rc.black.delta)), 'the finished game with its change');
  // The variant's name, the rating chart (1500, then the rating after the game), the game's
  // date, and the filters: "won" hides the lost game, "lost" shows it (issue 45).
  check((await bob.textContent('[data-testid=ratings]')).includes('micro-Chieftain'), 'the rating names its variant');
  check(await bob.getAttribute('[data-testid=rating-chart-micro-chieftain]', 'data-points') === '2', 'a chart of two points');
  const label = await bob.getAttribute('[data-testid=rating-chart-micro-chieftain] svg', 'aria-label');
  check(label.includes(`from 1500 to ${rc.black.after}`), `the chart: ${label}`);
  const day = new Date().toISOString().slice(0, 10);
  check((await bob.textContent(`[data-testid=player-game-${id}]`)).includes(day), 'the game\'s date');
  await bob.selectOption('[data-testid=filter-outcome]', 'win');
  check(await bob.isHidden(`[data-testid=player-game-${id}]`) && (await bob.textContent('[data-testid=filter-count]')) === '0 of 1', 'filtered to won games: none');
  await bob.selectOption('[data-testid=filter-outcome]', 'loss');
  check(await bob.isVisible(`[data-testid=player-game-${id}]`), 'filtered to lost games: this one');
  await bob.screenshot({ path: join(SHOTS, 'player-page.png') });
  return `flag fell ${waited.toFixed(1)} s after Black's clock started; ${shown[0]}`;
}]);

scenarios.push(['correspondence game survives a restart with its clock', 60000, async (sc) => {
  const a = await sc.page();
  const b = await sc.page();
  await a.goto(`${base}/lobby`);
  const id = await meetInLobby(a, b, { variant: 'chess', clock: '1 day per turn', colour: 'white', rated: false });
  await playTurn(a, id);
  await b.waitForFunction(() => document.querySelector('[data-testid=clock-black]').dataset.running === 'true');
  // Black's time runs once his page has replayed White's one-step turn (550 ms).
  await sleep(700);
  const text = await b.textContent('[data-testid=clock-black]');
  check(/23h 59m/.test(text), `a day per turn shown as hours and minutes: ${text}`);
  const before = (await getView(id)).clock;
  const t0 = Date.now();
  // While the server is down, the page's attempts to reconnect fail (the console says so).
  sc.expect(/WebSocket connection to 'ws:\/\/127\.0\.0\.1:\d+\/api\/games\/[0-9a-f]+\/ws' failed/,
    // The chat panel's socket (chat.js) is down with the server too.
    /WebSocket connection to 'ws:\/\/127\.0\.0\.1:\d+\/api\/games\/[0-9a-f]+\/chat\/(players|spectators)\/ws(\?token=[0-9a-f]+)?' failed/,
    /GET http:\/\/127\.0\.0\.1:\d+\/api\/games\/[0-9a-f]+\S* failed: net::ERR_CONNECTION_REFUSED/);
  await killServer();
  await sleep(2000);
  await startServer(port, database);
  const after = (await getView(id)).clock;
  const elapsed = Date.now() - t0;
  const used = before.black_ms - after.black_ms;
  check(after.running === 'black' && after.white_ms === before.white_ms, 'the same side\'s clock runs, the other stands');
  check(used >= elapsed - 300 && used <= elapsed + 300, `Black's time ran on through the restart: ${used} ms used in ${elapsed} ms`);
  // Both pages reconnect and show the server's time (within a second).
  for (const p of [a, b]) {
    await p.waitForFunction(() => !document.querySelector('[data-testid=connection]'), null, { timeout: 15000 });
    await sleep(300);
    const shown = await clockMs(p, 'black');
    const truth = (await getView(id)).clock.black_ms;
    check(Math.abs(shown - truth) < 1000, `the page shows ${shown} ms, the server ${truth} ms`);
  }
  await b.reload();
  await b.waitForSelector('[data-testid=clock-black]');
  check(await running(b, 'black') === 'true', 'after a reload Black\'s clock runs');
  await playTurn(b, id);
  const v = await getView(id);
  check(v.clock.running === 'white' && v.clock.white_ms > 86400000 - 2000, `a new day for White's next turn: ${JSON.stringify(v.clock)}`);
  return `clock within ${Math.abs(used - elapsed)} ms of the wall clock across the restart`;
}]);

scenarios.push(['lobby clocks: 1+0 and a custom clock', 60000, async (sc) => {
  const page = await sc.page();
  await page.goto(`${base}/lobby`);
  await page.waitForSelector('[data-testid=challenge-form]');
  const labels = await page.locator('[data-testid=challenge-clock] option').allTextContents();
  check(labels.includes('1+0') && labels.includes('custom'), `the clock choices: ${labels.join(', ')}`);
  check(await page.isHidden('[data-testid=challenge-custom]'), 'the custom fields are hidden until asked for');
  await page.selectOption('[data-testid=challenge-clock]', String(labels.indexOf('custom')));
  check(await page.isVisible('[data-testid=challenge-custom]'), 'custom shows minutes and increment');
  // Out of bounds: the form refuses it (the field says why), and no challenge is posted.
  await page.fill('[data-testid=challenge-minutes]', '500');
  await page.click('[data-testid=challenge-create]');
  check(await page.$eval('[data-testid=challenge-minutes]', (e) => !e.validity.valid && e.validity.rangeOverflow), '500 minutes is over the field\'s bound');
  await sleep(500);
  check(await page.locator('[data-testid=own-challenge]').count() === 0, 'no challenge posted with 500 minutes');
  await page.fill('[data-testid=challenge-minutes]', '2');
  await page.fill('[data-testid=challenge-increment]', '7');
  await page.click('[data-testid=challenge-create]');
  await page.waitForSelector('[data-testid=own-challenge]');
  const row = await page.locator('[data-testid=own-challenge] >> xpath=..').textContent();
  check(row.includes('2+7'), `the challenge reads "${row}"`);
  const id = await page.getAttribute('[data-testid=own-challenge] >> xpath=..', 'data-challenge');
  // Another tab of the same browser knows it as its own: no Accept offered there.
  const tab = await page.context().newPage();
  await tab.goto(`${base}/lobby`);
  await tab.waitForSelector(`[data-challenge="${id}"]`);
  check(await tab.locator(`[data-challenge="${id}"] [data-testid=own-challenge]`).count() === 1
    && await tab.locator(`[data-testid=accept-${id}]`).count() === 0, 'another tab shows the challenge as yours, not Accept');
  await tab.close();
  await page.click(`[data-testid=cancel-${id}]`);
  await page.waitForSelector('[data-testid=no-challenges]');
  return `choices ${labels.length}; 500 minutes refused; 2+7 posted and cancelled`;
}]);

await runSuite('play browser tests', scenarios, {
  prefix: 'cohort-play-',
  viewport: { width: 1300, height: 900 }, waitMs: WAIT_MS,
  ready: (env) => ({ base, port, database } = env),
});
