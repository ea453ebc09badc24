// Browser tests of chat (docs/server.md, "Chat"): playwright-core drives Debian's chromium
// against a real `cohort serve` on a temporary SQLite file.
//   1. Game chat: White's line reaches Black's page; Black switches chat off (anonymous: this
//      browser's switch) and sees neither lines nor a box, nor White's next line, also after
//      a reload; switched on again, a line holding markup shows as text. A spectator's page
//      shows the spectators' channel, not the players'.
//   2. Lobby chat: two accounts; one switches chat off (stored with the account) and gets no
//      lines, also after a reload; an anonymous visitor reads but has no box.
// Usage (from web/): npm ci && COHORT_BIN=../target/debug/cohort node tests/chat.mjs [filter]
import { check, runSuite } from './harness.mjs';

let base = '';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const XSS = '<img src=x onerror=alert(1)>';

async function newGame() {
  const r = await fetch(`${base}/api/games`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ variant: 'chess', white: 'human', black: 'human' }),
  });
  check(r.ok, `creating a game: ${r.status}`);
  return r.json();
}

async function say(page, text) {
  await page.fill('[data-testid=chat-input]', text);
  await page.click('[data-testid=chat-send]');
  await page.waitForFunction((t) => [...document.querySelectorAll('[data-testid=chat-line] .chat-text')].some((e) => e.textContent === t), text);
}

const lineTexts = (page) => page.$$eval('[data-testid=chat-line] .chat-text', (es) => es.map((e) => e.textContent));

async function signUp(page, name) {
  await page.goto(`${base}/login?next=/lobby`);
  await page.fill('[data-testid=signup-username]', name);
  await page.fill('[data-testid=signup-password]', `${name}'s secret password`);
  await page.click('[data-testid=signup-submit]');
  await page.waitForURL(`${base}/lobby`);
  await page.waitForSelector(`[data-testid=nav-me]:has-text("${name}")`);
}

const scenarios = [];

scenarios.push(['game chat: the opponent sees a line, a player with chat off does not, markup is text', 60000, async (sc) => {
  const g = await newGame();
  const white = await sc.page();
  const black = await sc.page();
  await white.goto(`${base}/game/${g.id}?token=${g.tokens.white}`);
  await black.goto(`${base}/game/${g.id}?token=${g.tokens.black}`);
  for (const p of [white, black]) await p.waitForSelector('[data-testid=chat-form]');

  await say(white, 'hello Black');
  const t0 = Date.now();
  await black.waitForSelector('[data-testid=chat-line]:has-text("hello Black")', { timeout: 5000 });
  const ms = Date.now() - t0;
  check((await black.textContent('[data-testid=chat-line]')).startsWith('White'), 'the line says who wrote it');

  // Black switches chat off: no lines, no box; White's next line does not show, even after a reload.
  await black.uncheck('[data-testid=chat-switch]');
  await black.waitForSelector('[data-testid=chat-off]');
  check(await black.locator('[data-testid=chat-line]').count() === 0, 'no lines when off');
  check(await black.locator('[data-testid=chat-input]').count() === 0, 'no chat box when off');
  await say(white, 'are you there?');
  await sleep(1500);
  check(await black.locator('[data-testid=chat-line]').count() === 0, 'the line posted while off did not show');
  check(!(await black.textContent('body')).includes('are you there?'), 'the page holds no trace of it');
  await black.reload();
  await black.waitForSelector('[data-testid=chat-off]');
  await sleep(1000);
  check(await black.locator('[data-testid=chat-line]').count() === 0 && !(await black.textContent('body')).includes('hello Black'),
    'still off after a reload (this browser remembers)');

  // On again: the history is back; a line holding markup shows as text, nothing runs.
  await black.check('[data-testid=chat-switch]');
  await black.waitForSelector('[data-testid=chat-line]:has-text("are you there?")');
  await say(white, XSS);
  await black.waitForFunction((t) => [...document.querySelectorAll('[data-testid=chat-line] .chat-text')].some((e) => e.textContent === t), XSS);
  check(await black.locator('[data-testid=chat] img').count() === 0, 'no <img> element in the chat');
  const texts = await lineTexts(black);
  check(JSON.stringify(texts) === JSON.stringify(['hello Black', 'are you there?', XSS]), `Black's lines: ${JSON.stringify(texts)}`);

  // A spectator sees the spectators' channel (read only, anonymous), not the players'.
  const watcher = await sc.page();
  await watcher.goto(`${base}/game/${g.id}`);
  await watcher.waitForSelector('[data-testid=chat-readonly]');
  check((await watcher.textContent('[data-testid=chat] h2')).includes('Spectators'), 'the spectators\' channel');
  check(await watcher.locator('[data-testid=chat-line]').count() === 0, 'no players\' lines on a spectator\'s page');
  return `the opponent saw the line in ${ms} ms; off: nothing shown; markup shown as text`;
}]);

scenarios.push(['lobby chat: accounts post, an account with chat off gets nothing, anonymous reads', 90000, async (sc) => {
  const ann = await sc.page();
  const ben = await sc.page();
  await signUp(ann, 'ann');
  await signUp(ben, 'ben');
  for (const p of [ann, ben]) await p.waitForSelector('[data-testid=chat-form]');
  await say(ann, 'anyone for chess?');
  await ben.waitForSelector('[data-testid=chat-line]:has-text("anyone for chess?")', { timeout: 5000 });
  check((await ben.textContent('[data-testid=chat-line]')).startsWith('ann'), 'the line names its account');

  // Ben switches off: stored with his account, so the server sends his page nothing.
  await ben.uncheck('[data-testid=chat-switch]');
  await ben.waitForSelector('[data-testid=chat-off]');
  await say(ann, 'still there?');
  await sleep(1500);
  check(await ben.locator('[data-testid=chat-line]').count() === 0, 'no line while off');
  await ben.reload();
  await ben.waitForSelector('[data-testid=chat-off]');
  await sleep(1000);
  check(!(await ben.textContent('body')).includes('still there?'), 'still off after a reload (the account remembers)');
  const settings = await ben.evaluate(() => fetch('/api/account/settings').then((r) => r.json()));
  check(settings.chat === false, `the account's setting: ${JSON.stringify(settings)}`);
  await ben.check('[data-testid=chat-switch]');
  await ben.waitForSelector('[data-testid=chat-line]:has-text("still there?")');

  // Anonymous: reads, no box.
  const anon = await sc.page();
  await anon.goto(`${base}/lobby`);
  await anon.waitForSelector('[data-testid=chat-readonly]');
  await anon.waitForSelector('[data-testid=chat-line]:has-text("still there?")');
  check(await anon.locator('[data-testid=chat-input]').count() === 0, 'no chat box for an anonymous visitor');
  return 'lobby lines delivered; the account switch holds across a reload';
}]);

await runSuite('chat browser tests', scenarios, {
  prefix: 'cohort-chat-',
  viewport: { width: 1300, height: 900 }, waitMs: 15000,
  ready: (env) => ({ base } = env),
});
