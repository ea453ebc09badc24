// Browser tests of takebacks, aborts and rematches (docs/server.md, "Takebacks, aborts,
// rematches"): playwright-core drives Debian's chromium against a real `cohort serve` on a
// temporary SQLite file, two players each on a page of their own.
//   1. White plays, asks for a takeback; Black accepts: both boards are back at the start.
//   2. Black aborts after White's first turn: both pages show the game aborted; after two
//      turns no page offers to abort.
//   3. White resigns and offers a rematch; Black accepts: both pages move to the new game,
//      each on its own new seat, colours swapped.
// Usage (from web/): npm ci && COHORT_BIN=../target/debug/cohort node tests/offers.mjs [filter]
import { check, runSuite } from './harness.mjs';

let base = '';

async function getView(id, token) {
  const r = await fetch(`${base}/api/games/${id}${token ? `?token=${token}` : ''}`);
  check(r.ok, `GET game ${id}: ${r.status}`);
  return r.json();
}

/** A chess game between two people, and a page for each seat (each in its own context). */
async function twoSeats(sc, extra = {}) {
  const r = await fetch(`${base}/api/games`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ variant: 'chess', white: 'human', black: 'human', ...extra }),
  });
  const g = await r.json();
  check(r.ok, `create: ${JSON.stringify(g)}`);
  const white = await sc.page();
  const black = await sc.page();
  await white.goto(`${base}${g.links.white}`);
  await black.goto(`${base}${g.links.black}`);
  for (const p of [white, black]) await p.waitForSelector('[data-testid=board]');
  return { id: g.id, tokens: g.tokens, white, black };
}

const board = (page, attr) => page.getAttribute('[data-testid=board]', attr);

/** Play one turn by clicking on `page`: a legal move that takes nothing. Returns its text. */
async function playTurn(page, id) {
  const v = await getView(id);
  await page.waitForFunction((side) => {
    const b = document.querySelector('[data-testid=board]');
    return b && b.dataset.toMove === side && b.dataset.replaying !== 'yes' && b.dataset.seat === side;
  }, v.to_move);
  const s = v.legal.find((x) => x.from && !x.text.includes('x'));
  await page.click(`[data-testid=sq-${s.from}]`);
  await page.click(`[data-testid=sq-${s.to}]`);
  await page.waitForFunction((side) => document.querySelector('[data-testid=board]').dataset.toMove !== side, v.to_move);
  return s.text;
}

const scenarios = [];

scenarios.push(['a takeback accepted', async (sc) => {
  const { id, white, black } = await twoSeats(sc);
  const start = (await getView(id)).position;
  const played = await playTurn(white, id);
  // Only the player whose turn is the last one may ask to take it back.
  await white.waitForSelector('[data-testid=takeback]');
  await black.waitForFunction(() => document.querySelector('[data-testid=board]').dataset.toMove === 'black');
  check(await black.locator('[data-testid=takeback]').count() === 0, 'Black has no turn of its own to take back');
  await white.click('[data-testid=takeback]');
  await white.waitForSelector('[data-testid=takeback-offered]:has-text("You asked")');
  await black.waitForSelector('[data-testid=accept-takeback]');
  check((await getView(id)).takeback_offer === 'white', 'the request is stored');
  await black.click('[data-testid=accept-takeback]');
  for (const p of [white, black]) {
    await p.waitForFunction((pos) => {
      const b = document.querySelector('[data-testid=board]');
      return b.dataset.position === pos && b.dataset.toMove === 'white';
    }, start);
    check(await p.locator('[data-testid=takeback-offered]').count() === 0, 'the request is gone from the page');
    check(!(await p.textContent('[data-testid=move-list]')).includes(played), `${played} left the move list`);
  }
  const v = await getView(id);
  check(v.turns.length === 0 && v.takeback_offer === null && v.to_move === 'white', `the server's game: ${JSON.stringify(v.turns)}`);
  // White plays on from the start.
  const again = await playTurn(white, id);
  return `${played} taken back, then ${again} played`;
}]);

scenarios.push(['an abort', async (sc) => {
  const { id, white, black } = await twoSeats(sc);
  await playTurn(white, id);
  await black.waitForFunction(() => document.querySelector('[data-testid=board]').dataset.toMove === 'black');
  await black.click('[data-testid=abort]');
  for (const p of [white, black]) {
    await p.waitForFunction(() => document.querySelector('[data-testid=board]').dataset.result.includes('Aborted'));
    check(await p.locator('[data-testid=abort]').count() === 0 && await p.locator('[data-testid=resign]').count() === 0,
      'no abort or resign once the game is over');
  }
  const v = await getView(id);
  check(v.result && v.result.reason === 'aborted' && v.result.winner === null, `the result: ${JSON.stringify(v.result)}`);
  // After a turn each, the game can only be resigned.
  const later = await twoSeats(sc);
  await later.white.waitForSelector('[data-testid=abort]');
  await playTurn(later.white, later.id);
  await playTurn(later.black, later.id);
  for (const p of [later.white, later.black]) {
    await p.waitForFunction(() => document.querySelector('[data-testid=board]').dataset.toMove === 'white'
      && !document.querySelector('[data-testid=abort]'));
    check(await p.locator('[data-testid=resign]').count() === 1, 'resign is still offered');
  }
  return `aborted: ${v.result.text}; after two turns no abort`;
}]);

scenarios.push(['a rematch', async (sc) => {
  const { id, tokens, white, black } = await twoSeats(sc, { clock: { minutes: 5, increment: 3 } });
  await playTurn(white, id);
  await white.click('[data-testid=resign]');
  await white.click('[data-testid=confirm-resign]');
  await black.waitForSelector('[data-testid=rematch]');
  await white.click('[data-testid=rematch]');
  await white.waitForSelector('[data-testid=rematch-offered]:has-text("You offered")');
  await black.waitForSelector('[data-testid=accept-rematch]');
  await black.click('[data-testid=accept-rematch]');
  // Both pages move to the new game, each with its new seat.
  const landed = async (p) => {
    await p.waitForURL((u) => u.pathname.startsWith('/game/') && !u.pathname.endsWith(`/${id}`));
    await p.waitForSelector('[data-testid=board]');
    const u = new URL(p.url());
    return { id: u.pathname.split('/').pop(), token: u.searchParams.get('token'), seat: await board(p, 'data-seat') };
  };
  const [w, b] = [await landed(white), await landed(black)];
  check(w.id === b.id, `both pages on one game: ${w.id} ${b.id}`);
  check(w.seat === 'black' && b.seat === 'white', `colours swapped: White's page is ${w.seat}, Black's ${b.seat}`);
  check(w.token && b.token && w.token !== b.token && ![tokens.white, tokens.black].includes(w.token)
    && ![tokens.white, tokens.black].includes(b.token), 'new tokens, one each');
  const nv = await getView(w.id, b.token);
  check(nv.seat === 'white' && nv.clock.control === '5+3' && nv.turns.length === 0, `the new game: ${nv.seat} ${nv.clock.control}`);
  check((await getView(id)).rematch === w.id, 'the old game names its rematch');
  // The old Black (now White) moves first in the new game.
  await playTurn(black, w.id);
  return `rematch ${w.id}: the old White plays Black, the old Black White`;
}]);

scenarios.push(['a drag survives a draw offer arriving', async (sc) => {
  // Issue 45's newcomer: a draw offer arriving in the middle of a drag redrew the board and
  // the dragged unit was dropped. White drags e2 toward e4; Black offers a draw meanwhile.
  const { id, tokens, white } = await twoSeats(sc);
  await white.waitForFunction(() => document.querySelector('[data-testid=board]').dataset.toMove === 'white');
  const at = async (sq) => {
    const b = await white.locator(`[data-testid=sq-${sq}]`).boundingBox();
    return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
  };
  const [from, to] = [await at('e2'), await at('e4')];
  await white.mouse.move(from.x, from.y);
  await white.mouse.down();
  await white.mouse.move(from.x, from.y - 20, { steps: 4 });
  await white.mouse.move((from.x + to.x) / 2, (from.y + to.y) / 2, { steps: 4 });
  const r = await fetch(`${base}/api/games/${id}/draw`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: tokens.black, action: 'offer' }),
  });
  check(r.ok, `Black offers a draw: ${r.status}`);
  // The offer reaches White's page while the unit is still in hand.
  await white.waitForFunction(() => state.view && state.view.draw_offer === 'black', null, { timeout: 10000 });
  check(await white.locator('g.unit.dragged').count() === 1, 'the unit is still being dragged after the offer arrived');
  await white.mouse.move(to.x, to.y, { steps: 4 });
  await white.mouse.up();
  await white.waitForFunction(() => document.querySelector('[data-testid=board]').dataset.toMove === 'black');
  const v = await getView(id);
  check(JSON.stringify(v.turns.map((t) => t.steps)) === '[["e2-e4"]]', `the drag played e2-e4: ${JSON.stringify(v.turns)}`);
  // (Moving declines the offer, as in lichess: the server clears it with the step.)
  check(v.draw_offer === null, `the offer is declined by the move: ${v.draw_offer}`);
  return 'e2-e4 dragged while Black\'s draw offer arrived: the drag went on and played';
}]);

await runSuite('takeback, abort and rematch browser tests', scenarios, {
  prefix: 'cohort-offers-',
  viewport: { width: 1300, height: 900 },
  ready: (env) => ({ base } = env),
});
