// Browser test of Chessma 84 against the AI (docs/chessma.md): the 84-square board, a move
// onto a twin row, a Withdrawer capture on both boards shown before it is made, an Encloser's
// teleport into the pocket and a drop from it. Set-up in harness.mjs.
// Usage (from web/): COHORT_BIN=../target/release/cohort node tests/chessma.mjs
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { SHOTS, check, freePort, startServer, cleanup, launchBrowser, tempDir } from './harness.mjs';

const SCENARIO_MS = 60000;
const WAIT_MS = 25000;

let browser = null;
let dir = null;

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

async function main() {
  dir = tempDir('cohort-chessma-');
  mkdirSync(SHOTS, { recursive: true });
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  await startServer(port, `sqlite://${join(dir, 'c.db')}`);
  browser = await launchBrowser();
  const created = await fetch(`${base}/api/games`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ variant: 'chessma-84', white: 'human', black: 'ai', ai: { agent: 'engine', time_ms: 200 }, position: positionText(START.pieces) }),
  }).then((r) => r.json());
  check(created.id, `game created: ${JSON.stringify(created)}`);
  const view = async () => (await fetch(`${base}/api/games/${created.id}`)).json();
  const page = await (await browser.newContext({ viewport: { width: 1300, height: 1100 } })).newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.setDefaultTimeout(WAIT_MS);
  await page.goto(`${base}${created.links.white}`);
  const sq = (name) => `[data-testid="sq-${name}"]`;
  await page.waitForSelector(sq("a1'"));
  // The board: 84 squares with labelled twin rows, no square where none exists.
  const squares = await page.locator('[data-testid^="sq-"]').count();
  check(squares === 84, `84 squares drawn, found ${squares}`);
  check(await page.locator(sq('a0')).count() === 0, 'no a0');
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

  // 1. The Knight to the twin row 1'.
  await play('b3', "a1'", 2);
  let v = await view();
  check(v.units.some((u) => u.square === "a1'" && u.letter === 'N'), 'the Knight stands on a1\'');

  // 2. The Withdrawer: before the move, the page shows it takes c1 and c1' (both boards).
  await page.click(sq('d2'));
  await page.waitForSelector('[data-testid="preview-capture-c1"]');
  check(await page.locator(`[data-testid="preview-capture-c1'"]`).count() === 1, "c1' shown as taken too");
  await page.screenshot({ path: join(SHOTS, 'chessma-withdrawer-preview.png') });
  await page.click(sq('f4'));
  await whiteToMove(4);
  v = await view();
  check(!v.units.some((u) => u.square === 'c1' || u.square === "c1'"), 'both boards\' pieces taken');
  const listed = await page.locator('[data-testid=move-list], .moves, .move-list').first().innerText().catch(() => '');
  check(/d2xf4/.test(listed), `the move list shows d2xf4: ${listed.slice(0, 200)}`);

  // 3. The Encloser teleports to a6: the pawn a7 goes to White's pocket.
  await page.click(sq('h2'));
  await page.waitForSelector('[data-testid="preview-capture-a7"]');
  await page.click(sq('a6'));
  await page.waitForFunction(async (url) => (await (await fetch(url)).json()).pocket.white.includes('P'), `${base}/api/games/${created.id}`);
  await whiteToMove(6);
  v = await view();
  check(v.pocket.white.includes('P'), `the pawn is in White's pocket: ${JSON.stringify(v.pocket)}`);

  // 4. A drop from the pocket.
  await page.click('[data-testid="pocket-P"]');
  const target = v.legal.find((s) => s.text.startsWith('P@'));
  check(target, 'a legal drop');
  await page.click(sq(target.to));
  await page.waitForFunction(async (url) => !(await (await fetch(url)).json()).pocket.white.includes('P'), `${base}/api/games/${created.id}`);
  await whiteToMove(8);
  v = await view();
  check(v.units.some((u) => u.square === target.to && u.letter === 'P'), `the pawn was dropped on ${target.to}`);
  check(!v.pocket.white.includes('P'), 'the pocket is empty again');
  await page.screenshot({ path: join(SHOTS, 'chessma-board.png') });
  check(errors.length === 0, `no page errors: ${errors.join('; ')}`);
  console.log(`ok   chessma: twin-row move, Withdrawer on both boards previewed and taken, Encloser teleport to the pocket, drop on ${target.to}`);
}

main().then(async () => { await cleanup(); }, async (e) => {
  console.error(`FAIL chessma: ${e.stack || e.message}`);
  await cleanup();
  process.exit(1);
});
