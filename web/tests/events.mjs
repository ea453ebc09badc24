// Browser tests of "every event visible": Lifeform's regulations shown before `End turn` and
// listed and animated after it; the AI's turn replayed step by step with arrows; full-turn
// numbering in the move list; pieces drawn as SVG and the letter toggle; the rules page and
// the reconstructed note's link to it; the Stop button of an AI-against-AI game; the page on
// a phone (390x844). Same set-up as browser.mjs: playwright-core drives Debian's chromium
// against a real `cohort serve` on a temporary SQLite file.
// Usage (from web/): COHORT_BIN=../target/release/cohort node tests/events.mjs [name filter]
import { join } from 'node:path';
import { SHOTS, check, readDrawnBoard, runSuite } from './harness.mjs';

const SCENARIO_MS = 60000;
const WAIT_MS = 25000;

let base = '';

async function getView(id, token) {
  const r = await fetch(`${base}/api/games/${id}${token ? `?token=${token}` : ''}`);
  check(r.ok, `GET game ${id}: ${r.status}`);
  return r.json();
}

async function post(path, body) {
  const r = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  let json = null;
  try { json = await r.json(); } catch { /* checked by the caller */ }
  return { status: r.status, body: json };
}

async function create(body) {
  const r = await post('/api/games', body);
  check(r.status === 200, `create ${JSON.stringify(body)}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

const attr = (page, name) => page.getAttribute('[data-testid=board]', name);
async function version(page) { return Number(await attr(page, 'data-version')); }
async function waitVersionAbove(page, v) {
  await page.waitForFunction((old) => Number(document.querySelector('[data-testid=board]').dataset.version) > old, v);
}
async function replayDone(page) {
  await page.waitForFunction(() => document.querySelector('[data-testid=board]')?.dataset.replaying === 'no');
}
async function clickStep(page, from, to) {
  await replayDone(page);
  const v0 = await version(page);
  await page.click(`[data-testid=sq-${from}]`);
  await page.waitForFunction((sq) => document.querySelector('[data-testid=board]').dataset.selected === sq, from);
  await page.click(`[data-testid=sq-${to}]`);
  await waitVersionAbove(page, v0);
}
const unitsOn = (page) => page.evaluate(() => [...document.querySelectorAll('[data-testid=board] g.unit')].map((g) => g.dataset.unit));

// Record every frame the page shows while it replays others' steps: the step, its arrow,
// the board position, the units it removed, and the board as drawn then (harness.mjs:
// readDrawnBoard, each piece on the square its drawing stands on).
async function recordFrames(page) {
  await page.evaluate(`window.__readDrawnBoard = ${readDrawnBoard.toString()}`);
  await page.evaluate(() => {
    window.__frames = [];
    const seen = () => {
      const b = document.querySelector('[data-testid=board]');
      if (!b || !b.dataset.frame) return;
      const last = window.__frames[window.__frames.length - 1];
      if (last && last.k === Number(b.dataset.frame)) return;
      const cur = b.querySelector('.arrow.current');
      window.__frames.push({
        k: Number(b.dataset.frame), step: b.dataset.step, position: b.dataset.framePosition,
        arrow: cur ? cur.dataset.arrow : null, removed: b.dataset.frameRemoved,
        ghosts: [...b.querySelectorAll('[data-removed]')].map((g) => g.dataset.removed).sort().join(' '),
        drawn: window.__readDrawnBoard(['[data-testid=board]', null, null]).drawn,
        t: performance.now(),
      });
    };
    new MutationObserver(seen).observe(document.getElementById('app'), { childList: true, subtree: true, attributes: true });
  });
}

// Frame i (after step `frame.k` of the game) drew the game's position after that many steps,
// as the server's stored game reports it (`?at=k`), piece by piece on its square.
async function checkFrameDrawn(page, gameId, frame, what) {
  const past = await (await fetch(`${base}/api/games/${gameId}?at=${frame.k}`)).json();
  const { want } = await page.evaluate(readDrawnBoard, ['[data-testid=board]', past.units, past.pieces]);
  const missing = want.filter((x) => !frame.drawn.includes(x));
  const extra = frame.drawn.filter((x) => !want.includes(x));
  check(!missing.length && !extra.length && want.length === frame.drawn.length,
    `${what}: the frame drew a board other than the game's after step ${frame.k}; not drawn: [${missing.join(', ')}], drawn but not there: [${extra.join(', ')}]`);
}

// ---------------------------------------------------------------- scenarios

// White: Head b2, Torso c1, Limb d2, Foot e3. The Torso stepping to b1 cuts the Limb off the
// Torso, and the Foot with it: the regulations remove both at the end of the turn.
const LIFEFORM = '3qk3/8/8/8/8/4N3/1K1P4/2Q5 w';

async function regulations(sc) {
  const g = await create({ variant: 'lifeform', white: 'human', black: 'human', position: LIFEFORM });
  const a = await sc.page();
  await a.goto(`${base}${g.links.white}`);
  const b = await sc.page();
  await b.goto(`${base}${g.links.black}`);
  await b.waitForSelector('[data-testid=board] svg');
  await recordFrames(b);
  await a.waitForSelector('[data-testid=board] svg');
  check(await a.locator('[data-testid=end-preview]').count() === 0, 'no preview before the main move');
  await clickStep(a, 'c1', 'b1');
  // Before End turn: the preview names both units and the board crosses them out; they are still there.
  await a.waitForSelector('[data-testid=end-preview]');
  const squares = (await a.getAttribute('[data-testid=end-preview]', 'data-squares')).split(' ').sort().join(' ');
  check(squares === 'd2 e3', `the preview lists d2 and e3 (${squares})`);
  const text = await a.textContent('[data-testid=end-preview]');
  check(/Limb.*d2/.test(text) && /Foot.*e3/.test(text), `the preview names the Limb on d2 and the Foot on e3 (${text})`);
  check(await a.locator('[data-doomed=d2]').count() === 1 && await a.locator('[data-doomed=e3]').count() === 1, 'd2 and e3 are crossed on the board');
  const before = await unitsOn(a);
  check(before.includes('d2') && before.includes('e3'), 'the units are still on the board before the end');
  await a.screenshot({ path: join(SHOTS, 'lifeform-preview.png') });
  // End turn: listed in the move list, faded out on the board.
  const v0 = await version(a);
  await a.click('[data-testid=end-turn]');
  await waitVersionAbove(a, v0);
  await a.waitForSelector('[data-testid=removal]');
  const listed = (await a.getAttribute('[data-testid=removal]', 'data-squares')).split(' ').sort().join(' ');
  check(listed === 'd2 e3', `the move list lists the removals (${listed})`);
  const cell = await a.textContent('[data-testid=move-list] .turn-cell.white');
  check(cell.includes('c1-b1') && cell.includes('\u2212Pd2') && cell.includes('\u2212Ne3'), `White's turn reads "${cell}"`);
  const after = await unitsOn(a);
  check(!after.includes('d2') && !after.includes('e3'), 'the units are gone');
  const ghosts = await a.evaluate(() => [...document.querySelectorAll('[data-removed]')].map((g) => ({
    sq: g.dataset.removed, anim: getComputedStyle(g).animationName,
  })));
  check(ghosts.map((x) => x.sq).sort().join(' ') === 'd2 e3' && ghosts.every((x) => x.anim === 'cohort-fade'), `removed units fade where they stood: ${JSON.stringify(ghosts)}`);
  await a.waitForTimeout(1800);
  const opacity = await a.evaluate(() => Number(getComputedStyle(document.querySelector('[data-removed=d2]')).opacity));
  check(opacity < 0.5, `the removed Limb has faded (opacity ${opacity})`);
  // A redraw of the same position (the board flipped and back) does not play the fade again:
  // the ghost stays as the fade left it (issue 45's newcomer: it came back on every redraw).
  await a.click('[data-testid=flip]');
  await a.click('[data-testid=flip]');
  const again = await a.evaluate(() => Number(getComputedStyle(document.querySelector('[data-removed=d2]')).opacity));
  check(again < 0.5, `after a redraw the removed Limb stays faded (opacity ${again})`);
  check(await a.locator('[data-testid=end-preview]').count() === 0, 'the preview is gone once the turn ended');
  // Black's page replayed White's turn step by step, the end with its removals.
  await replayDone(b);
  const frames = await b.evaluate(() => window.__frames);
  check(frames.map((f) => f.step).join(' ') === 'c1-b1 end', `Black saw c1-b1 then end (${JSON.stringify(frames)})`);
  check(frames[0].arrow === 'c1-b1', `the first frame has the arrow c1-b1 (${frames[0].arrow})`);
  check(frames[1].removed.split(' ').sort().join(' ') === 'd2 e3' && frames[1].ghosts === 'd2 e3', `the end frame shows the removals (${JSON.stringify(frames[1])})`);
  check(frames[1].t - frames[0].t > 300, 'one step at a time, with a delay');
  for (const f of frames) await checkFrameDrawn(b, g.id, f, `Black's frame of ${f.step}`);
  check(frames[0].drawn.some((d) => d.startsWith('b1 white ')) && !frames[0].drawn.some((d) => d.startsWith('c1 ')),
    `after c1-b1 the Torso is drawn on b1, nothing on c1 (${frames[0].drawn.join(', ')})`);
  check(!frames[1].drawn.some((d) => /^(d2|e3) /.test(d)), `after the end nothing is drawn on d2 and e3 (${frames[1].drawn.join(', ')})`);
  // Full-turn numbering: Black's reply shares line 1, White's next turn opens line 2.
  for (const [side, step] of [['black', 'd8-d7'], ['black', 'end'], ['white', 'b1-a1'], ['white', 'end']]) {
    const r = await post(`/api/games/${g.id}/step`, { token: g.tokens[side], step });
    check(r.status === 200, `${side} ${step}: ${JSON.stringify(r.body)}`);
  }
  await a.waitForFunction(() => document.querySelectorAll('[data-testid=move-list] li').length === 2);
  const lines = await a.locator('[data-testid=move-list] li').evaluateAll((els) => els.map((li) => ({
    num: li.querySelector('.num').textContent, sides: [...li.querySelectorAll('.turn-cell')].map((c) => c.dataset.side).join(' '),
    text: li.textContent.replace(/\s+/g, ' ').trim(),
  })));
  check(lines[0].num === '1.' && lines[0].sides === 'white black' && lines[0].text.includes('d8-d7'), `line 1: White's and Black's turns (${JSON.stringify(lines[0])})`);
  check(lines[1].num === '2.' && lines[1].sides === 'white' && lines[1].text.includes('b1-a1'), `line 2: White's next turn (${JSON.stringify(lines[1])})`);
  // A game that starts with Black: "1. ... <Black's turn>".
  const bl = await create({ variant: 'lifeform', white: 'human', black: 'human', position: '3qk3/8/8/8/8/4N3/1K1P4/2Q5 b' });
  for (const step of ['d8-d7', 'end']) {
    const r = await post(`/api/games/${bl.id}/step`, { token: bl.tokens.black, step });
    check(r.status === 200, `black ${step}: ${JSON.stringify(r.body)}`);
  }
  await a.goto(`${base}/game/${bl.id}`);
  await a.waitForSelector('[data-testid=move-list] li');
  const first = await a.locator('[data-testid=move-list] li').first().evaluate((li) => ({
    num: li.querySelector('.num').textContent, cells: [...li.querySelectorAll('.turn-cell')].map((c) => `${c.dataset.side || ''}${c.classList.contains('empty') ? ':empty' : ''}:${c.textContent.trim()}`),
  }));
  check(first.num === '1.' && first.cells[0] === ':empty:\u2026' && first.cells[1].startsWith('black:d8-d7'), `Black starts: "1. \u2026 d8-d7" (${JSON.stringify(first)})`);
  return `preview ${squares}, listed "${cell.trim()}", faded to ${opacity.toFixed(2)}, Black saw ${frames.length} frames`;
}

async function aiReplay(sc) {
  const g = await create({ variant: 'chesimals-1', white: 'human', black: 'ai', ai: { agent: 'engine', time_ms: 200 } });
  const page = await sc.page();
  await page.goto(`${base}${g.links.white}`);
  await page.waitForSelector('[data-testid=board] svg');
  await recordFrames(page);
  // White's turn by the API (the page sees its own seat's steps at once, without replay).
  let view = await getView(g.id, g.tokens.white);
  const step = view.legal.find((s) => s.from && !s.text.includes('x'));
  for (const s of [step.text, 'end']) {
    const r = await post(`/api/games/${g.id}/step`, { token: g.tokens.white, step: s });
    check(r.status === 200, `${s}: ${JSON.stringify(r.body)}`);
  }
  await page.waitForFunction(() => {
    const b = document.querySelector('[data-testid=board]');
    return b.dataset.toMove === 'white' && b.dataset.replaying === 'no' && document.querySelectorAll('[data-testid=move-list] .turn-cell').length === 2;
  }, null, { timeout: WAIT_MS });
  view = await getView(g.id, g.tokens.white);
  const ai = view.turns[1].steps;
  const frames = await page.evaluate(() => window.__frames);
  check(frames.map((f) => f.step).join(' ') === ai.join(' '), `the AI's steps were shown one by one, in order: ${frames.map((f) => f.step).join(' ')} vs ${ai.join(' ')}`);
  check(frames.map((f) => f.k).join(',') === ai.map((_, i) => 2 + i + 1).join(','), `frames after steps ${frames.map((f) => f.k)}`);
  for (let i = 0; i < ai.length; i++) {
    const m = /^([a-p]\d+)[-x]([a-p]\d+)/.exec(ai[i]);
    if (m) check(frames[i].arrow === `${m[1]}-${m[2]}`, `step ${ai[i]} has its arrow (${frames[i].arrow})`);
    await checkFrameDrawn(page, g.id, frames[i], `frame ${i + 1}, after ${ai[i]}`);
    if (m) {
      check(!frames[i].drawn.some((d) => d.startsWith(`${m[1]} `)) && frames[i].drawn.some((d) => d.startsWith(`${m[2]} black `)),
        `frame ${i + 1}: after ${ai[i]} nothing is drawn on ${m[1]} and a Black unit on ${m[2]} (${frames[i].drawn.join(', ')})`);
    }
    if (i > 0) check(frames[i].t - frames[i - 1].t > 300, 'one step at a time, with a delay');
  }
  check(new Set(frames.map((f) => f.drawn.join())).size >= Math.min(2, ai.length), 'the drawn board changes from step to step');
  // Full-turn numbering: "1." then White's and Black's turns on one line.
  const rows = await page.locator('[data-testid=move-list] li').allTextContents();
  check(rows.length === 1 && rows[0].startsWith('1.'), `one numbered line for the first full turn (${JSON.stringify(rows)})`);
  const cells = await page.locator('[data-testid=move-list] li .turn-cell').evaluateAll((els) => els.map((e) => e.dataset.side));
  check(cells.join(' ') === 'white black', `White's then Black's turn on line 1 (${cells})`);
  // After the replay the arrows of the AI's turn stay on the board.
  const arrows = await page.locator('[data-testid=board] .arrow').count();
  check(arrows === ai.filter((s) => /^[a-p]\d+[-x]/.test(s)).length, `the AI's turn keeps its ${arrows} arrows`);
  await page.screenshot({ path: join(SHOTS, 'ai-replay.png') });
  // Pieces are SVG drawings, leaders are marked, groups are numbered.
  const counts = await page.evaluate(() => ({
    units: document.querySelectorAll('[data-testid=board] g.unit').length,
    art: document.querySelectorAll('[data-testid=board] g.unit svg.piece-art').length,
    letters: document.querySelectorAll('[data-testid=board] g.unit text.letter').length,
    kinds: [...new Set([...document.querySelectorAll('[data-testid=board] svg.piece-art')].map((s) => s.dataset.piece))].sort(),
    leaders: document.querySelectorAll('[data-testid=board] [data-leader-badge]').length,
    numbers: document.querySelectorAll('[data-testid=board] .group-number').length,
  }));
  check(counts.units > 0 && counts.art === counts.units && counts.letters === 0, `every unit is an SVG drawing (${JSON.stringify(counts)})`);
  check(counts.kinds.join(',') === 'chief,elephant,guard,king,knight,warmachine', `the six Chesimals kinds are drawn (${counts.kinds})`);
  check(counts.leaders === 8 && counts.numbers === counts.units, `8 leaders marked, group numbers on every unit (${JSON.stringify(counts)})`);
  // Letters as an option, kept across a reload.
  await page.click('[data-testid=letters-toggle]');
  const lettered = await page.evaluate(() => ({
    art: document.querySelectorAll('[data-testid=board] svg.piece-art').length,
    letters: document.querySelectorAll('[data-testid=board] g.unit text.letter').length,
  }));
  check(lettered.art === 0 && lettered.letters === counts.units, `letters instead of drawings (${JSON.stringify(lettered)})`);
  await page.reload();
  await page.waitForSelector('[data-testid=board] svg');
  check(await page.locator('[data-testid=board] g.unit text.letter').count() === counts.units, 'letters kept after a reload');
  await page.click('[data-testid=letters-toggle]');
  check(await page.locator('[data-testid=board] g.unit svg.piece-art').count() === counts.units, 'drawings again');
  return `AI turn ${ai.join(' ')} replayed in ${frames.length} frames with arrows; "${rows[0].replace(/\s+/g, ' ').trim().slice(0, 60)}"; ${counts.art} SVG pieces; letters toggle kept`;
}

async function piecesEverywhere(sc) {
  // Every piece kind of every built-in variant has a drawing, for both sides.
  const page = await sc.page();
  await page.goto(`${base}/`);
  await page.waitForSelector('[data-testid^=diagram-]');
  const variants = await (await fetch(`${base}/api/variants`)).json();
  const missing = await page.evaluate((vs) => {
    const out = [];
    for (const v of vs) for (const name of Object.values(v.start.pieces)) {
      for (const side of ['white', 'black']) if (!CohortPieces.markup(name, side)) out.push(`${v.id}: ${name}`);
    }
    for (const name of ['Immobilizer', 'Pusher', 'Long Leaper', 'Withdrawer', 'Coordinator', 'Encloser', 'Swapper', 'Chameleon']) {
      if (!CohortPieces.markup(name, 'white')) out.push(`chessma: ${name}`);
    }
    return out;
  }, variants);
  check(!missing.length, `pieces without a drawing: ${missing.join(', ')}`);
  const diagrams = await page.locator('[data-testid^=diagram-] svg.piece-art').count();
  check(diagrams > 100, `the home page diagrams use the drawings (${diagrams})`);
  // The free set-up's card shows an example set-up, not the empty board it starts on, and
  // says so (issue 45's newcomer: "the Lifeform free set-up card shows an empty board").
  const free = await page.locator('[data-testid=diagram-lifeform-free] svg.piece-art').count();
  check(free === 32, `the free set-up's card shows both sides' sixteen pieces (${free})`);
  check((await page.textContent('[data-testid=sample-setup-lifeform-free]')).includes('example set-up'), 'the card says the set-up is an example');
  // The reconstructed note links to the rules page, which shows the pieces.
  const link = page.locator('[data-testid=reconstructed-link-mini-chieftain]');
  check(await link.getAttribute('href') === '/rules/mini-chieftain', 'the home note links to /rules/mini-chieftain');
  const g = await create({ variant: 'mini-chieftain', white: 'human', black: 'human' });
  await page.goto(`${base}${g.links.white}`);
  await page.waitForSelector('[data-testid=reconstructed-link]');
  const note = await page.textContent('[data-testid=reconstructed]');
  check(!note.includes('RULES.md'), `the game page note no longer points to RULES.md (${note})`);
  await page.click('[data-testid=reconstructed-link]');
  await page.waitForSelector('[data-testid=rules-pieces]');
  check(new URL(page.url()).pathname === '/rules/mini-chieftain', `the note opens the rules page (${page.url()})`);
  const rows = await page.locator('[data-testid=rules-pieces] tbody tr').count();
  const chieftain = await page.textContent('[data-testid=piece-C]');
  check(rows === 5 && chieftain.includes('Chieftain') && chieftain.includes('K^') && chieftain.includes('bent two-step'), `5 pieces, the Chieftain with its moves (${chieftain})`);
  check(await page.locator('[data-testid=piece-C] svg.piece-art').count() === 2, 'the Chieftain drawn for both sides');
  check((await page.textContent('[data-testid=rules-command]')).includes('within 3 squares'), 'the command rule is stated');
  check((await page.textContent('[data-testid=rules-reconstructed]')).includes('reconstructed'), 'the page says the setup is reconstructed');
  check(await page.locator('[data-testid=rules-setup] g.unit').count() === 32, 'the setup diagram has 32 units');
  await page.screenshot({ path: join(SHOTS, 'rules-page.png'), fullPage: true });
  await page.goto(`${base}/rules/lifeform`);
  await page.waitForSelector('[data-testid=rules-pieces]');
  check(await page.locator('[data-testid=rules-sourced]').count() === 1, 'lifeform: the setup is not reconstructed');
  check((await page.textContent('[data-testid=words-B]')).includes("knight's leap"), 'the Hand moves in words');
  const r = await fetch(`${base}/rules/no-such-variant`);
  check(r.status === 404, `an unknown variant's rules page is 404 (${r.status})`);
  return `every kind drawn (${variants.length} variants + Chessma's 8), ${diagrams} pieces in diagrams, note -> /rules/mini-chieftain (${rows} pieces, setup diagram)`;
}

async function stopButton(sc) {
  const page = await sc.page();
  await page.goto(`${base}/`);
  await page.waitForSelector('[data-testid=new-game-micro-chieftain]');
  await page.selectOption('[data-testid=opponent-micro-chieftain]', 'watch');
  // The engine at 1 s a turn: the game is still going when the page opens.
  await page.selectOption('[data-testid=strength-micro-chieftain]', 'level8');
  await page.selectOption('[data-testid=time-micro-chieftain]', '1000');
  await page.click('[data-testid=start-micro-chieftain]');
  await page.waitForSelector('[data-testid=stop-game]');
  const id = new URL(page.url()).pathname.split('/').pop();
  const watcher = await sc.page();
  await watcher.goto(`${base}/game/${id}`);
  await watcher.waitForSelector('[data-testid=board] svg');
  check(await watcher.locator('[data-testid=stop-game]').count() === 0, 'a spectator has no Stop button');
  await page.click('[data-testid=stop-game]');
  await page.waitForFunction(() => document.querySelector('[data-testid=board]').dataset.result.includes('Draw'));
  const v = await getView(id);
  check(v.result && v.result.reason === 'agreement', `the game is over (${JSON.stringify(v.result)})`);
  check(await page.locator('[data-testid=stop-game]').count() === 0, 'no Stop button once over');
  await watcher.waitForFunction(() => document.querySelector('[data-testid=board]').dataset.result.includes('Draw'));
  return `AI-against-AI game ${id} stopped from its page (${v.result.text})`;
}

async function phone(sc) {
  const g = await create({ variant: 'chesimals-1', white: 'human', black: 'human' });
  const page = await sc.page({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  await page.goto(`${base}${g.links.white}`);
  await page.waitForSelector('[data-testid=board] svg');
  await page.waitForSelector('[data-testid=board-fit]', { state: 'visible' });
  const m = await page.evaluate(() => {
    const r = document.querySelector('[data-testid=board-frame]').getBoundingClientRect();
    const sq = document.querySelector('[data-testid=sq-a1]').getBoundingClientRect();
    return { width: r.width, right: r.right, scroll: document.documentElement.scrollWidth, square: sq.width };
  });
  // A 16x12 board keeps squares a finger can tap; its frame scrolls sideways, the page not.
  check(m.right <= 390 && m.scroll <= 390, `the board's frame fits the phone's width (${JSON.stringify(m)})`);
  check(m.square >= 36, `a 16x12 square is ${m.square.toFixed(1)} px wide`);
  // Two long turns: in the narrow move list a step is never broken across lines (a browser
  // breaks after the '-' of "b2-b3" unless told not to).
  for (const token of [g.tokens.white, g.tokens.black]) {
    const played = [];
    for (let i = 0; i < 4; i++) {
      const v = await (await fetch(`${base}/api/games/${g.id}?token=${token}`)).json();
      const s = v.legal.find((x) => x.from && !x.text.includes('x') && !played.includes(x.from) && !played.some((p) => p === x.to));
      if (!s) break;
      const r = await post(`/api/games/${g.id}/step`, { token, step: s.text });
      check(r.status === 200, `${s.text}: ${JSON.stringify(r.body)}`);
      played.push(s.to);
    }
    const r = await post(`/api/games/${g.id}/step`, { token, step: 'end' });
    check(r.status === 200, `end: ${JSON.stringify(r.body)}`);
  }
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=move-list] .turn-cell:not(.empty)').length === 2
    && document.querySelector('[data-testid=board]').dataset.replaying !== 'yes', null, { timeout: 20000 });
  const split = await page.evaluate(() => [...document.querySelectorAll('[data-testid=move-list] .step')]
    .filter((s) => s.getClientRects().length !== 1).map((s) => s.textContent));
  check(!split.length, `no step broken across lines in the move list: ${split.join(', ')}`);
  await page.screenshot({ path: join(SHOTS, 'phone-chesimals.png') });
  const l = await create({ variant: 'lifeform', white: 'human', black: 'human', position: LIFEFORM });
  await page.goto(`${base}${l.links.white}`);
  await clickStep(page, 'c1', 'b1');
  await page.waitForSelector('[data-testid=end-preview]');
  const m2 = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, square: document.querySelector('[data-testid=sq-a1]').getBoundingClientRect().width }));
  check(m2.scroll <= 390 && m2.square >= 40, `lifeform on a phone: ${JSON.stringify(m2)}`);
  await page.screenshot({ path: join(SHOTS, 'phone-lifeform.png') });
  check(await page.locator('[data-testid=board-fit]').isHidden(), 'an 8x8 board fits: no fit control');
  return `390x844: 16x12 squares ${m.square.toFixed(1)} px in a frame that scrolls, 8x8 squares ${m2.square.toFixed(1)} px, no sideways scroll of the page`;
}

const scenarios = [
  ['lifeform regulations: preview, list, fade', regulations],
  ['AI turn replayed step by step; numbering; SVG; letters', aiReplay],
  ['every piece drawn; rules page from the note', piecesEverywhere],
  ['stop an AI-against-AI game', stopButton],
  ['phone 390x844', phone],
];

await runSuite('events browser tests', scenarios, {
  prefix: 'cohort-events-',
  timeoutMs: SCENARIO_MS, waitMs: WAIT_MS,
  ready: (env) => ({ base } = env),
});
