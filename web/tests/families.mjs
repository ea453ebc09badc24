// Browser test for the game families written outside the rules crate (crates/families):
// Breakthrough and Ataxx, each played in the browser against the AI to the end, by clicks on
// the board (a unit, then its destination; an Ataxx clone from any adjacent stone; Pass when
// the rules list it), their rules pages, the board as drawn at the end, and the finished
// game's record, which `cohort replay` accepts. Set-up and scenario runner in harness.mjs.
// Usage (from web/): COHORT_BIN=../target/release/cohort node tests/families.mjs
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, SHOTS, check, checkDrawnBoard, runSuite } from './harness.mjs';

const WAIT_MS = 25000;
let base = '';
let dir = '';

async function api(method, path, body) {
  const r = await fetch(`${base}${path}`, { method, headers: body ? { 'content-type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined });
  const json = await r.json();
  check(r.ok, `${method} ${path}: ${r.status} ${JSON.stringify(json)}`);
  return json;
}

// One game of `variant`: the person (White, in the browser) against the engine (Black).
async function playToTheEnd(sc, variant, { maxTurns, ends }) {
  const page = await sc.page();
  await page.goto(`${base}/rules/${variant}`);
  await page.waitForSelector('h1');
  const rules = await page.textContent('body');
  check(rules.length > 200, `${variant}: a rules page`);

  const created = await api('POST', '/api/games', { variant, white: 'human', black: 'ai', ai: { agent: 'engine', time_ms: 50 } });
  const id = created.id;
  // Every step the page posts is data: the listed step's index and the view's version.
  const posted = [];
  page.on('request', (r) => { if (r.method() === 'POST' && r.url().endsWith('/step')) posted.push(JSON.parse(r.postData())); });
  await page.goto(`${base}${created.links.white}`);
  await page.waitForSelector('[data-testid=board] svg');
  // The opponent's steps shown at once: a click during their replay would set a premove.
  await page.selectOption('[data-testid=replay-speed]', '0');
  let turns = 0;
  let clones = 0;
  let passes = 0;
  for (;;) {
    // Wait until it is White's turn (the AI has answered) or the game is over.
    await page.waitForFunction(() => {
      const b = document.querySelector('[data-testid=board]');
      const s = document.querySelector('[data-testid=status]');
      return (b && b.dataset.toMove === 'white' && !document.querySelector('[data-testid=skip-replay]')) || (s && /wins|Draw|draw/.test(s.textContent));
    }, null, { timeout: WAIT_MS });
    const v = await api('GET', `/api/games/${id}`);
    if (v.result) break;
    if (v.to_move !== 'white' || v.ai_thinking) { await page.waitForTimeout(50); continue; }
    check(turns < maxTurns, `${variant}: no end after ${maxTurns} turns`);
    const pass = v.steps.find((s) => s.kind === 'pass');
    const before = v.version;
    if (pass) {
      await page.click('[data-testid=pass]');
      passes++;
    } else {
      // Prefer a step from a unit that is not its `from` (an Ataxx clone), else the first.
      const units = v.steps.filter((s) => s.kind !== 'end' && s.origins && s.origins.length);
      const step = units.find((s) => s.origins[0] !== s.from) || units[turns % units.length];
      if (step.origins[0] !== step.from) clones++;
      await page.click(`[data-testid=sq-${step.origins[0]}]`);
      await page.click(`[data-testid=sq-${step.to}]`);
    }
    // The click played the step: the game moved on.
    await page.waitForFunction(async ([gid, ver]) => {
      const r = await fetch(`/api/games/${gid}`);
      const g = await r.json();
      return g.version !== ver;
    }, [id, before], { timeout: WAIT_MS });
    turns++;
  }
  const end = await api('GET', `/api/games/${id}`);
  check(end.result, `${variant}: the game ended`);
  const mine = end.turns.filter((t) => t.side === 'white').length;
  check(posted.length === turns && posted.every((b) => Number.isInteger(b.index) && Number.isInteger(b.version) && !('step' in b)),
    `${variant}: steps posted as data: ${JSON.stringify(posted.slice(0, 3))}`);
  check(mine === turns, `${variant}: every click turn is in the game (${mine} White turns, ${turns} clicked)`);
  check(ends.some((e) => end.result.text.includes(e)), `${variant}: ended by its family's own rules: ${end.result.text}`);
  await page.waitForFunction(() => /wins|Draw|draw/.test(document.querySelector('[data-testid=status]').textContent));
  await checkDrawnBoard(page, end, `${variant}: the final position`);
  await page.screenshot({ path: join(SHOTS, `family-${variant}.png`) });

  // The record of the finished game, replayed by the command line.
  const r = await fetch(`${base}/api/games/${id}/record`);
  check(r.ok, `${variant}: record ${r.status}`);
  const text = await r.text();
  check(text.includes(`[Variant "${variant}"]`), `${variant}: the record names its variant:\n${text}`);
  const file = join(dir, `${variant}.txt`);
  writeFileSync(file, text);
  const out = execFileSync(BIN, ['replay', file], { encoding: 'utf8' });
  check(out.includes(end.position), `${variant}: cohort replay reaches the game's final position:\n${out}`);
  return `${turns} turns by clicks (${clones} clones, ${passes} passes): ${end.result.text}; the record replays`;
}

const suite = [
  ['Breakthrough against the AI to the end, record replayed', 120000,
    (sc) => playToTheEnd(sc, 'breakthrough', { maxTurns: 200, ends: ['far rank', 'every enemy pawn'] })],
  ['Ataxx against the AI to the end, record replayed', 180000,
    (sc) => playToTheEnd(sc, 'ataxx', { maxTurns: 200, ends: ['board is full', 'no stones', 'neither side can move', '100 half-moves'] })],
];

runSuite('families', suite, { prefix: 'cohort-families-', ready: (r) => { base = r.base; dir = r.dir; } });
