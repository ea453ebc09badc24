// Browser test of quick pairing (docs/server.md, "Quick pairing"; issue 45): two accounts in
// two browser contexts pick the same variant and clock in the lobby; the first waits with a
// seek (shown to the other with its rating range), the second's click starts the game, and
// both pages are on their seats of one game within 2 s of that click. And an anonymous
// correspondence challenge's creator may leave, and finds "continue" on the home page.
// Usage (from web/): npm ci && COHORT_BIN=../target/release/cohort node tests/quick.mjs [filter]
import { check, runSuite } from './harness.mjs';

const WAIT_MS = 20000;
let base = '';

async function signUp(page, name) {
  await page.goto(`${base}/login?next=/lobby`);
  await page.fill('[data-testid=signup-username]', name);
  await page.fill('[data-testid=signup-password]', `${name}'s secret password`);
  await page.click('[data-testid=signup-submit]');
  await page.waitForURL(`${base}/lobby`);
  await page.waitForSelector('[data-testid=quick-pairing]');
}

const seat = (page) => {
  const u = new URL(page.url());
  return { id: u.pathname.split('/').pop(), token: u.searchParams.get('token') };
};

const scenarios = [['two players pick 5+3 Chesimals I and meet within 2 s', 60000, async (sc) => {
  const alice = await sc.page();
  const bob = await sc.page();
  await signUp(alice, 'alice');
  await signUp(bob, 'bob');
  for (const p of [alice, bob]) await p.selectOption('[data-testid=quick-variant]', 'chesimals-1');
  // alice asks first: nobody waits, so she waits with a seek, shown to bob live.
  await alice.click('[data-testid="quick-5+3"]');
  await alice.waitForSelector('[data-testid=own-challenge]');
  const status = await alice.textContent('[data-testid=quick-status]');
  check(status.includes('5+3') && status.includes('Chesimals I'), `alice's page says what it waits for: "${status}"`);
  const row = bob.locator('[data-testid=rating-range]');
  await row.waitFor({ timeout: 5000 });
  const range = await row.textContent();
  check(range.includes('1200 to 1800'), `bob sees the seek's range: "${range}"`);
  // Both are online, as the lobby says (issue 45: who is online).
  await bob.goto(`${base}/lobby`);
  await bob.waitForSelector('[data-testid=online-alice]');
  check(await bob.locator('[data-testid=online-bob]').count() === 1, 'the lobby lists both online');
  await bob.selectOption('[data-testid=quick-variant]', 'chesimals-1');
  // bob asks for the same game: both are sent to their seats.
  const t0 = Date.now();
  await bob.click('[data-testid="quick-5+3"]');
  await Promise.all([alice, bob].map((p) => p.waitForURL(/\/game\/[0-9a-f]+\?token=/, { timeout: WAIT_MS })));
  await Promise.all([alice, bob].map((p) => p.waitForSelector('[data-testid=board] svg')));
  const ms = Date.now() - t0;
  const [a, b] = [seat(alice), seat(bob)];
  check(a.id === b.id && a.token && b.token && a.token !== b.token, 'both hold their own seat of one game');
  check(ms < 2000, `both on the game ${ms} ms after bob's click (under 2 s)`);
  const tc = await alice.textContent('[data-testid=time-control]');
  check(tc.includes('5+3') && tc.includes('rated'), `the game is 5+3, rated: "${tc}"`);
  return `paired in ${ms} ms; seek range ${range}`;
}], ['an anonymous correspondence challenge: its creator leaves, comes back and continues', 60000, async (sc) => {
  // Issue 45's newcomer: a one-day challenge's creator was told to keep the page open, and
  // coming back found the game without "continue".
  const creator = await sc.page();
  await creator.goto(`${base}/lobby`);
  await creator.waitForSelector('[data-testid=challenge-form]');
  await creator.selectOption('[data-testid=challenge-variant]', 'chess');
  const labels = await creator.locator('[data-testid=challenge-clock] option').allTextContents();
  await creator.selectOption('[data-testid=challenge-clock]', String(labels.indexOf('1 day per turn')));
  await creator.click('[data-testid=challenge-create]');
  const own = await creator.waitForSelector('[data-testid=own-challenge]');
  const told = await own.textContent();
  check(told.includes('you may close this page') && !told.includes('keep this page open'), `a correspondence challenge's creator is told: "${told}"`);
  const id = await creator.getAttribute('[data-testid=own-challenge] >> xpath=..', 'data-challenge');
  const context = creator.context();
  await creator.close();
  // Someone accepts it while the creator is away.
  const other = await sc.page();
  await other.goto(`${base}/lobby`);
  await other.click(`[data-testid=accept-${id}]`);
  await other.waitForURL(/\/game\/[0-9a-f]+\?token=/, { timeout: WAIT_MS });
  const theirs = seat(other);
  // The creator comes back to the home page: the game is there with "continue" to its seat.
  const back = await context.newPage();
  await back.goto(`${base}/`);
  const row = back.locator(`[data-testid=recent-games] li[data-game="${theirs.id}"]`);
  await row.waitFor({ timeout: WAIT_MS });
  const go = row.locator('a', { hasText: 'continue' });
  check(await go.count() === 1, `the recent game offers "continue": "${await row.textContent()}"`);
  await go.click();
  await back.waitForSelector('[data-testid=board] svg');
  const mine = seat(back);
  check(mine.id === theirs.id && mine.token && mine.token !== theirs.token, 'the creator is back on its own seat');
  return 'told it may close the page; "continue" to its seat from the home page';
}]];

await runSuite('quick pairing browser test', scenarios, {
  prefix: 'cohort-quick-',
  viewport: { width: 1300, height: 900 }, waitMs: WAIT_MS,
  ready: (env) => ({ base } = env),
});
