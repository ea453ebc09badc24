// Browser tests of custom variants and piece move diagrams: playwright-core drives Debian's
// chromium against a real `cohort serve` on a temporary SQLite file, as a person would.
// Usage (from web/):
//   npm ci && COHORT_BIN=../target/release/cohort node tests/custom.mjs [name filter]
// Env: COHORT_BIN (default ../target/release/cohort), CHROMIUM (default /usr/bin/chromium),
// SCREENSHOTS (default ../docs/screenshots), COHORT_STATIC_DIR (passed on to the server).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { SHOTS, check, runSuite } from './harness.mjs';

const SCENARIO_MS = 60000;
const WAIT_MS = 25000;

let base = '';

async function getJson(path) {
  const r = await fetch(`${base}${path}`);
  check(r.ok, `GET ${path}: ${r.status}`);
  return r.json();
}

async function post(path, body) {
  const r = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: r.status, body: await r.json().catch(() => null) };
}

const version = async (page) => Number(await page.getAttribute('[data-testid=board]', 'data-version'));

async function waitVersionAbove(page, v, what) {
  try {
    await page.waitForFunction((old) => Number(document.querySelector('[data-testid=board]').dataset.version) > old, v, { timeout: WAIT_MS });
  } catch {
    throw new Error(`${what}: the board never changed from version ${v}`);
  }
}

// The diagram inside `scope` (a CSS selector) shows `piece` on `square`.
async function waitDiagram(page, scope, piece, square, board) {
  const sel = `${scope} [data-testid=piece-diagram][data-piece="${piece}"]${square ? `[data-square="${square}"]` : ''}${board ? `[data-board="${board}"]` : ''}`;
  try {
    await page.waitForSelector(sel, { timeout: WAIT_MS });
  } catch {
    throw new Error(`no diagram ${sel}`);
  }
  return page.evaluate((s) => {
    const d = document.querySelector(s);
    const marks = [...d.querySelectorAll('[data-mark]')].map((m) => `${m.dataset.mark}:${m.dataset.kind}`).sort();
    const zone = [...d.querySelectorAll('[data-zone]')].map((z) => z.dataset.zone);
    return { marks, zone, targets: Number(d.dataset.targets), units: d.querySelectorAll('g.unit').length };
  }, sel);
}

const GOOD = `# Tiny Test Chieftain: two Chieftains a side on 6x6
[tiny-test]
base = mini-chieftain
name = Tiny Test Chieftain
board = 6x6
piece C = Chieftain, K^, leader royal
setup = 1ccm2/6/6/6/6/2CMC1 w
`;
const BAD = GOOD.replace('K^, leader', 'K^Y, leader');

// ---------------------------------------------------------------- scenarios

async function customVariant(sc) {
  const page = await sc.page();
  await page.goto(base + '/');
  await page.waitForSelector('[data-testid=custom-text]');

  // A file with an error: the message names the line and field, the line is highlighted.
  // The server refuses it (400, and the console's line about it): expected.
  sc.expect(/POST http:\/\/127\.0\.0\.1:\d+\/api\/variants\/check -> 400 /,
    /console error at http:\/\/127\.0\.0\.1:\d+\/api\/variants\/check: Failed to load resource: .* 400 /);
  await page.fill('[data-testid=custom-text]', BAD);
  await page.click('[data-testid=custom-check]');
  await page.waitForSelector('[data-testid=custom-error]');
  const msg = await page.textContent('[data-testid=custom-error]');
  check(msg.includes('Line 6') && msg.includes("field 'piece C'") && msg.includes("unknown atom 'Y'"), `the error names line 6, its field and the problem ("${msg}")`);
  const bad = await page.locator('[data-testid=custom-listing] .bad').allTextContents();
  check(bad.length === 1 && bad[0].includes('K^Y') && bad[0].startsWith('6'), `line 6 is highlighted in the listing (${JSON.stringify(bad)})`);
  check(await page.locator('[data-testid^=custom-start-]').count() === 0, 'no game can start from a bad file');

  // Fixed, and uploaded as a file: checked at once; the start position, every piece's
  // moves, and a diagram.
  await page.setInputFiles('[data-testid=custom-file]', { name: 'tiny-test.ini', mimeType: 'text/plain', buffer: Buffer.from(GOOD) });
  await page.waitForSelector('[data-testid=custom-ok]');
  check(await page.inputValue('[data-testid=custom-text]') === GOOD, 'the uploaded file is shown in the text box');
  check(await page.locator('[data-testid=custom-error]').count() === 0, 'the error is gone');
  const checked = (await post('/api/variants/check', { text: GOOD })).body.variants[0];
  const units = await page.locator('[data-testid=custom-start-board-tiny-test] g.unit').count();
  check(units === 6 && checked.start.units.length === 6, `the start position shows its 6 units (${units})`);
  const squares = await page.locator('[data-testid=custom-start-board-tiny-test] rect.sq').count();
  check(squares === 36, `a 6x6 board (${squares} squares)`);
  const facts = await page.textContent('[data-testid=custom-facts-tiny-test]');
  check(facts.includes('6x6') && facts.includes(`${checked.first_steps} legal first steps`), `facts: ${facts}`);
  const rows = await page.locator('[data-testid=custom-pieces-tiny-test] tr').allTextContents();
  check(rows.length === 5 && rows.some((r) => r.startsWith('CChieftainK^leader, royal24 squares')) && rows.some((r) => r.startsWith('NKnightN8 squares')),
    `every piece with its moves (${rows.join(' | ')})`);
  const scope = '[data-testid=custom-variant-tiny-test]';
  await page.click(`${scope} [data-testid=diagram-kind-N]`);
  const knight = await waitDiagram(page, scope, 'N', 'c3', 'empty');
  check(knight.targets === 8 && knight.marks.length === 8, `the Knight from c3 reaches 8 squares on 6x6 (${knight.marks})`);
  await page.click(`${scope} [data-testid=diagram-kind-C]`);
  await waitDiagram(page, scope, 'C', 'c3', 'empty');
  mkdirSync(SHOTS, { recursive: true });
  await (await page.$('[data-testid=custom-panel]')).screenshot({ path: join(SHOTS, 'custom-variant.png') });

  // A game against the AI with it.
  await page.selectOption('[data-testid=custom-opponent-tiny-test]', 'ai');
  await page.selectOption('[data-testid=custom-strength-tiny-test]', 'level8');
  await page.selectOption('[data-testid=custom-time-tiny-test]', '200');
  await page.click('[data-testid=custom-start-tiny-test]');
  await page.waitForSelector('[data-testid=board] svg');
  const u = new URL(page.url());
  const id = u.pathname.split('/').pop();
  const token = u.searchParams.get('token');
  check(token && token.length === 32, 'we hold White\'s seat');
  check((await page.textContent('h1')).includes('Tiny Test Chieftain'), 'the game page names the custom variant');
  check(await page.isVisible('[data-testid=custom-badge]'), 'and marks it custom');
  await page.click('[data-testid=variant-file-open]');
  await page.waitForFunction(() => document.querySelector('[data-testid=variant-file]').textContent.length > 0);
  check(await page.textContent('[data-testid=variant-file]') === GOOD, 'the game page shows the variant file stored with the game');
  let view = await getJson(`/api/games/${id}?token=${token}`);
  check(view.files === 6 && view.ranks === 6 && view.custom === true, 'the game is on the 6x6 board');

  // Our turn by clicking: a Man forward, then End turn.
  const step = view.legal.find((s) => s.from && !s.text.includes('x') && Number(s.to.slice(1)) > Number(s.from.slice(1)));
  check(step, 'a forward step is legal');
  let v0 = await version(page);
  await page.click(`[data-testid=board] [data-testid=sq-${step.from}]`);
  await page.waitForFunction((sq) => document.querySelector('[data-testid=board]').dataset.selected === sq, step.from);
  check(await page.locator(`[data-target="${step.to}"]`).count() === 1, `${step.to} is offered`);
  await page.click(`[data-testid=board] [data-testid=sq-${step.to}]`);
  await waitVersionAbove(page, v0, step.text);
  check((await page.textContent('[data-testid=turn-steps]')).includes(step.text), `the turn lists ${step.text}`);
  v0 = await version(page);
  await page.click('[data-testid=end-turn]');
  await waitVersionAbove(page, v0, 'end of turn');
  try {
    await page.waitForFunction(() => {
      const b = document.querySelector('[data-testid=board]');
      return b.dataset.toMove === 'white' && document.querySelectorAll('[data-testid=move-list] [data-turn]').length >= 2 && !document.querySelector('[data-testid=ai-thinking]');
    }, null, { timeout: WAIT_MS });
  } catch {
    throw new Error('the AI never replied');
  }
  view = await getJson(`/api/games/${id}?token=${token}`);
  check(view.turns.length === 2 && view.turns[1].side === 'black', 'the AI played its turn');
  // One cell per turn (the list numbers full turns: White's and Black's on one line).
  const lines = await page.locator('[data-testid=move-list] [data-turn]').allTextContents();
  check(lines[1].includes(view.turns[1].steps[0]), `the AI's turn is listed (${lines[1]})`);
  // A reload shows the same game; the record names the variant and carries its file.
  const before = await page.getAttribute('[data-testid=board]', 'data-position');
  await page.reload();
  await page.waitForSelector('[data-testid=board] svg');
  check(await page.getAttribute('[data-testid=board]', 'data-position') === before, 'the same position after a reload');
  const record = await getJson(`/api/games/${id}/record?format=json`);
  check(record.variant === 'tiny-test' && record.variant_name === 'Tiny Test Chieftain' && record.variant_file === GOOD, 'the record names the variant and holds its file');
  return `line 6 error shown and highlighted, fixed, 6 units and 5 pieces shown, ${step.text} then the AI's ${view.turns[1].steps.filter((s) => s !== 'end').join(' ')}`;
}

async function diagrams(sc) {
  const page = await sc.page();
  await page.goto(base + '/');
  await page.waitForSelector('[data-testid=pieces-open-chess]');

  // A Knight from d4 on an empty board: 8 targets, each a move or a capture.
  const chess = '[data-testid=pieces-chess]';
  await page.click('[data-testid=pieces-open-chess]');
  await page.waitForSelector(`${chess} [data-testid=diagram-kind-N]`);
  await page.click(`${chess} [data-testid=diagram-kind-N]`);
  await waitDiagram(page, chess, 'N');
  await page.click(`${chess} [data-testid=sq-d4]`);
  const n = await waitDiagram(page, chess, 'N', 'd4', 'empty');
  check(n.marks.join(' ') === 'b3:both b5:both c2:both c6:both e2:both e6:both f3:both f5:both', `Knight d4: ${n.marks.join(' ')}`);
  check(n.units === 1, 'one piece on the empty board');
  check((await page.textContent(`${chess} [data-testid=diagram-count]`)) === '8 squares', 'it says 8 squares');
  // A Pawn: forward a move only, diagonals captures only, marked differently.
  await page.click(`${chess} [data-testid=diagram-kind-P]`);
  const p = await waitDiagram(page, chess, 'P', 'd4', 'empty');
  check(p.marks.join(' ') === 'c5:capture d5:move e5:capture', `Pawn d4: ${p.marks.join(' ')}`);
  // On the start position, a Knight on d6 captures four Black units and nothing else.
  await page.click(`${chess} [data-testid=diagram-kind-N]`);
  await page.click(`${chess} [data-testid=diagram-board]`);
  await waitDiagram(page, chess, 'N', null, 'board');
  await page.click(`${chess} [data-testid=sq-d6]`);
  const nb = await waitDiagram(page, chess, 'N', 'd6', 'board');
  check(nb.marks.join(' ') === 'b5:both b7:capture c4:both c8:capture e4:both e8:capture f5:both f7:capture', `Knight d6 on the start position: ${nb.marks.join(' ')}`);
  check(nb.units === 33, `the start position's 32 units and the Knight (${nb.units})`);

  // A leader: the Chieftain activates every kind within 3 squares (its reach shaded).
  const mini = '[data-testid=pieces-mini-chieftain]';
  await page.click('[data-testid=pieces-open-mini-chieftain]');
  await waitDiagram(page, mini, 'C');
  await page.click(`${mini} [data-testid=sq-d4]`);
  const c = await waitDiagram(page, mini, 'C', 'd4', 'empty');
  check(c.zone.length === 49 && c.marks.length === 24, `Chieftain d4: reach ${c.zone.length} squares, ${c.marks.length} moves`);
  const acts = await page.textContent(`${mini} [data-testid=diagram-activates]`);
  check(acts === 'Activates: Chieftain, Hero, Shaman, Knight, Man.', acts);
  check((await page.textContent(`${mini} [data-testid=diagram-leader]`)).includes('within 3 squares'), 'its range is named');
  await page.click(`${mini} [data-testid=diagram-reach]`);
  await page.waitForFunction((s) => document.querySelectorAll(`${s} [data-zone]`).length === 0, mini);

  // Chesimal Fusion: the Prince's two modes and what each activates; a Pawn as led.
  const fusion = '[data-testid=pieces-chesimal-fusion-1]';
  await page.click('[data-testid=pieces-open-chesimal-fusion-1]');
  await page.waitForSelector(`${fusion} [data-testid=diagram-kind-C]`);
  await page.click(`${fusion} [data-testid=diagram-kind-C]`);
  await waitDiagram(page, fusion, 'C');
  const ortho = await page.textContent(`${fusion} [data-testid=diagram-mode-ortho]`);
  const dia = await page.textContent(`${fusion} [data-testid=diagram-mode-dia]`);
  check(ortho.includes('activates King, Prince, Warmachine, Pawn') && ortho.includes('Pawns move as W'), ortho);
  check(dia.includes('activates King, Prince, Elephant, Pawn') && dia.includes('Pawns move as F'), dia);
  await page.click(`${fusion} [data-testid=diagram-kind-P]`);
  await waitDiagram(page, fusion, 'P');
  const led = await page.textContent(`${fusion} [data-testid=diagram-activated]`);
  check(led.includes('Led by the King: moves as K, 8 squares') && led.includes('Led by the Prince (dia): moves as F, 4 squares'), led);
  // The Prince on b2 in the start position: its linked units shaded, its lead steps named.
  await page.click(`${fusion} [data-testid=diagram-kind-C]`);
  await page.click(`${fusion} [data-testid=diagram-board]`);
  await waitDiagram(page, fusion, 'C', null, 'board');
  await page.click(`${fusion} [data-testid=sq-b2]`);
  const prince = await waitDiagram(page, fusion, 'C', 'b2', 'board');
  check(prince.zone.length >= 8, `the units linked to the Prince are shaded (${prince.zone.length})`);
  const now = await page.textContent(`${fusion} [data-testid=diagram-legal-now]`);
  check(now.includes('lead:b2:ortho, lead:b2:dia'), now);
  mkdirSync(SHOTS, { recursive: true });
  await (await page.$('[data-testid=variant-chesimal-fusion-1]')).screenshot({ path: join(SHOTS, 'piece-diagram.png') });

  // The game page: the pieces panel on the current board, refreshed as the game moves.
  const r = await post('/api/games', { variant: 'chess', white: 'human', black: 'human' });
  check(r.status === 200, `a chess game: ${JSON.stringify(r.body)}`);
  const g = await sc.page();
  await g.goto(base + r.body.links.white);
  await g.waitForSelector('[data-testid=board] svg');
  await g.click('[data-testid=show-pieces]');
  await g.waitForSelector('[data-testid=piece-diagram][data-board=board]');
  await g.click('[data-testid=piece-diagram-panel] [data-testid=diagram-kind-B]');
  await waitDiagram(g, '', 'B', null, 'board');
  await g.click('[data-testid=piece-diagram-panel] [data-testid=sq-f1]');
  const b0 = await waitDiagram(g, '', 'B', 'f1', 'board');
  check(b0.marks.length === 0, `the Bishop on f1 is shut in (${b0.marks})`);
  check((await g.textContent('[data-testid=diagram-legal-now]')).includes('may not move now'), 'and may not move now');
  const played = await post(`/api/games/${r.body.id}/step`, { token: r.body.tokens.white, step: 'e2-e4' });
  check(played.status === 200, 'e2-e4 played');
  await g.waitForFunction(() => document.querySelector('[data-testid=piece-diagram]').dataset.targets === '5');
  const b1 = await waitDiagram(g, '', 'B', 'f1', 'board');
  check(b1.marks.join(' ') === 'a6:both b5:both c4:both d3:both e2:both', `after e2-e4 the Bishop's diagonal opens (${b1.marks})`);
  return 'Knight d4: 8 targets; Pawn move/capture marks; Knight d6 captures 4; Chieftain reach 49 and its kinds; Prince modes; Pawn as led; the game page diagram follows the game';
}

// ---------------------------------------------------------------- runner

const scenarios = [
  ['custom variant: error on its line, fixed, played against the AI', customVariant],
  ['piece diagrams: empty board, start position, leaders, game page', diagrams],
];

await runSuite('custom browser tests', scenarios, {
  prefix: 'cohort-custom-',
  timeoutMs: SCENARIO_MS, waitMs: WAIT_MS,
  ready: (env) => ({ base } = env),
});
