// Browser test of Chessma 84 against the AI (docs/chessma.md): the 84-square board, a move
// onto a twin row, a Withdrawer capture on both boards shown before it is made, an Encloser's
// teleport into the pocket and a drop from it. After each turn the board as drawn (which
// piece stands on which square, read from the SVG) is checked twice: against what the
// scenario's own steps must have done to the squares they touch, and piece by piece against
// the game's position as the API reports it. Set-up and scenario runner in harness.mjs.
// Usage (from web/): COHORT_BIN=../target/release/cohort node tests/chessma.mjs
import { join } from 'node:path';
import { SHOTS, check, checkDrawnBoard, readDrawnBoard, runSuite } from './harness.mjs';

const SCENARIO_MS = 90000;
const WAIT_MS = 25000;

let base = '';

// Chessma 84 against the AI (docs/chessma.md): a move onto a twin row, a Withdrawer capture
// on both boards shown before it is made, an Encloser's teleport capture into the pocket and
// a drop from it. The start position freezes Black's pieces that the scenario captures
// (White Immobilizers next to them), so whatever the AI's King does, the plan stands.
const START = {
  // White: K e1, N b3, W d2, I b2 (freezes Black's Bishop c1 and Leaper c1'), I b7 (freezes
  // the pawn a7), N a8 and a8' (the pawn's walls), E h2. Black: K h7, B c1, L c1', P a7.
  pieces: [['e1', 'K'], ['b3', 'N'], ['d2', 'W'], ['b2', 'I'], ['b7', 'I'], ['a8', 'N'], ["a8'", 'N'], ['h2', 'E'],
    ['h7', 'k'], ['c1', 'b'], ["c1'", 'l'], ['a7', 'p']],
};

function positionText(pieces) {
  const files = 'zabcdefghi';
  const ranks = ['0', "1'", '1', '2', '3', '4', '5', '6', '7', '8', "8'", '9'];
  const at = new Map(pieces.map(([s, p]) => [s, p]));
  const rows = [];
  for (let r = 11; r >= 0; r--) {
    let row = '';
    let empty = 0;
    for (let f = 0; f < 10; f++) {
      const exists = r === 0 || r === 11 ? f === 0 || f === 9 : f >= 1 && f <= 8;
      const p = at.get(files[f] + ranks[r]);
      if (!exists || p) { if (empty) { row += empty; empty = 0; } row += exists ? p : '*'; } else empty++;
    }
    if (empty) row += empty;
    rows.push(row);
  }
  return `${rows.join('/')} w - - -`;
}

async function chessma(sc) {
  const created = await fetch(`${base}/api/games`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ variant: 'chessma-84', white: 'human', black: 'ai', ai: { agent: 'engine', time_ms: 200 }, position: positionText(START.pieces) }),
  }).then((r) => r.json());
  check(created.id, `game created: ${JSON.stringify(created)}`);
  const view = async () => (await fetch(`${base}/api/games/${created.id}`)).json();
  const page = await sc.page({ viewport: { width: 1300, height: 1100 } });
  await page.goto(`${base}${created.links.white}`);
  const sq = (name) => `[data-testid="sq-${name}"]`;
  await page.waitForSelector(sq("a1'"));
  // The board: 84 squares with labelled twin rows, no square where none exists.
  const squares = await page.locator('[data-testid^="sq-"]').count();
  check(squares === 84, `84 squares drawn, found ${squares}`);
  check(await page.locator(sq('a0')).count() === 0, 'no a0');
  // A turn is one step here: no Undo step or End turn to offer.
  check(await page.locator('[data-testid=end-turn], [data-testid=undo]').count() === 0, 'no Undo step or End turn in a one-step game');
  check(await page.locator('[data-testid=resign]').count() === 1, 'Resign is offered');
  check(await page.locator('[data-testid=show-command]').count() === 0, 'no command overlay to show (the view says so)');
  // Frozen pieces are marked.
  for (const f of ['c1', "c1'", 'a7']) check(await page.locator(`[data-testid="frozen-${f}"]`).count() === 1, `${f} marked frozen`);

  async function whiteToMove(turns) {
    await page.waitForFunction(async ([url, n]) => {
      const v = await (await fetch(url)).json();
      const b = document.querySelector('[data-testid=board]');
      return v.to_move === 'white' && v.turns.length >= n && b && b.dataset.replaying !== 'yes'
        && b.dataset.toMove === 'white' && Number(b.dataset.version) === v.version;
    }, [`${base}/api/games/${created.id}`, turns], { timeout: 60000, polling: 300 });
    // The page replays the AI's step before it takes clicks again.
    await page.waitForTimeout(300);
    await page.waitForFunction(() => document.querySelector('[data-testid=board]').dataset.replaying !== 'yes');
  }
  async function play(from, to, turnsAfter) {
    await page.click(sq(from));
    await page.click(sq(to));
    await whiteToMove(turnsAfter);
  }

  // The board as drawn: square -> "side piece" (harness.mjs: readDrawnBoard), and a check of
  // the whole drawn board against the API's position.
  const drawnAt = async () => {
    const { drawn } = await page.evaluate(readDrawnBoard, ['[data-testid=board]', null, null]);
    return new Map(drawn.map((d) => { const [square, ...rest] = d.split(' '); return [square, rest.join(' ')]; }));
  };
  const pocketShown = () => page.locator('[data-testid=pocket-white] [data-testid="pocket-P"]').count();
  // The start position as drawn: the pieces of START on their squares.
  let drawn = await drawnAt();
  const names = { K: 'king', N: 'knight', W: 'withdrawer', I: 'immobilizer', E: 'encloser', B: 'bishop', L: 'long leaper', P: 'pawn' };
  for (const [square, p] of START.pieces) {
    const want = `${p === p.toUpperCase() ? 'white' : 'black'} ${names[p.toUpperCase()]}`;
    check(drawn.get(square) === want, `start: ${want} drawn on ${square} (${drawn.get(square) || 'nothing'})`);
  }
  check(drawn.size === START.pieces.length, `start: ${START.pieces.length} pieces drawn (${drawn.size})`);

  // 1. The Knight to the twin row 1'.
  await play('b3', "a1'", 2);
  await checkDrawnBoard(page, await view(), "after b3-a1'");
  drawn = await drawnAt();
  check(drawn.get("a1'") === 'white knight' && !drawn.has('b3'), `the Knight is drawn on a1', not b3 (a1': ${drawn.get("a1'")}, b3: ${drawn.get('b3')})`);

  // 2. The Withdrawer: before the move, the page shows it takes c1 and c1' (both boards).
  await page.click(sq('d2'));
  await page.waitForSelector('[data-testid="preview-capture-c1"]');
  check(await page.locator(`[data-testid="preview-capture-c1'"]`).count() === 1, "c1' shown as taken too");
  await page.screenshot({ path: join(SHOTS, 'chessma-withdrawer-preview.png') });
  await page.click(sq('f4'));
  await whiteToMove(4);
  await checkDrawnBoard(page, await view(), 'after d2xf4');
  drawn = await drawnAt();
  check(!drawn.has('c1') && !drawn.has("c1'") && drawn.get('f4') === 'white withdrawer' && !drawn.has('d2'),
    `the Withdrawer is drawn on f4 and nothing on c1, c1', d2 (${['c1', "c1'", 'd2', 'f4'].map((q) => `${q}: ${drawn.get(q) || '-'}`).join(', ')})`);
  const listed = await page.locator('[data-testid=move-list], .moves, .move-list').first().innerText().catch(() => '');
  check(/d2xf4/.test(listed), `the move list shows d2xf4: ${listed.slice(0, 200)}`);

  // 3. The Encloser teleports to a6: the pawn a7 goes to White's pocket.
  check(await pocketShown() === 0, 'no pocket before the capture');
  await page.click(sq('h2'));
  await page.waitForSelector('[data-testid="preview-capture-a7"]');
  await page.click(sq('a6'));
  await page.waitForSelector('[data-testid=pocket-white] [data-testid="pocket-P"]');
  await whiteToMove(6);
  const v = await view();
  await checkDrawnBoard(page, v, 'after the Encloser to a6');
  drawn = await drawnAt();
  check(!drawn.has('a7') && drawn.get('a6') === 'white encloser' && !drawn.has('h2'),
    `the Encloser is drawn on a6 and nothing on a7, h2 (${['a6', 'a7', 'h2'].map((q) => `${q}: ${drawn.get(q) || '-'}`).join(', ')})`);
  check(await pocketShown() === 1, "the pawn is shown in White's pocket");

  // 4. A drop from the pocket.
  await page.click('[data-testid="pocket-P"]');
  const target = v.legal.find((s) => s.text.startsWith('P@'));
  check(target, 'a legal drop');
  check(!drawn.has(target.to), `${target.to} is empty before the drop`);
  await page.click(sq(target.to));
  await page.waitForSelector('[data-testid=pocket-white] [data-testid="pocket-P"]', { state: 'detached' });
  await whiteToMove(8);
  await checkDrawnBoard(page, await view(), `after P@${target.to}`);
  drawn = await drawnAt();
  check(drawn.get(target.to) === 'white pawn', `the pawn is drawn on ${target.to} (${drawn.get(target.to) || 'nothing'})`);
  check(await pocketShown() === 0, 'the pocket is empty again');
  await page.screenshot({ path: join(SHOTS, 'chessma-board.png') });
  return `twin-row move, Withdrawer on both boards previewed and taken, Encloser teleport to the pocket, drop on ${target.to}; the drawn board checked after each turn`;
}

// A spent Encloser (`E'`, NOTATION.md) on rank 4: the board's squares come from the rules'
// geometry (`squares` of the view), so the `'` in the position string shifts nothing. Every
// square the server lists is drawn once, in its file's column and its rank's row, and no
// other square is drawn (before `squares`, the row's missing cells moved one file right).
// A Chessma 84 game between two people from these pieces.
async function humanGameAt(pieces) {
  const created = await fetch(`${base}/api/games`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ variant: 'chessma-84', white: 'human', black: 'human', position: positionText(pieces) }),
  }).then((r) => r.json());
  check(created.id, `game created: ${JSON.stringify(created)}`);
  return created;
}

async function spentEncloser(sc) {
  const pieces = [['e1', 'K'], ['h7', 'k'], ['d4', "E'"], ['b4', 'P'], ['f4', 'p']];
  const created = await humanGameAt(pieces);
  const v = await (await fetch(`${base}/api/games/${created.id}`)).json();
  check(v.position.includes("E'"), `the position has a spent Encloser: ${v.position}`);
  check(v.squares.length === 84, `the view lists 84 squares (${v.squares.length})`);
  const page = await sc.page({ viewport: { width: 1300, height: 1100 } });
  await page.goto(`${base}${created.links.white}`);
  await page.waitForSelector('[data-testid="sq-d4"]');
  const drawn = await page.evaluate(() => [...document.querySelectorAll('[data-testid^="sq-"]')].map((r) => ({
    name: r.dataset.square, x: Number(r.getAttribute('x')), y: Number(r.getAttribute('y')),
  })));
  check(drawn.length === 84, `84 squares drawn (${drawn.length})`);
  const want = new Set(v.squares.map((q) => q.name));
  const extra = drawn.filter((d) => !want.has(d.name)).map((d) => d.name);
  check(!extra.length, `no square drawn that the rules do not have: ${extra.join(' ')}`);
  // Columns and rows: one x per file index and one y per rank index, all squares agreeing.
  const at = new Map(drawn.map((d) => [d.name, d]));
  const xOf = new Map(), yOf = new Map();
  for (const q of v.squares) {
    const d = at.get(q.name);
    check(d, `${q.name} is drawn`);
    if (!xOf.has(q.file)) xOf.set(q.file, d.x);
    if (!yOf.has(q.rank)) yOf.set(q.rank, d.y);
    check(xOf.get(q.file) === d.x && yOf.get(q.rank) === d.y, `${q.name} is drawn in file ${q.file}, rank ${q.rank} (x ${d.x}, y ${d.y})`);
  }
  const row4 = v.squares.filter((q) => q.rank === v.squares.find((s) => s.name === 'd4').rank).map((q) => q.name).sort();
  check(row4.join(' ') === 'a4 b4 c4 d4 e4 f4 g4 h4', `rank 4 is a4..h4 (${row4.join(' ')})`);
  for (const q of ['z4', 'i4']) check(await page.locator(`[data-testid="sq-${q}"]`).count() === 0, `no ${q} drawn`);
  // The pieces of the row stand on their squares: the Encloser on d4, not shifted.
  const unitAt = await page.evaluate(() => [...document.querySelectorAll('[data-unit]')].map((u) => u.dataset.unit));
  for (const [sq] of pieces) check(unitAt.includes(sq), `a unit drawn on ${sq} (${unitAt.join(' ')})`);
  await checkDrawnBoard(page, v, 'spent Encloser on d4');
  return `84 squares as the geometry lists them, rank 4 with a spent Encloser a4..h4 unshifted, pieces on their squares`;
}

// Check, shown and explained: a Knight checks White's King; the status and the board say
// so, a click on a piece that cannot end the check says why, and the King's step ends it.
async function checkShown(sc) {
  const pieces = [['e1', 'K'], ['b1', 'N'], ['h7', 'k'], ['d3', 'n']];
  const created = await humanGameAt(pieces);
  const v = await (await fetch(`${base}/api/games/${created.id}`)).json();
  check(JSON.stringify(v.check) === '["e1"]', `the view says the King on e1 is in check: ${JSON.stringify(v.check)}`);
  const page = await sc.page({ viewport: { width: 1300, height: 1100 } });
  await page.goto(`${base}${created.links.white}`);
  await page.waitForSelector('[data-testid="check-e1"]');
  const status = await page.textContent('[data-testid=status]');
  check(status.includes('in check'), `the status says check: "${status}"`);
  // Who gives it (issue 45's newcomer: nothing named the checking piece).
  check(status.includes('Check by the Knight on d3'), `the status names the checking Knight: "${status}"`);
  check(await page.locator('[data-testid="checker-d3"].checker').count() === 1, 'the Knight on d3 is marked as giving check');
  check(await page.isVisible('[data-testid=legend-check]'), 'the legend explains the red ring');
  await page.click('[data-testid="sq-b1"]');
  const err = await page.textContent('[data-testid=error]');
  check(err.includes('in check') && err.includes('b1'), `a click on the Knight says why it may not move: "${err}"`);
  check(err.includes('by the Knight on d3'), `and names the checking Knight: "${err}"`);
  await page.click('[data-testid="sq-e1"]');
  await page.click('[data-testid="sq-e2"]');
  await page.waitForFunction(() => document.querySelector('[data-testid=board]').dataset.toMove === 'black');
  check(await page.locator('[data-testid^="check-"]').count() === 0, 'no check shown once the King stepped out of it');
  check(await page.locator('.checker').count() === 0, 'no piece marked as giving check once the King stepped out of it');
  // A frozen piece clicked in check is told of its freeze, not of the check (issue 45's
  // newcomer): the same position with a Black Immobilizer next to the Knight.
  const frozen = await humanGameAt([...pieces, ['c2', 'i']]);
  const fv = await (await fetch(`${base}/api/games/${frozen.id}`)).json();
  check(JSON.stringify(fv.check) === '["e1"]' && (fv.frozen || []).includes('b1'), `in check with the Knight frozen: check ${JSON.stringify(fv.check)}, frozen ${JSON.stringify(fv.frozen)}`);
  await page.goto(`${base}${frozen.links.white}`);
  await page.waitForSelector('[data-testid="check-e1"]');
  await page.click('[data-testid="sq-b1"]');
  const told = await page.textContent('[data-testid=error]');
  check(told.includes('frozen') && !told.includes('in check'), `a click on the frozen Knight in check: "${told}"`);
  return `check on e1 shown (ring, status, legend), the Knight's refusal explained, e1-e2 ends it; frozen told before check`;
}

// Check by Ultima pieces, named and marked: the rules' `checkers` of the view say which
// enemy units give check and how (a Long Leaper by leaping, a Withdrawer by withdrawing);
// the status names them all ("Check by the Knight on d6 and the Long Leaper on e7"), the
// board rings their squares (class `checker`) besides the King's, the legend says how. Both
// seats and a spectator see the same marks; once the check is answered, none remain.
async function checkersNamed(sc) {
  // Double check: a Knight on d6 and a Long Leaper on e7 (over e4, landing on e3).
  const created = await humanGameAt([['e4', 'K'], ['a8', 'k'], ['d6', 'n'], ['e7', 'l']]);
  const v = await (await fetch(`${base}/api/games/${created.id}`)).json();
  const got = (v.checkers || []).map((c) => `${c.square} ${c.piece}`).sort().join(', ');
  check(got === 'd6 Knight, e7 Long Leaper', `the view names the Knight and the Long Leaper: ${JSON.stringify(v.checkers)}`);
  const page = await sc.page({ viewport: { width: 1300, height: 1100 } });
  await page.goto(`${base}${created.links.white}`);
  await page.waitForSelector('[data-testid="check-e4"]');
  const status = await page.textContent('[data-testid=status]');
  const names = v.checkers.map((c) => `the ${c.piece} on ${c.square}`);
  check(status.includes(`Check by ${names[0]} and ${names[1]}`), `the status names both: "${status}"`);
  const marked = async (p) => (await p.locator('.board-svg .checker').evaluateAll((els) => els.map((e) => e.dataset.testid))).sort().join(' ');
  check(await marked(page) === 'checker-d6 checker-e7', `the two checkers' squares are marked: ${await marked(page)}`);
  check(await page.locator('[data-testid="check-e4"]').count() === 1, "the King's square is still marked in check");
  const legend = await page.textContent('[data-testid=legend-check]');
  check(legend.includes('the Long Leaper on e7 can take the King by leaping over it'), `the legend says how the Long Leaper checks: "${legend}"`);
  const title = await page.textContent('[data-testid="checker-e7"] title');
  check(title.includes('leaping'), `the Long Leaper's mark says how: "${title}"`);
  await page.screenshot({ path: join(SHOTS, 'chessma-checkers.png') });
  // A spectator sees the same marks and "in check ... Check by".
  const watcher = await sc.page({ viewport: { width: 1300, height: 1100 } });
  await watcher.goto(`${base}/game/${created.id}`);
  await watcher.waitForSelector('[data-testid="checker-e7"]');
  const seen = await watcher.textContent('[data-testid=status]');
  check(seen.includes(`in check (e4). Check by ${names[0]} and ${names[1]}`), `a spectator's status names both: "${seen}"`);
  check(await marked(watcher) === 'checker-d6 checker-e7', `a spectator sees both marked: ${await marked(watcher)}`);
  // The King steps to d5, out of both checks: no mark left.
  await page.click('[data-testid="sq-e4"]');
  await page.click('[data-testid="sq-d5"]');
  await page.waitForFunction(() => document.querySelector('[data-testid=board]').dataset.toMove === 'black');
  const after = await (await fetch(`${base}/api/games/${created.id}`)).json();
  check(after.check.length === 0 && after.checkers.length === 0, `out of check: ${JSON.stringify(after.checkers)}`);
  check(await page.locator('.board-svg .checker').count() === 0, 'no checker marked any more');

  // A single Ultima check: the Withdrawer on e5 next to the King on e4 (it withdraws to e6).
  const w = await humanGameAt([['e4', 'K'], ['a8', 'k'], ['e5', 'w']]);
  await page.goto(`${base}${w.links.white}`);
  await page.waitForSelector('[data-testid="checker-e5"]');
  const ws = await page.textContent('[data-testid=status]');
  check(ws.includes('Check by the Withdrawer on e5') && !ws.includes(' and '), `the status names the Withdrawer alone: "${ws}"`);
  const wl = await page.textContent('[data-testid=legend-check]');
  check(wl.includes('can take the King by withdrawing from it'), `the legend says the Withdrawer withdraws: "${wl}"`);
  return `double check: "${status.slice(status.indexOf('Check by'))}", d6 and e7 ringed (seat and spectator), cleared by the King's step; Withdrawer alone: "${ws.slice(ws.indexOf('Check by'))}"`;
}

// The Pusher's board choice: a push down file a forks at rows 1 and 1'; the page offers the
// two boards by name (before: the raw step texts a4-a3/A and a4-a3/B), and board B's push
// drives the pawn to a1'.
async function pusherBoards(sc) {
  const created = await humanGameAt([['e1', 'K'], ['a4', 'U'], ['e8', 'k'], ['a3', 'p']]);
  const page = await sc.page({ viewport: { width: 1300, height: 1100 } });
  await page.goto(`${base}${created.links.white}`);
  await page.waitForSelector('[data-testid="sq-a4"]');
  await page.click('[data-testid="sq-a4"]');
  await page.click('[data-testid="sq-a3"]');
  await page.waitForSelector('[data-testid=choice]');
  const labels = await page.locator('[data-testid=choice] button').allTextContents();
  check(labels.includes("Push along board A (rows 1 and 8)") && labels.includes("Push along board B (rows 1' and 8')"),
    `the choice names the boards: ${JSON.stringify(labels)}`);
  check(!labels.some((l) => l.includes('/A') || l.includes('/B')), `no raw step text: ${JSON.stringify(labels)}`);
  await page.click('[data-testid="choice-a4-a3/B"]');
  await page.waitForFunction(() => document.querySelector('[data-testid=board]').dataset.toMove === 'black');
  const v = await (await fetch(`${base}/api/games/${created.id}`)).json();
  const at = (sq) => v.units.find((u) => u.square === sq);
  check(at("a1'") && at("a1'").letter === 'p' && !at('a1'), `the pawn pushed to a1' on board B: ${JSON.stringify(v.units)}`);
  return `choice shown as ${labels.slice(0, 2).join(' / ')}; board B pushes the pawn to a1'`;
}

// "Pieces and moves" (custom.js, the server's diagram): drawn on the game's board of 84
// squares with its edge labels, the squares from Chessma's own moves. A Knight on b1 leaps to
// the corner z0 on board A; d1' is on board B alone, so no Knight move from b1 (RULES-DETAILS
// 7.1: a move lies on one board). Before, the diagram was the 10x12 frame a1..j12, where the
// Knight's letters gave d1' and missed z0, and the Queen missed every primed square.
async function pieceDiagrams(sc) {
  const page = await sc.page({ viewport: { width: 1300, height: 1100 } });
  await page.goto(`${base}/`);
  const scope = '[data-testid=pieces-chessma-84]';
  await page.click('[data-testid=pieces-open-chessma-84]');
  await page.click(`${scope} [data-testid=diagram-kind-N]`);
  // The diagram of `piece` on `square` (board: empty or board), as drawn: its squares, edge
  // labels and marks ("square:kind").
  const shown = async (piece, square, board) => {
    const sel = `${scope} [data-testid=piece-diagram][data-piece="${piece}"][data-square="${square}"][data-board="${board}"]`;
    await page.waitForSelector(sel);
    return page.evaluate((s) => {
      const d = document.querySelector(s);
      return {
        squares: [...d.querySelectorAll('rect[data-square]')].map((r) => r.dataset.square),
        labels: [...d.querySelectorAll('g.coords text')].map((t) => t.textContent),
        marks: [...d.querySelectorAll('[data-mark]')].map((m) => `${m.dataset.mark}:${m.dataset.kind}`).sort(),
      };
    }, sel);
  };
  await page.waitForSelector(`${scope} [data-testid=piece-diagram][data-piece=N]`);
  await page.click(`${scope} [data-testid=piece-diagram] [data-testid="sq-b1"]`);
  const n = await shown('N', 'b1', 'empty');
  const game = await (await fetch(`${base}/api/variants/chessma-84`)).json();
  check(n.squares.length === 84, `the diagram has 84 squares (${n.squares.length})`);
  const want = new Set(game.start.squares.map((q) => q.name));
  check(n.squares.every((q) => want.has(q)), `only the game's squares: ${n.squares.filter((q) => !want.has(q)).join(' ')}`);
  for (const l of ['z', 'i', '0', "1'", '1', '8', "8'", '9']) check(n.labels.includes(l), `the label ${l} is drawn (${n.labels.join(' ')})`);
  check(!n.labels.includes('j') && !n.labels.includes('12'), `no frame labels j or 12 (${n.labels.join(' ')})`);
  check(n.marks.join(' ') === 'a3:both c3:both d2:both z0:both', `Knight b1: z0 a3 c3 d2, not d1' (${n.marks.join(' ')})`);
  // The Queen on d4: both boards' lines, through the twin rows to the primed squares.
  await page.click(`${scope} [data-testid=diagram-kind-Q]`);
  await shown('Q', 'b1', 'empty');
  await page.click(`${scope} [data-testid=piece-diagram] [data-testid="sq-d4"]`);
  const q = await shown('Q', 'd4', 'empty');
  const primed = q.marks.map((m) => m.split(':')[0]).filter((s) => s.endsWith("'")).sort();
  check(primed.join(' ') === "a1' d1' d8' g1' h8'", `Queen d4 reaches the primed squares (${primed.join(' ')})`);
  check(q.marks.length === 34 && q.marks.some((m) => m.startsWith('z0:')) && q.marks.some((m) => m.startsWith('i9:')), `Queen d4: 34 squares with z0 and i9 (${q.marks.length})`);
  // The start position: the Knight on b1 to z0, a3, c3 (d2 holds a Pawn); every unit drawn
  // on its square, as the API's diagram board lists them.
  await page.click(`${scope} [data-testid=diagram-kind-N]`);
  await page.click(`${scope} [data-testid=diagram-board]`);
  await shown('N', 'd4', 'board');
  await page.click(`${scope} [data-testid=piece-diagram] [data-testid="sq-b1"]`);
  const nb = await shown('N', 'b1', 'board');
  check(nb.marks.join(' ') === 'a3:both c3:both z0:both', `Knight b1 on the start position (${nb.marks.join(' ')})`);
  const d = await (await fetch(`${base}/api/variants/chessma-84/diagram?piece=N&square=b1`)).json();
  await checkDrawnBoard(page, { units: d.board.units, pieces: game.start.pieces }, 'the diagram of the start position', `${scope} [data-testid=piece-diagram]`);
  await (await page.$(scope)).screenshot({ path: join(SHOTS, 'chessma-diagram.png') });

  // A game's pieces panel: the same board, the game's position now.
  const created = await humanGameAt([['e1', 'K'], ['b1', 'N'], ['h7', 'k'], ['a3', 'p']]);
  const g = await sc.page({ viewport: { width: 1300, height: 1100 } });
  await g.goto(`${base}${created.links.white}`);
  await g.waitForSelector('[data-testid="sq-b1"]');
  await g.click('[data-testid=show-pieces]');
  const panel = '[data-testid=piece-diagram-panel]';
  await g.click(`${panel} [data-testid=diagram-kind-N]`);
  await g.waitForSelector(`${panel} [data-testid=piece-diagram][data-piece=N][data-board=board]`);
  await g.click(`${panel} [data-testid=piece-diagram] [data-testid="sq-b1"]`);
  await g.waitForSelector(`${panel} [data-testid=piece-diagram][data-piece=N][data-square=b1]`);
  const gd = await g.evaluate((s) => {
    const d = document.querySelector(s);
    return {
      squares: d.querySelectorAll('rect[data-square]').length,
      marks: [...d.querySelectorAll('[data-mark]')].map((m) => `${m.dataset.mark}:${m.dataset.kind}`).sort(),
      now: document.querySelector('[data-testid=diagram-legal-now]')?.textContent || '',
    };
  }, `${panel} [data-testid=piece-diagram]`);
  check(gd.squares === 84, `the game's diagram has 84 squares (${gd.squares})`);
  check(gd.marks.join(' ') === 'a3:capture c3:both d2:both z0:both', `the game's Knight b1: takes a3, moves to c3 d2 z0 (${gd.marks.join(' ')})`);
  check(gd.now.includes('z0'), `it may move now to z0: "${gd.now}"`);
  return `84 squares labelled z..i and 0 1' 1 .. 8 8' 9; Knight b1: z0 a3 c3 d2 (no d1'); Queen d4: 34 with a1' d1' d8' g1' h8'; the start position drawn unshifted; a game's panel the same`;
}

await runSuite('chessma browser tests', [['chessma 84 against the AI', SCENARIO_MS, chessma],
  ['chessma 84: a spent Encloser shifts no square', SCENARIO_MS, spentEncloser],
  ['chessma 84: check shown and explained', SCENARIO_MS, checkShown],
  ['chessma 84: the pieces giving check named and marked', SCENARIO_MS, checkersNamed],
  ["chessma 84: the Pusher's board choice", SCENARIO_MS, pusherBoards],
  ['chessma 84: piece diagrams on the 84 squares', SCENARIO_MS, pieceDiagrams]], {
  prefix: 'cohort-chessma-', waitMs: WAIT_MS,
  ready: (env) => ({ base } = env),
});
