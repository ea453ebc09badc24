// Browser tests of the analysis board (docs/server.md, "Analysis"): a finished game analysed
// from its game page (the score chart with a point per turn, the blunder marked on the chart
// and in the move list, the engine's preferred turn drawn as arrows, the board at each point
// the game's position there); and an analysis board of a position from the rules page's
// link: the engine's turn evaluated and drawn, then played as free moves to the win.
// Usage (from web/): COHORT_BIN=../target/release/cohort node tests/analysis.mjs
import { join } from 'node:path';
import { SHOTS, check, checkDrawnBoard, runSuite } from './harness.mjs';

const WAIT_MS = 30000;
let base = '';

async function api(method, path, body) {
  const r = await fetch(`${base}${path}`, { method, headers: body ? { 'content-type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined });
  const json = await r.json();
  check(r.ok, `${method} ${path}: ${r.status} ${JSON.stringify(json)}`);
  return json;
}

const attr = (page, sel, name) => page.getAttribute(sel, name);

async function finishedGame(sc) {
  // 1. e4 f6 2. d4 g5 3. Qh5#: Black's g5 throws the game away.
  const g = await api('POST', '/api/games', { variant: 'chess', white: 'human', black: 'human' });
  const played = ['e2-e4', 'f7-f6', 'd2-d4', 'g7-g5', 'd1-h5'];
  for (const [i, step] of played.entries()) {
    await api('POST', `/api/games/${g.id}/step`, { token: g.tokens[i % 2 ? 'black' : 'white'], step });
  }
  const page = await sc.page();
  await page.goto(`${base}/game/${g.id}?token=${g.tokens.white}`);
  await Promise.all([page.waitForURL(/\/analysis\?game=/), page.click('[data-testid=analysis-link]')]);
  await page.waitForSelector('[data-testid=analyse-game]');
  check(!(await page.$('[data-testid=score-chart]')), 'no chart before the analysis');
  // The server's analysis (the page's engine runs in the browser by default: see
  // local-analysis.mjs).
  await page.selectOption('[data-testid=analysis-where]', 'server');
  await page.selectOption('[data-testid=analysis-ms]', '200');
  await page.click('[data-testid=analyse-game]');
  // Done: the chart has a point per turn and the last position; the progress is gone.
  await page.waitForSelector('[data-testid=score-chart][data-points="6"]');
  await page.waitForFunction(() => !document.querySelector('[data-testid=analysis-progress]'), null, { timeout: WAIT_MS });
  check(new URL(page.url()).searchParams.get('analysis'), 'the page\'s address names the analysis (a reload shows it)');
  const marks = await page.$$eval('[data-testid=chart-mark]', (es) => es.map((e) => e.getAttribute('data-mark')));
  check(marks.includes('blunder'), `a blunder on the chart: ${marks}`);
  const listed = await page.$$eval('[data-testid=turn-mark]', (es) => es.map((e) => `${e.closest('[data-turn]').getAttribute('data-turn')}:${e.textContent}`));
  check(listed.includes('4:??'), `g5 (turn 4) marked ?? in the move list: ${listed}`);
  // At the start: the engine's preferred first turn as an arrow.
  const startHints = await page.$$eval('[data-hint-arrow]', (es) => es.map((e) => e.getAttribute('data-hint-arrow')));
  check(startHints.length >= 1, 'the engine\'s turn is drawn at the start');
  // After g5 (turn 4): the board is the game's position there, the mate drawn as an arrow.
  await page.click('[data-testid=move-list] [data-turn="4"]');
  await page.waitForSelector('[data-testid=board][data-at="4"]');
  await checkDrawnBoard(page, await api('GET', `/api/games/${g.id}?at=4`), 'after g5');
  await page.waitForSelector('[data-hint-arrow="d1-h5"]');
  const score = await page.textContent('[data-testid=engine-score]');
  check(score.includes('White wins by force'), `the score after g5: ${score}`);
  // The note under the board on the blunder itself (the point before turn 4).
  await page.click('[data-testid=move-list] [data-turn="3"]');
  await page.waitForSelector('[data-testid=board][data-at="3"]');
  const note = await page.textContent('[data-testid=mark-note]');
  check(note.includes('g7-g5') && note.includes('blunder'), `the note: ${note}`);
  await page.screenshot({ path: join(SHOTS, 'analysis-game.png') });
  // A click on the chart's left end goes to the start.
  const box = await page.$('[data-testid=score-chart]').then((e) => e.boundingBox());
  await page.mouse.click(box.x + 3, box.y + box.height / 2);
  await page.waitForSelector('[data-testid=board][data-at="0"]');
  return `chart of 6 points, marks [${marks}], move list [${listed}], the mate drawn after g5 (${score})`;
}

async function positionBoard(sc) {
  const page = await sc.page();
  // The rules page links to an analysis board of the variant.
  await page.goto(`${base}/rules/mini-chieftain`);
  await Promise.all([page.waitForURL(/\/analysis\?variant=mini-chieftain/), page.click('[data-testid=analysis-board-link]')]);
  await page.waitForSelector('[data-testid=board]');
  const start = await api('POST', '/api/analysis/view', { variant: 'mini-chieftain' });
  await checkDrawnBoard(page, start, 'the start position');
  // A position with a win inside the turn (issue 28's example).
  const pos = 'c6m/8/1N6/8/8/8/8/6CC w';
  await page.goto(`${base}/analysis?variant=mini-chieftain&position=${encodeURIComponent(pos)}`);
  await page.waitForSelector('[data-testid=evaluate]');
  await page.click('[data-testid=evaluate]');
  await page.waitForSelector('[data-testid=engine-best]');
  const best = await page.textContent('[data-testid=engine-best]');
  check(best.trim().endsWith('b6xa8'), `the engine's turn: ${best}`);
  const hints = await attr(page, '[data-testid=board]', 'data-hints');
  check(hints.includes('b6-a8'), `its steps drawn as arrows: ${hints}`);
  await page.screenshot({ path: join(SHOTS, 'analysis-position.png') });
  // Played as free moves: the first dragged with the mouse (issue 45's newcomer: the board
  // ignored drag and drop), the others clicked; the game is won.
  const steps = best.trim().split(/\s+/).filter((t) => t !== 'end');
  const centre = async (sq) => {
    const b = await page.locator(`[data-testid=sq-${sq}]`).boundingBox();
    return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
  };
  for (const [k, text] of steps.entries()) {
    const [from, to] = text.split(/[-x]/);
    if (k === 0) {
      const [a, b] = [await centre(from), await centre(to)];
      await page.mouse.move(a.x, a.y);
      await page.mouse.down();
      await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 6 });
      await page.mouse.move(b.x, b.y, { steps: 6 });
      await page.mouse.up();
    } else {
      await page.click(`[data-testid=sq-${from}]`);
      await page.click(`[data-testid=sq-${to}]`);
    }
    await page.waitForSelector(`[data-testid=board][data-free="${steps.slice(0, k + 1).join(' ')}"]`);
  }
  const status = await page.textContent('[data-testid=status]');
  check(status.includes('White wins'), `after the free moves: ${status}`);
  await page.click('[data-testid=free-undo]');
  await page.waitForSelector(`[data-testid=board][data-free="${steps.slice(0, -1).join(' ')}"]`);
  return `the engine's turn ${best.trim()} drawn (${hints}) and played (the first step dragged) to "${status.trim()}"`;
}

await runSuite('analysis browser tests', [
  ['analysis: a finished game, its chart, marks and arrows', 90000, finishedGame],
  ['analysis: a position from the rules page, evaluated and played', 60000, positionBoard],
], {
  prefix: 'cohort-analysis-', waitMs: WAIT_MS,
  ready: (env) => ({ base } = env),
});
