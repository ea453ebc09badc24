// Browser tests: playwright-core drives Debian's chromium (never a downloaded browser)
// against a real `cohort serve` on a temporary SQLite file. Each scenario plays the game the
// way a person would (clicks) and asserts what they would see; any failure exits non-zero.
// Usage (from web/):
//   npm ci && COHORT_BIN=../target/release/cohort node tests/browser.mjs [name filter]
// Env: COHORT_BIN (default ../target/release/cohort), CHROMIUM (default /usr/bin/chromium),
// SCREENSHOTS (default ../docs/screenshots), COHORT_STATIC_DIR (passed on to the server).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { SHOTS, check, checkDrawnBoard, startServer, killServer, runSuite } from './harness.mjs';

const SCENARIO_MS = 60000;
const WAIT_MS = 25000;


let base = '';
let port = 0;
let database = '';

async function getView(gameId, token) {
  const r = await fetch(`${base}/api/games/${gameId}${token ? `?token=${token}` : ''}`);
  check(r.ok, `GET game ${gameId}: ${r.status}`);
  return r.json();
}

async function post(path, body) {
  const r = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  let json = null;
  try { json = await r.json(); } catch { /* checked by the caller */ }
  return { status: r.status, body: json };
}

function gameOf(page) {
  const u = new URL(page.url());
  return { id: u.pathname.split('/').pop(), token: u.searchParams.get('token') };
}

// Every scenario gets its own contexts; they are closed whatever happens.
async function boardState(page) {
  return page.evaluate(() => {
    const b = document.querySelector('[data-testid=board]');
    const units = [...b.querySelectorAll('g.unit')].map((g) => `${g.dataset.unit}:${g.dataset.letter}:${g.dataset.colour}`).sort();
    return { version: Number(b.dataset.version), toMove: b.dataset.toMove, position: b.dataset.position, units };
  });
}

async function version(page) {
  return Number(await page.getAttribute('[data-testid=board]', 'data-version'));
}

async function waitVersionAbove(page, v, what) {
  try {
    await page.waitForFunction((old) => {
      const b = document.querySelector('[data-testid=board]');
      return b && Number(b.dataset.version) > old;
    }, v, { timeout: WAIT_MS });
  } catch {
    throw new Error(`${what}: the board never changed from version ${v}`);
  }
}

// The page replays others' steps one at a time before it takes clicks again.
async function replayDone(page) {
  await page.waitForFunction(() => {
    const b = document.querySelector('[data-testid=board]');
    return b && b.dataset.replaying !== 'yes';
  });
}

async function unitAt(page, sq) {
  return page.evaluate((s) => {
    const g = document.querySelector(`[data-testid=board] g.unit[data-unit="${s}"]`);
    return g ? { letter: g.dataset.letter, side: g.dataset.side, moved: g.classList.contains('moved') } : null;
  }, sq);
}

/** Click one legal step (its unit, then its destination) and check the board shows it. */
async function clickStep(page, step) {
  await replayDone(page);
  const v0 = await version(page);
  const unit = await unitAt(page, step.from);
  check(unit, `a unit is drawn on ${step.from}`);
  check(await page.locator(`[data-movable="${step.from}"]`).count() === 1, `${step.from} is ringed as movable`);
  await page.click(`[data-testid=sq-${step.from}]`);
  await page.waitForFunction((sq) => document.querySelector('[data-testid=board]').dataset.selected === sq, step.from);
  check(await page.locator(`[data-target="${step.to}"]`).count() === 1, `destination ${step.to} of ${step.from} is highlighted`);
  await page.click(`[data-testid=sq-${step.to}]`);
  await waitVersionAbove(page, v0, `step ${step.text}`);
  const after = await unitAt(page, step.to);
  check(after && after.letter === unit.letter && after.moved, `${unit.letter} now stands on ${step.to}, marked as moved`);
  const shown = await page.textContent('[data-testid=turn-steps]');
  check(shown.includes(step.text), `the turn shows ${step.text} (it shows "${shown}")`);
}

async function endTurn(page) {
  await replayDone(page);
  const v0 = await version(page);
  check(await page.isEnabled('[data-testid=end-turn]'), 'End turn is enabled');
  await page.click('[data-testid=end-turn]');
  await waitVersionAbove(page, v0, 'end of turn');
}

const quiet = (view, pred = () => true) => view.legal.filter((s) => s.from && !s.text.includes('x') && pred(s));
const rank = (sq) => Number(sq.slice(1));
// Forward moves first, then the units furthest forward: the screenshots look like a game.
const forward = (steps) => steps.slice().sort((a, b) => (rank(b.to) - rank(b.from)) - (rank(a.to) - rank(a.from)) || rank(b.from) - rank(a.from));
const dist = (a, b) => Math.max(Math.abs(a.charCodeAt(0) - b.charCodeAt(0)), Math.abs(Number(a.slice(1)) - Number(b.slice(1))));

async function createFromHome(page, variant, opts) {
  await page.goto(base + '/');
  await page.waitForSelector(`[data-testid="new-game-${variant}"]`);
  await page.selectOption(`[data-testid="opponent-${variant}"]`, opts.opponent);
  if (opts.opponent === 'ai') {
    await page.selectOption(`[data-testid="strength-${variant}"]`, opts.strength);
    await page.selectOption(`[data-testid="time-${variant}"]`, String(opts.time));
  } else {
    check(await page.isHidden(`[data-testid="strength-${variant}"]`), 'no AI strength for a human opponent');
  }
  await page.selectOption(`[data-testid="side-${variant}"]`, opts.side || 'white');
  await page.click(`[data-testid="start-${variant}"]`);
  await page.waitForSelector('[data-testid=board] svg');
  const g = gameOf(page);
  check(g.token && g.token.length === 32, 'the creator lands on a seat link');
  return g;
}

async function waitAiReply(page, id, token, turnsBefore) {
  try {
    await page.waitForFunction((n) => {
      const b = document.querySelector('[data-testid=board]');
      return b.dataset.toMove === 'white' && b.dataset.replaying !== 'yes' && document.querySelectorAll('[data-testid=move-list] .turn-cell:not(.empty)').length >= n
        && !document.querySelector('[data-testid=ai-thinking]');
    }, turnsBefore + 2, { timeout: WAIT_MS });
  } catch {
    throw new Error(`the AI never replied: ${JSON.stringify(await getView(id, token).then((v) => ({ turns: v.turns, ai: v.ai_thinking })))}`);
  }
  const view = await getView(id, token);
  check(view.turns.length === turnsBefore + 2 && view.turns.at(-1).side === 'black', 'the AI played a turn');
  const lines = await page.locator('[data-testid=move-list] .turn-cell:not(.empty)').allTextContents();
  check(await page.locator('[data-testid=move-list] .turn-cell:not(.empty)').last().getAttribute('data-side') === 'black' && lines.at(-1).includes(view.turns.at(-1).steps.filter((s) => s !== 'end')[0]),
    `the AI's turn is in the move list (${lines.at(-1)})`);
  check((await page.textContent('[data-testid=status]')).includes('Your turn'), 'it is our turn again');
  return view;
}

async function reloadSame(page, id, token) {
  const before = await boardState(page);
  await page.reload();
  await page.waitForSelector('[data-testid=board] svg');
  const after = await boardState(page);
  check(after.position === before.position, `same position after reload (${before.position} / ${after.position})`);
  check(after.version === before.version, 'same version after reload');
  check(JSON.stringify(after.units) === JSON.stringify(before.units), 'the same units drawn after reload');
  check(after.position === (await getView(id, token)).position, 'the page shows the stored position');
  return after;
}

// ---------------------------------------------------------------- scenarios

async function homePage(sc) {
  const page = await sc.page();
  await page.goto(base + '/');
  await page.waitForSelector('[data-testid^=new-game-]');
  const variants = await (await fetch(`${base}/api/variants`)).json();
  check(variants.length >= 3, 'the server lists variants');
  // The introduction names every family; the index links every game to its card.
  const intro = await page.textContent('[data-testid=intro-families]');
  for (const family of ['Chesimals', 'Chieftain Chess', 'Chesimal Fusion', 'Lifeform Chess', 'Chessma 84', 'FIDE chess']) {
    check(intro.includes(family), `the introduction names ${family}: "${intro}"`);
  }
  for (const v of variants) {
    const href = await page.getAttribute(`[data-testid="index-${v.id}"]`, 'href');
    check(href === `#variant-${v.id}` && await page.locator(`[id="variant-${v.id}"]`).count() === 1, `${v.id}: the index links to its card (${href})`);
  }
  for (const v of variants) {
    // A free set-up's card shows its example set-up (`sample_setup`), not its empty start.
    const shown = v.sample_setup || v.start;
    const drawn = await page.locator(`[data-testid="diagram-${v.id}"] g.unit`).count();
    check(drawn === shown.units.length, `${v.id}: the diagram shows ${shown.units.length} units (${drawn})`);
    const squares = await page.locator(`[data-testid="diagram-${v.id}"] rect.sq`).count();
    // Cells that are no square (`*` in the position string: Chessma 84's frame) are not drawn.
    const holes = (String(v.start.position || '').split(' ')[0].match(/\*/g) || []).length;
    check(squares === v.files * v.ranks - holes, `${v.id}: the diagram has ${v.files}x${v.ranks} squares less ${holes} holes (${squares})`);
    const note = await page.locator(`[data-testid="reconstructed-${v.id}"]`).count();
    check(note === (v.reconstructed ? 1 : 0), `${v.id}: the reconstructed note is shown iff the setup is reconstructed`);
    if (v.reconstructed) check((await page.textContent(`[data-testid="reconstructed-${v.id}"]`)).startsWith('Setup reconstructed'), `${v.id}: note text`);
  }
  // A bad request shows the server's error in the page (no alert): an AI time too long. The
  // refusal (400) and the browser's console line about it are expected.
  sc.expect(/\/api\/games\b.*\b400\b/);
  await page.evaluate(() => {
    const f = document.querySelector('[data-testid=new-game-chesimals-1]');
    f.closest('article').querySelector('select[name=opponent]').value = 'ai';
    document.querySelector('[data-testid=time-chesimals-1]').append(new Option('too long', '999999'));
    document.querySelector('[data-testid=time-chesimals-1]').value = '999999';
  });
  await page.click('[data-testid=start-chesimals-1]');
  await page.waitForFunction(() => document.querySelector('[data-testid=error-chesimals-1]').textContent.includes('time_ms'));
  check(page.url() === base + '/', 'a refused game stays on the home page');
  // An invitation with a clock: the clock choice shows for another person only.
  await page.reload();
  await page.waitForSelector('[data-testid=new-game-chess]');
  check(await page.isHidden('[data-testid=clock-chess]'), 'no clock choice against the AI');
  await page.selectOption('[data-testid=opponent-chess]', 'human');
  check(await page.isVisible('[data-testid=clock-chess]'), 'a clock choice for an invitation');
  const clocks = await page.locator('[data-testid=clock-chess] option').allTextContents();
  await page.selectOption('[data-testid=clock-chess]', String(clocks.indexOf('1 day per turn')));
  await page.click('[data-testid=start-chess]');
  await page.waitForSelector('[data-testid=board] svg');
  const g = gameOf(page);
  const made = await getView(g.id);
  check(made.clock && made.clock.kind === 'corr', `the invitation's game has a correspondence clock: ${JSON.stringify(made.clock)}`);
  return `${variants.length} variants with diagrams and notes, indexed, every family in the introduction; a refused request shows the server's error; an invitation with a 1 day per turn clock`;
}

async function vsAiChesimals(sc) {
  const page = await sc.page();
  const { id, token } = await createFromHome(page, 'chesimals-1', { opponent: 'ai', strength: 'level8', time: 200 });
  let view = await getView(id, token);
  check(view.seat === 'white' && view.players.black.startsWith('level8 200'), `seat and AI (${view.players.black})`);
  check(await page.locator('[data-movable]').count() === view.movable.length, 'every movable unit is ringed');
  // First unit: a quiet move; second unit: another unit of the same chesimal.
  const first = forward(quiet(view))[0];
  await clickStep(page, first);
  view = await getView(id, token);
  const group = view.units.find((u) => u.square === first.to).group;
  const second = forward(quiet(view, (s) => s.from !== first.to))[0];
  check(second, 'a second unit of the chesimal may move');
  check(view.units.find((u) => u.square === second.from).group === group, 'the second unit is of the same chesimal');
  await clickStep(page, second);
  // A unit of another chesimal is not movable now: clicking it selects nothing.
  const otherUnit = view.units.find((u) => u.side === 'white' && u.group !== group);
  await page.click(`[data-testid=sq-${otherUnit.square}]`);
  check(await page.getAttribute('[data-testid=board]', 'data-selected') === '', 'a unit of another chesimal cannot be selected');
  await endTurn(page);
  view = await waitAiReply(page, id, token, 0);
  const lines = await page.locator('[data-testid=move-list] .turn-cell:not(.empty)').allTextContents();
  check(lines[0].includes(`${first.text} ${second.text}`), `our turn is in the move list (${lines[0]})`);
  await reloadSame(page, id, token);

  // Screenshot: mid-turn, a unit selected, the chains shown.
  view = await getView(id, token);
  const s1 = forward(quiet(view))[0];
  await clickStep(page, s1);
  view = await getView(id, token);
  const s2 = forward(quiet(view, (s) => s.from !== s1.to))[0];
  await page.click(`[data-testid=sq-${s2.from}]`);
  await page.click('[data-testid=show-command]');
  await page.waitForSelector('[data-testid=command-overlay]');
  check(await page.locator('[data-testid=command-overlay] line.link').count() > 0, 'the chains are drawn');
  check(await page.locator('[data-testid=command-overlay] .leader-mark').count() === view.command_info.leaders.length, 'the leaders are marked');
  // The hints say what the view says (the rules' sentences), not words of the page's own.
  check(view.shows_command && (await page.textContent('[data-testid=command-legend]')) === view.command_legend, `the legend is the view's (${view.command_legend})`);
  check((await page.textContent('[data-testid=link-rule]')) === view.link_rule && view.link_rule.includes('own chesimal'), `the link rule is the view's (${view.link_rule})`);
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, 'game-16x12.png') });
  return `two units of one chesimal clicked (${first.text} ${second.text}), AI replied (${view.turns[1].steps.length - 1} steps), same position after reload, screenshot`;
}

async function vsAiChieftain(sc) {
  const page = await sc.page();
  const { id, token } = await createFromHome(page, 'mini-chieftain', { opponent: 'ai', strength: 'level2', time: 200 });
  let view = await getView(id, token);
  const leaders = view.command_info.leaders;
  check(leaders.length === 2 && view.command_info.range === 3, `two Chieftains, range 3 (${JSON.stringify(view.command_info)})`);
  // Two units each within reach of only one Chieftain, a different one each.
  const only = (sq, l) => leaders.filter((x) => dist(x, sq) <= 3).join() === l;
  const first = quiet(view, (s) => only(s.from, leaders[0]) && !leaders.includes(s.from))[0];
  check(first, `a unit only ${leaders[0]} activates`);
  await clickStep(page, first);
  view = await getView(id, token);
  const second = quiet(view, (s) => only(s.from, leaders[1]) && !leaders.includes(s.from))[0];
  check(second, `a unit only ${leaders[1]} activates`);
  await clickStep(page, second);
  view = await getView(id, token);
  check(view.legal.length === 0 && view.can_end, 'both activations used: only End turn is left');
  await endTurn(page);
  view = await waitAiReply(page, id, token, 0);
  await reloadSame(page, id, token);

  // Screenshot: mid-turn, a unit selected, the Chieftains' ranges shown.
  view = await getView(id, token);
  const s1 = forward(quiet(view, (s) => !leaders.includes(s.from)))[0];
  await clickStep(page, s1);
  view = await getView(id, token);
  const s2 = forward(quiet(view, (s) => s.from !== s1.to && !leaders.includes(s.from)))[0];
  await page.click(`[data-testid=sq-${s2.from}]`);
  await page.click('[data-testid=show-command]');
  check(await page.locator('[data-testid=command-overlay] rect.range').count() === view.command_info.leaders.length, 'a range box per Chieftain');
  check((await page.textContent('[data-testid=command-legend]')) === view.command_legend && view.command_legend.includes('within 3'), `the legend names the range (${view.command_legend})`);
  await page.screenshot({ path: join(SHOTS, 'game-8x8.png') });
  return `units activated by ${leaders.join(' and ')} clicked (${first.text} ${second.text}), AI replied, same position after reload, screenshot`;
}

async function humanVsHuman(sc) {
  const a = await sc.page();
  const b = await sc.page(await sc.context());
  const { id, token: whiteToken } = await createFromHome(a, 'chesimals-1', { opponent: 'human' });
  await a.waitForSelector('[data-testid=invite-link]');
  const invite = await a.inputValue('[data-testid=invite-link]');
  const blackToken = new URL(invite).searchParams.get('token');
  check(blackToken && blackToken !== whiteToken && new URL(invite).pathname === `/game/${id}`, 'the invitation carries the other seat token');
  check((await getView(id, blackToken)).seat === 'black', 'the invitation link is Black\'s seat');
  await b.goto(invite);
  await b.waitForSelector('[data-testid=board] svg');
  check((await b.textContent('[data-testid=status]')).includes('waiting'), 'Black waits for White');
  check(await b.getAttribute('[data-testid=board]', 'data-seat') === 'black', 'B holds Black\'s seat');
  check(await b.locator('[data-testid=invite-link]').count() === 0, 'B (who did not create the game) shows no invitation');

  // d. Black cannot move for White: clicking a White unit only says why.
  const before = await getView(id);
  const whiteStep = quiet(await getView(id, whiteToken))[0];
  await b.click(`[data-testid=sq-${whiteStep.from}]`);
  await b.click(`[data-testid=sq-${whiteStep.to}]`);
  check((await b.textContent('[data-testid=error]')).includes("White's turn"), 'Black is told it is White\'s turn');
  // Nor through the API with Black's token.
  let r = await post(`/api/games/${id}/step`, { token: blackToken, step: whiteStep.text });
  check([403, 409].includes(r.status) && r.body && r.body.error, `Black's token moving White's unit: ${r.status} ${JSON.stringify(r.body)}`);
  r = await post(`/api/games/${id}/step`, { token: 'f'.repeat(32), step: whiteStep.text });
  check(r.status === 403 && r.body.error, `a made-up token: ${r.status} ${JSON.stringify(r.body)}`);
  const after = await getView(id);
  check(after.version === before.version && after.position === before.position && after.turn_steps.length === 0, 'the refused steps changed nothing');

  // c. White plays a turn by clicking; Black sees it live, without reloading.
  const vb = await version(b);
  let view = await getView(id, whiteToken);
  const w1 = quiet(view)[0];
  await clickStep(a, w1);
  view = await getView(id, whiteToken);
  // A unit of another chesimal, clicked, says why it may not move: the rules' reason.
  const moved = view.units.find((u) => u.square === w1.to);
  const other = view.units.find((u) => u.side === 'white' && u.group !== moved.group && !view.movable.includes(u.square));
  check(other && view.why_not[other.square], `the view says why ${other && other.square} may not move: ${JSON.stringify(view.why_not)}`);
  await a.click(`[data-testid=sq-${other.square}]`);
  const said = await a.textContent('[data-testid=error]');
  check(said.includes('chesimal') && said.includes(other.square), `a click on ${other.square} says why: "${said}"`);
  const w2 = quiet(view, (s) => s.from !== w1.to)[0];
  await clickStep(a, w2);
  await endTurn(a);
  await waitVersionAbove(b, vb, 'Black\'s page (live update)');
  await b.waitForFunction(() => document.querySelector('[data-testid=board]').dataset.toMove === 'black'
    && document.querySelectorAll('[data-testid=move-list] .turn-cell:not(.empty)').length === 1);
  const seen = await b.locator('[data-testid=move-list] .turn-cell:not(.empty)').allTextContents();
  check(seen[0].includes(`${w1.text} ${w2.text}`), `Black sees White's turn live (${seen[0]})`);
  check((await boardState(b)).position === (await boardState(a)).position, 'both pages show the same position');
  check((await a.textContent('[data-testid=status]')).includes('waiting'), 'White now waits');

  // On Black's turn, Black's token still cannot move a White unit.
  view = await getView(id, blackToken);
  const wu = view.units.find((u) => u.side === 'white' && u.square === w1.to);
  r = await post(`/api/games/${id}/step`, { token: blackToken, step: `${w1.to}-${w1.from}` });
  check(r.status >= 400 && r.status < 500 && r.body.error, `Black moving White's ${wu.letter} on Black's turn: ${r.status} ${JSON.stringify(r.body)}`);
  check((await getView(id)).version === view.version, 'the refused step changed nothing');
  // With White's token on Black's turn: not your turn.
  r = await post(`/api/games/${id}/step`, { token: whiteToken, step: quiet(view)[0].text });
  check(r.status === 409 && r.body.error, `White's token on Black's turn: ${r.status} ${JSON.stringify(r.body)}`);

  // Black plays; White sees it.
  const va = await version(a);
  const bs = quiet(view)[0];
  await clickStep(b, bs);
  await endTurn(b);
  await waitVersionAbove(a, va, 'White\'s page (live update)');
  await a.waitForFunction(() => document.querySelectorAll('[data-testid=move-list] .turn-cell:not(.empty)').length === 2);
  const seenA = await a.locator('[data-testid=move-list] .turn-cell:not(.empty)').allTextContents();
  check(seenA[1].includes(bs.text), `White sees Black's turn (${seenA[1]})`);

  // A spectator sees the game and no controls.
  const c = await sc.page(await sc.context());
  await c.goto(`${base}/game/${id}`);
  await c.waitForSelector('[data-testid=board] svg');
  check(await c.locator('[data-testid=end-turn], [data-testid=undo], [data-testid=resign]').count() === 0, 'a spectator has no controls');
  check((await boardState(c)).position === (await boardState(a)).position, 'the spectator sees the position');

  // Undo inside a turn (Black's page follows), then a draw by agreement.
  view = await getView(id, whiteToken);
  const u1 = quiet(view)[0];
  await clickStep(a, u1);
  const vu = await version(a);
  await a.click('[data-testid=undo]');
  await waitVersionAbove(a, vu, 'undo');
  check((await a.textContent('[data-testid=turn-steps]')).includes('no step'), 'undo took the step back');
  check(await unitAt(a, u1.from), `the unit is back on ${u1.from}`);
  const vd = await version(b);
  await a.click('[data-testid=offer-draw]');
  await waitVersionAbove(b, vd, 'draw offer');
  await b.waitForSelector('[data-testid=accept-draw]');
  await b.click('[data-testid=accept-draw]');
  await a.waitForFunction(() => document.querySelector('[data-testid=status]').textContent.includes('Draw'));
  check(await a.locator('[data-testid=end-turn]').count() === 0, 'no controls once the game is over');

  // The replay: step through it.
  await a.goto(`${base}/game/${id}?replay`);
  await a.waitForSelector('[data-testid=replay-slider]');
  check((await a.textContent('[data-testid=result]')).includes('1/2-1/2'), 'the replay shows the result');
  await a.click('[data-testid=replay-first]');
  await a.waitForFunction(() => document.querySelector('[data-testid=status]').textContent.includes('Start position'));
  check(!(await unitAt(a, w1.to)), `no unit on ${w1.to} at the start`);
  await a.click('[data-testid=replay-next]');
  await a.waitForFunction((t) => document.querySelector('[data-testid=status]').textContent.includes(t), w1.text);
  check(await unitAt(a, w1.to), `the replay shows ${w1.text}`);
  await a.locator('[data-testid=move-list] .turn-cell:not(.empty)').nth(1).click();
  await a.waitForFunction(() => document.querySelector('[data-testid=status]').textContent.includes('turn 1, Black'));
  check(await a.getAttribute('[data-testid=move-list] .turn-cell.current', 'data-turn') === '2', 'turn 2 is marked in the move list');
  check(await unitAt(a, bs.to), `the replay shows ${bs.text}`);
  const rec = await (await fetch(`${base}/api/games/${id}/record?format=json`)).json();
  check(JSON.stringify(rec.turns[0]) === JSON.stringify([w1.text, w2.text]), `the record holds White's turn (${JSON.stringify(rec.turns)})`);
  return 'invitation link, Black\'s and a made-up token refused (UI and API), live updates both ways, spectator, undo, draw, replay';
}

async function drops(sc) {
  // lifeform-free starts with a placement phase: units are dropped from the pocket.
  const r = await post('/api/games', { variant: 'lifeform-free', white: 'human', black: 'human' });
  check(r.status === 200, `create lifeform-free: ${JSON.stringify(r.body)}`);
  const { id, links, tokens } = r.body;
  const a = await sc.page();
  await a.goto(base + links.white);
  await a.waitForSelector('[data-testid=pocket-white]');
  const array = { a1: 'R', b1: 'N', c1: 'B', d1: 'Q', e1: 'K', f1: 'B', g1: 'N', h1: 'R' };
  for (const f of 'abcdefgh') array[`${f}2`] = 'P';
  const clicked = ['e1', 'd1', 'c1'];
  for (const sq of clicked) {
    const v0 = await version(a);
    await a.click(`[data-testid=pocket-${array[sq]}]`);
    check(await a.locator(`[data-target="${sq}"]`).count() === 1, `${sq} is offered for ${array[sq]}`);
    await a.click(`[data-testid=sq-${sq}]`);
    await waitVersionAbove(a, v0, `drop on ${sq}`);
    check((await unitAt(a, sq)).letter === array[sq], `${array[sq]} placed on ${sq}`);
  }
  for (const [sq, l] of Object.entries(array)) {
    if (clicked.includes(sq)) continue;
    const s = await post(`/api/games/${id}/step`, { token: tokens.white, step: `${l}@${sq}` });
    check(s.status === 200, `${l}@${sq}: ${JSON.stringify(s.body)}`);
  }
  await a.waitForFunction(() => !document.querySelector('[data-testid=end-turn]').disabled);
  await endTurn(a);
  // Black drops with a lower-case pocket letter.
  const b = await sc.page(await sc.context());
  await b.goto(base + links.black);
  await b.waitForSelector('[data-testid=pocket-black]');
  const v0 = await version(b);
  await b.click('[data-testid=pocket-k]');
  await b.click('[data-testid=sq-e8]');
  await waitVersionAbove(b, v0, 'Black\'s drop');
  const k = await unitAt(b, 'e8');
  check(k && k.letter === 'k' && k.side === 'black', 'Black\'s Head placed on e8');
  check((await b.textContent('[data-testid=turn-steps]')).includes('K@e8'), 'the turn shows K@e8');
  return 'White placed units by clicking the pocket, then ended the placement; Black placed its Head';
}

async function promotion(sc) {
  // A chess position (NewGame `position`) where White promotes: the page offers the choice.
  const r = await post('/api/games', { variant: 'chess', white: 'human', black: 'human', position: 'k7/4P2p/8/8/8/8/8/4K2R w - - 0 1' });
  check(r.status === 200, `create chess game: ${JSON.stringify(r.body)}`);
  const { id, links } = r.body;
  const a = await sc.page();
  await a.goto(base + links.white);
  await a.waitForSelector('[data-testid=board] svg');
  await a.click('[data-testid=sq-e7]');
  await a.click('[data-testid=sq-e8]');
  await a.waitForSelector('[data-testid=choice]');
  const choices = await a.locator('[data-testid=choice] button[data-testid^=choice-]').count();
  check(choices === 4, `four promotions offered (${choices})`);
  const v0 = await version(a);
  await a.click('[data-testid="choice-e7-e8=N"]');
  await waitVersionAbove(a, v0, 'promotion');
  check((await unitAt(a, 'e8')).letter === 'N', 'the pawn became a Knight');
  const view = await getView(id);
  check(view.to_move === 'black' && !view.result, 'a chess turn is one step: Black to move');
  check((await a.textContent('[data-testid=move-list]')).includes('e7-e8=N'), 'the move list shows e7-e8=N');
  // Black resigns through the two-click confirmation.
  const b = await sc.page(await sc.context());
  await b.goto(base + links.black);
  await b.waitForSelector('[data-testid=resign]');
  await b.click('[data-testid=resign]');
  await b.click('[data-testid=confirm-resign]');
  await a.waitForFunction(() => document.querySelector('[data-testid=status]').textContent.includes('White wins'));
  check((await a.textContent('[data-testid=status]')).includes('you win'), 'White is told it won');
  check((await getView(id)).result.winner === 'white', 'the game is over, White won');
  // The turn box says the result, not an empty turn (issue 45's newcomer: "Game over / no
  // step yet" stayed after every game).
  await a.waitForSelector('[data-testid=game-over]');
  const over = await a.textContent('[data-testid=game-over]');
  check(over.includes('White wins') && await a.locator('[data-testid=turn-steps]').count() === 0, `the turn box after the game: "${over}"`);
  return 'e7-e8 offered four promotions; =N chosen; Black resigned by two clicks';
}

async function reconnect(sc) {
  // The server is killed and restarted on the same database: the page says it lost the
  // live updates, reconnects by itself and shows the steps played meanwhile.
  const r = await post('/api/games', { variant: 'mini-chieftain', white: 'human', black: 'human' });
  const { id, links, tokens } = r.body;
  const a = await sc.page();
  await a.goto(base + links.black);
  await a.waitForSelector('[data-testid=board] svg');
  // The page shows "reconnecting" until its WebSocket first opens: wait for that.
  await a.waitForSelector('[data-testid=connection]', { state: 'detached' });
  const v0 = await version(a);
  // While the server is down, the page's attempts to reconnect fail (the console says so);
  // a request in flight at the kill is reset, as a crash does.
  sc.expect(/WebSocket connection to 'ws:\/\/127\.0\.0\.1:\d+\/api\/games\/[0-9a-f]+\/ws' failed/,
    // The chat panel's socket (chat.js) is down with the server too.
    /WebSocket connection to 'ws:\/\/127\.0\.0\.1:\d+\/api\/games\/[0-9a-f]+\/chat\/(players|spectators)\/ws(\?token=[0-9a-f]+)?' failed/,
    /GET http:\/\/127\.0\.0\.1:\d+\/api\/games\/[0-9a-f]+\S* failed: net::ERR_CONNECTION_(REFUSED|RESET)/,
    /console error at http:\/\/127\.0\.0\.1:\d+\/api\/games\/[0-9a-f]+\S*: Failed to load resource: net::ERR_CONNECTION_(REFUSED|RESET)/);
  await killServer();
  await a.waitForSelector('[data-testid=connection]');
  await startServer(port, database);
  const step = quiet(await getView(id, tokens.white))[0];
  const s = await post(`/api/games/${id}/step`, { token: tokens.white, step: step.text });
  check(s.status === 200, `step after the restart: ${JSON.stringify(s.body)}`);
  await waitVersionAbove(a, v0, 'the page after the restart');
  await a.waitForSelector('[data-testid=connection]', { state: 'detached' });
  check(await unitAt(a, step.to), `the page shows ${step.text}, played while it was reconnecting`);
  return `server killed and restarted: "reconnecting" shown, then ${step.text} appeared without a reload`;
}

// Lead model (chesimal-fusion-1): the turn starts by naming its leader.
const leadText = (view) => {
  const l = view.command_info.leading;
  const letter = view.units.find((u) => u.square === l.square).letter.toUpperCase();
  return `${view.pieces[letter]}${l.mode ? ` (${l.mode})` : ''}: ${l.used} of ${l.budget} used, ${l.budget - l.used} left`;
};

async function leadersHighlighted(page, view) {
  const squares = [...new Set(view.legal.filter((s) => s.text.startsWith('lead:')).map((s) => s.from))].sort();
  await page.waitForFunction((n) => document.querySelectorAll('[data-lead]').length === n, squares.length);
  const drawn = (await page.locator('[data-lead]').evaluateAll((els) => els.map((e) => e.dataset.lead))).sort();
  check(JSON.stringify(drawn) === JSON.stringify(squares), `the leaders that may lead are ringed (${drawn} / ${squares})`);
  return squares;
}

async function leadPrince(page, id, token, sq, mode) {
  const v0 = await version(page);
  await page.click(`[data-testid=sq-${sq}]`);
  await page.waitForSelector('[data-testid=lead-choice]');
  check(await version(page) === v0, 'clicking a Prince plays nothing yet');
  const view = await getView(id, token);
  const modes = view.legal.filter((s) => s.text.startsWith(`lead:${sq}:`)).map((s) => s.text.split(':')[2]);
  for (const m of modes) check(await page.locator(`[data-testid=lead-mode-${m}]`).count() === 1, `a ${m} button`);
  check(await page.locator('[data-testid^=lead-mode-info-]').count() === modes.length, 'one button per legal lead step of the Prince');
  // The explanations come from the variant's summary (loaded after the page).
  await page.waitForFunction(() => [...document.querySelectorAll('[data-testid^=lead-mode-info-]')].every((e) => e.textContent.includes('activates')));
  const infos = await page.locator('[data-testid^=lead-mode-info-]').allTextContents();
  check(new Set(infos).size === infos.length, `each mode is explained differently (${infos.join(' / ')})`);
  await page.click(`[data-testid=lead-mode-${mode}]`);
  await waitVersionAbove(page, v0, `lead:${sq}:${mode}`);
  await page.waitForSelector('[data-testid=lead-panel]');
  return infos;
}

async function fusion(sc) {
  const page = await sc.page();
  const { id, token } = await createFromHome(page, 'chesimal-fusion-1', { opponent: 'ai', strength: 'level8', time: 200 });
  let view = await getView(id, token);
  const leads = view.legal.filter((s) => s.text.startsWith('lead:'));
  check(view.seat === 'white' && view.command === 'lead' && view.movable.length === 0, 'turn start: nothing movable before the lead');
  check(leads.length === view.legal.length && leads.every((s) => s.from === s.to), 'only lead steps, from and to the leader');
  const squares = await leadersHighlighted(page, view);
  check(squares.includes('b2') && squares.includes('f2'), `the Prince on b2 and the King on f2 may lead (${squares})`);
  check(await page.locator('[data-testid=lead-panel]').count() === 0, 'no lead panel before the lead');
  check(await page.locator('[data-movable]').count() === 0, 'no unit is ringed as movable before the lead');

  // The Prince on b2, Dia; then undo the lead and lead again.
  const infos = await leadPrince(page, id, token, 'b2', 'dia');
  view = await getView(id, token);
  check(JSON.stringify(view.turn_steps) === '["lead:b2:dia"]', `the lead is the turn's first step (${view.turn_steps})`);
  check((await page.textContent('[data-testid=turn-steps]')).includes('lead:b2:dia'), 'the step list shows lead:b2:dia');
  check((await page.textContent('[data-testid=lead-summary]')) === leadText(view), `lead panel: ${leadText(view)}`);
  check(await page.locator('[data-testid=board] [data-leading=b2]').count() === 1, 'the board marks the leading Prince');
  check(await page.locator('[data-lead]').count() === 0, 'no leader offered once the turn has one');
  const kinds = await page.textContent('[data-testid=lead-kinds]');
  check(view.command_info.leading.activates.every((k) => kinds.includes(view.pieces[k])), `the kinds it may activate (${kinds})`);
  const vu = await version(page);
  await page.click('[data-testid=undo]');
  await waitVersionAbove(page, vu, 'undo of the lead');
  check(await page.locator('[data-testid=lead-panel]').count() === 0, 'undo took the lead back: no lead panel');
  check((await page.textContent('[data-testid=turn-steps]')).includes('no step'), 'undo: no step in the turn');
  await leadersHighlighted(page, await getView(id, token));
  await leadPrince(page, id, token, 'b2', 'dia');

  // Two Pawns, moved as Ferzes (one diagonal step) by clicking.
  const diagonalPawn = (v, s) => v.units.find((u) => u.square === s.from).letter === 'P' && dist(s.from, s.to) === 1
    && s.from[0] !== s.to[0] && rank(s.from) !== rank(s.to);
  view = await getView(id, token);
  check(view.movable.length > 0 && quiet(view).every((s) => view.movable.includes(s.from)), 'after the lead the Prince\'s units are movable');
  const first = forward(quiet(view, (s) => diagonalPawn(view, s)))[0];
  check(first, 'a Pawn may step diagonally');
  await clickStep(page, first);
  view = await getView(id, token);
  const second = forward(quiet(view, (s) => s.from !== first.to && diagonalPawn(view, s)))[0];
  check(second, 'a second Pawn may step diagonally');
  await clickStep(page, second);
  view = await getView(id, token);
  check(view.command_info.leading.used === 2, `two activations used (${JSON.stringify(view.command_info.leading)})`);
  const mid = leadText(view);
  check((await page.textContent('[data-testid=lead-summary]')) === mid, `lead panel: ${mid}`);
  check((await page.textContent('[data-testid=turn-steps]')).includes(`lead:b2:dia ${first.text} ${second.text}`), 'the turn lists the lead and both steps');
  // A reload mid-turn shows the same lead.
  await reloadSame(page, id, token);
  check((await page.textContent('[data-testid=lead-summary]')) === mid, 'the lead panel is back after a reload mid-turn');
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, 'fusion-lead.png') });

  await endTurn(page);
  view = await waitAiReply(page, id, token, 0);
  const lines = await page.locator('[data-testid=move-list] .turn-cell:not(.empty)').allTextContents();
  check(lines[0].includes(`lead:b2:dia ${first.text} ${second.text}`), `our turn is in the move list (${lines[0]})`);
  check(view.turns[1].steps[0].startsWith('lead:'), `the AI's turn starts with a lead (${view.turns[1].steps.join(' ')})`);
  check(view.at_turn_start && !view.command_info.leading, 'our next turn starts with no leader');
  check(await page.locator('[data-testid=lead-panel]').count() === 0, 'the lead panel is gone at the next turn start');
  const after = await reloadSame(page, id, token);
  check(await page.locator('[data-testid=lead-panel]').count() === 0, 'no lead panel after the reload either');
  await leadersHighlighted(page, view);

  // A King leads at once, without a choice; undo.
  const king = view.legal.find((s) => /^lead:[a-p]\d+$/.test(s.text));
  const vk = await version(page);
  await page.click(`[data-testid=sq-${king.from}]`);
  await waitVersionAbove(page, vk, king.text);
  check(await page.locator('[data-testid=lead-choice]').count() === 0, 'no mode choice for a King');
  view = await getView(id, token);
  check(view.turn_steps[0] === king.text, `clicking the King played ${king.text}`);
  check((await page.textContent('[data-testid=lead-summary]')) === leadText(view), `lead panel: ${leadText(view)}`);
  const vl = await version(page);
  await page.click('[data-testid=undo]');
  await waitVersionAbove(page, vl, 'undo of the King\'s lead');
  check(await page.locator('[data-testid=lead-panel]').count() === 0, 'undo: no lead panel');
  check((await getView(id, token)).position === after.position, 'undo: the position is unchanged');
  return `Prince b2 Dia (${infos.join(' / ')}), undo, again, ${first.text} ${second.text} as Ferzes, AI replied (${view.turns[1].steps.length - 1} steps), same position after reloads, panel gone at the next turn; ${king.text} at once; screenshot`;
}

async function movedAgain(sc) {
  // chesimals-0.75: a unit that moved may move again while linked; the page lets it.
  const r = await post('/api/games', { variant: 'chesimals-0.75', white: 'human', black: 'human' });
  check(r.status === 200, `create chesimals-0.75: ${JSON.stringify(r.body)}`);
  const { id, links, tokens } = r.body;
  const page = await sc.page();
  await page.goto(base + links.white);
  await page.waitForSelector('[data-testid=board] svg');
  let view = await getView(id, tokens.white);
  const leader = view.command_info.leaders[0];
  const first = quiet(view, (s) => s.from !== leader && dist(s.to, leader) === 1)[0];
  check(first, 'a unit may step to a square next to its leader');
  await clickStep(page, first);
  view = await getView(id, tokens.white);
  check(view.movable.includes(first.to), `the moved unit on ${first.to} is still movable`);
  const again = quiet(view, (s) => s.from === first.to)[0];
  check(again, `the unit on ${first.to} has a move`);
  await clickStep(page, again);
  check((await page.textContent('[data-testid=turn-steps]')).includes(`${first.text} ${again.text}`), 'both moves of the unit are listed');
  return `${first.text} then ${again.text}: the moved unit was ringed and selected again`;
}

// The opponent's steps replay one at a time; Skip shows the rest at once, the status says the
// turn comes after the replay, and a reader who turns the replay off (kept for next time)
// sees the opponent's turns at once.
async function skippedReplay(sc) {
  const r = await post('/api/games', { variant: 'chesimals-1', white: 'human', black: 'human' });
  check(r.status === 200, `create chesimals-1: ${JSON.stringify(r.body)}`);
  const { id, links, tokens } = r.body;
  // White plays up to three steps of one chesimal and ends the turn, through the API.
  const playTurn = async (token) => {
    const played = [];
    for (let i = 0; i < 3; i++) {
      const v = await getView(id, token);
      const s = quiet(v, (x) => !played.some((p) => p.to === x.from))[0];
      if (!s) break;
      const a = await post(`/api/games/${id}/step`, { token, step: s.text });
      check(a.status === 200, `${s.text}: ${JSON.stringify(a.body)}`);
      played.push(s);
    }
    const e = await post(`/api/games/${id}/step`, { token, step: 'end' });
    check(e.status === 200, `end: ${JSON.stringify(e.body)}`);
    return played;
  };
  const b = await sc.page();
  await b.goto(base + links.black);
  await b.waitForSelector('[data-testid=board] svg');
  // Slow: a full replay of White's turn would take a second a step.
  await b.selectOption('[data-testid=replay-speed]', '1000');
  const played = await playTurn(tokens.white);
  check(played.length >= 2, `White played ${played.length} steps`);
  await b.waitForFunction(() => document.querySelector('[data-testid=board]').dataset.replaying === 'yes', null, { timeout: WAIT_MS });
  const status = await b.textContent('[data-testid=status]');
  check(status.includes('after the replay'), `during the replay the status says so: "${status}"`);
  const t0 = Date.now();
  await b.click('[data-testid=skip-replay]');
  await b.waitForFunction(() => document.querySelector('[data-testid=board]').dataset.replaying === 'no', null, { timeout: WAIT_MS });
  const took = Date.now() - t0;
  check(took < played.length * 1000 - 500, `Skip ended the replay in ${took} ms (the whole replay: ${played.length * 1000} ms)`);
  const after = await getView(id);
  check((await boardState(b)).position === after.position, 'after Skip the board shows White\'s whole turn');
  check((await b.textContent('[data-testid=status]')).startsWith('Your turn'), 'and it is Black\'s turn');
  // Off, kept across a reload: the next turn of White's shows at once.
  await b.selectOption('[data-testid=replay-speed]', '0');
  await b.reload();
  await b.waitForSelector('[data-testid=board] svg');
  check(await b.inputValue('[data-testid=replay-speed]') === '0', 'the replay setting is kept');
  await playTurn(tokens.black);
  const v0 = await version(b);
  await playTurn(tokens.white);
  await waitVersionAbove(b, v0, 'Black\'s page (White\'s second turn)');
  const final = await getView(id);
  await b.waitForFunction((pos) => document.querySelector('[data-testid=board]').dataset.position === pos, final.position, { timeout: WAIT_MS });
  const replayed = await b.evaluate(() => document.querySelector('[data-testid=replaying]') !== null);
  check(!replayed, 'with the replay off no step is replayed');
  return `${played.length} steps: Skip after ${took} ms; replay off kept across a reload`;
}

// Drag and drop: White's e2 pawn dragged to e4 plays e2-e4 (the pawn follows the pointer on
// the way); a drag let go on its own square plays nothing; click-click still plays e7-e5.
async function dragAndDrop(sc) {
  const r = await post('/api/games', { variant: 'chess', white: 'human', black: 'human' });
  check(r.status === 200, `create chess game: ${JSON.stringify(r.body)}`);
  const { id, links } = r.body;
  const a = await sc.page();
  await a.goto(base + links.white);
  await a.waitForSelector('[data-testid=board] svg');
  // The page's rules module loaded (or given up): the board is drawn as it stays.
  await a.waitForFunction(() => document.documentElement.dataset.localRules, null, { timeout: 10000 }).catch(() => {});
  // The board may be drawn again as the page's rules module arrives (a live game's steps
  // come from it): a square replaced while measured has no box for that moment.
  const centre = async (sq) => {
    for (let i = 0; i < 50; i++) {
      const b = await a.locator(`[data-testid="sq-${sq}"]`).boundingBox();
      if (b) return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
      await new Promise((r) => setTimeout(r, 40));
    }
    throw new Error(`square ${sq} has no box on the board`);
  };
  const e2 = await centre('e2'), e4 = await centre('e4');
  // Picked up and put back: nothing played.
  await a.mouse.move(e2.x, e2.y);
  await a.mouse.down();
  await a.mouse.move(e2.x + 3, e2.y - 3, { steps: 2 });
  await a.mouse.up();
  check((await getView(id)).turns.length === 0, 'a drag let go on its own square plays nothing');
  const v0 = await version(a);
  await a.mouse.move(e2.x, e2.y);
  await a.mouse.down();
  await a.mouse.move((e2.x + e4.x) / 2, (e2.y + e4.y) / 2, { steps: 5 });
  const following = await a.evaluate(() => {
    const g = document.querySelector('g.unit[data-unit="e2"]');
    return g ? g.getAttribute('transform') : null;
  });
  check(following && following.startsWith('translate'), `the pawn follows the pointer (${following})`);
  await a.mouse.move(e4.x, e4.y, { steps: 5 });
  await a.mouse.up();
  await waitVersionAbove(a, v0, 'the drag');
  const v = await getView(id);
  check(JSON.stringify(v.turns.map((t) => t.steps)) === '[["e2-e4"]]', `the drag played e2-e4: ${JSON.stringify(v.turns)}`);
  const b = await sc.page();
  await b.goto(base + links.black);
  await b.waitForSelector('[data-testid=board] svg');
  const v1 = await version(b);
  await b.click('[data-testid=sq-e7]');
  await b.click('[data-testid=sq-e5]');
  await waitVersionAbove(b, v1, 'click-click');
  const after = await getView(id);
  check(after.turns.length === 2 && after.turns[1].steps[0] === 'e7-e5', `click-click still plays: ${JSON.stringify(after.turns)}`);
  return 'e2-e4 dragged (the pawn following the pointer), a put-back drag played nothing, e7-e5 by clicks';
}

// Premove: during White's turn Black clicks e7 then e5; when White's e2-e4 arrives, the page
// plays e7-e5 by itself. A premove that is not legal when the turn comes (a7-a3) is cleared
// with a message and plays nothing.
async function premove(sc) {
  const r = await post('/api/games', { variant: 'chess', white: 'human', black: 'human' });
  check(r.status === 200, `create chess game: ${JSON.stringify(r.body)}`);
  const { id, links, tokens } = r.body;
  const b = await sc.page();
  await b.goto(base + links.black);
  await b.waitForSelector('[data-testid=board] svg');
  await b.click('[data-testid=sq-e7]');
  await b.click('[data-testid=sq-e5]');
  const marked = await b.locator('[data-testid=board] rect.premove').count();
  check(marked === 2, `e7 and e5 marked as the premove (${marked})`);
  // The premove's confirmation is a note, not an error (issue 45's newcomer: it was styled
  // as an error).
  // Two people: the players' chat is there.
  await b.waitForFunction(() => document.body.dataset.chat === 'players');
  const note = await b.textContent('[data-testid=note]').catch(() => '');
  check(note.includes('Premove e7-e5') && await b.locator('[data-testid=error]').isHidden(), `the premove confirmed as a note ("${note}"), no error shown`);
  let s = await post(`/api/games/${id}/step`, { token: tokens.white, step: 'e2-e4' });
  check(s.status === 200, `e2-e4: ${JSON.stringify(s.body)}`);
  const until = Date.now() + WAIT_MS;
  let v;
  do {
    await new Promise((res) => setTimeout(res, 100));
    v = await getView(id);
  } while (v.turns.length < 2 && Date.now() < until);
  check(JSON.stringify(v.turns.map((t) => t.steps)) === '[["e2-e4"],["e7-e5"]]', `the premove was played: ${JSON.stringify(v.turns)}`);
  // Not legal when the turn comes: cleared, nothing played.
  await b.waitForFunction(() => document.querySelector('[data-testid=board]').dataset.toMove === 'white');
  await b.click('[data-testid=sq-a7]');
  await b.click('[data-testid=sq-a3]');
  s = await post(`/api/games/${id}/step`, { token: tokens.white, step: 'g1-f3' });
  check(s.status === 200, `g1-f3: ${JSON.stringify(s.body)}`);
  await b.waitForFunction(() => (document.querySelector('[data-testid=error]') || {}).textContent?.includes('not legal now'), null, { timeout: WAIT_MS });
  v = await getView(id);
  check(v.turns.length === 3 && v.to_move === 'black', `nothing played for the illegal premove: ${JSON.stringify(v.turns)}`);
  return 'e7-e5 premoved during White\'s turn and played on arrival; a7-a3 cleared as not legal';
}

// Sounds (off until turned on) and the "your turn" notification of a correspondence game:
// the page's audio and notifications are counted by an instrumented AudioContext and
// Notification, and the page is made to look hidden (in the background).
async function soundsAndNotifications(sc) {
  const r = await post('/api/games', { variant: 'chess', white: 'human', black: 'human', clock: { days: 1 } });
  check(r.status === 200, `create chess game: ${JSON.stringify(r.body)}`);
  const { id, links, tokens } = r.body;
  const b = await sc.page();
  await b.addInitScript(() => {
    window.__tones = 0;
    window.__notes = [];
    const AC = window.AudioContext;
    window.AudioContext = class extends AC {
      createOscillator() {
        const o = super.createOscillator();
        const start = o.start.bind(o);
        o.start = (...a) => { window.__tones += 1; return start(...a); };
        return o;
      }
    };
    window.Notification = class {
      constructor(title, opts) { window.__notes.push(`${title}: ${opts && opts.body}`); }
      static get permission() { return 'granted'; }
      static requestPermission() { return Promise.resolve('granted'); }
    };
    Object.defineProperty(document, 'hidden', { get: () => true });
  });
  await b.goto(base + links.black);
  await b.waitForSelector('[data-testid=board] svg');
  check(!(await b.isChecked('[data-testid=sounds]')), 'sounds are off by default');
  const white = async (step) => {
    const v0 = await version(b);
    const s = await post(`/api/games/${id}/step`, { token: tokens.white, step });
    check(s.status === 200, `${step}: ${JSON.stringify(s.body)}`);
    await waitVersionAbove(b, v0, step);
  };
  await white('e2-e4');
  check(await b.evaluate(() => window.__tones) === 0, 'no sound while sounds are off');
  check(await b.evaluate(() => window.__notes.length) === 0, 'no notification before it is asked for');
  const s = await post(`/api/games/${id}/step`, { token: tokens.black, step: 'e7-e5' });
  check(s.status === 200, `e7-e5: ${JSON.stringify(s.body)}`);
  await b.check('[data-testid=sounds]');
  await b.check('[data-testid=notify]');
  const afterSwitch = await b.evaluate(() => window.__tones);
  await white('g1-f3');
  await b.waitForFunction((n) => window.__tones > n, afterSwitch, { timeout: WAIT_MS });
  const notes = await b.evaluate(() => window.__notes);
  check(notes.length === 1 && notes[0].startsWith('Cohort: your turn'), `one "your turn" notification: ${JSON.stringify(notes)}`);
  await b.reload();
  await b.waitForSelector('[data-testid=board] svg');
  check(await b.isChecked('[data-testid=sounds]') && await b.isChecked('[data-testid=notify]'), 'both kept across a reload');
  return `sounds off by default (0 tones), on: a tone at White's step; notification "${notes[0]}"; kept across a reload`;
}

// A phone: 375x667 CSS px, touch.
const PHONE = { viewport: { width: 375, height: 667 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

// The board's geometry as drawn: a square's size, the board and its frame, the page's width.
async function boardGeometry(page) {
  return page.evaluate(() => {
    const sq = document.querySelector('[data-testid=board] rect[data-square]').getBoundingClientRect();
    const svg = document.querySelector('[data-testid=board] svg.board-svg').getBoundingClientRect();
    const frame = document.querySelector('[data-testid=board-frame]') || document.querySelector('[data-testid=board]');
    const f = frame.getBoundingClientRect();
    return {
      square: sq.width, left: svg.left, right: svg.right, frameLeft: f.left, frameRight: f.right,
      scrollLeft: frame.scrollLeft, pageWidth: document.documentElement.scrollWidth, pageScrollX: window.scrollX,
    };
  });
}

// Whether square `sq` is inside the board's frame as scrolled now (so a person sees it), at
// least `margin` px from its sides.
async function inFrame(page, sq, margin = 0) {
  return page.evaluate(([s, m]) => {
    const r = document.querySelector(`[data-testid=sq-${s}]`).getBoundingClientRect();
    const f = document.querySelector('[data-testid=board-frame]').getBoundingClientRect();
    return r.left >= f.left + m - 0.5 && r.right <= f.right - m + 0.5;
  }, [sq, margin]);
}

// Chesimal Fusion (16x12) on a phone: squares big enough to tap in a frame that scrolls
// sideways (the page does not); the board swiped to a leader off the screen, which is tapped;
// a unit tapped and moved, another dragged by a finger, a third by the mouse in the scrolled
// frame; the fit control shows the whole board (kept over a reload) and back; the replay page
// the same.
async function phoneFusion(sc) {
  const page = await sc.page(PHONE);
  const W = PHONE.viewport.width;
  const { id, token } = await createFromHome(page, 'chesimal-fusion-1', { opponent: 'ai', strength: 'level8', time: 200 });
  // Against the AI there is no one to chat with: no chat panel (issue 45's newcomer).
  await page.waitForFunction(() => document.body.dataset.chat);
  check(await page.evaluate(() => document.body.dataset.chat) === 'none' && await page.locator('.chat-box').count() === 0, 'no chat panel in a game against the AI');
  const m = await boardGeometry(page);
  check(m.square >= 36, `a square is ${m.square.toFixed(1)} px wide on a ${W} px phone (36 at least)`);
  await page.waitForSelector('[data-testid=board-fit]', { state: 'visible' });
  check(m.pageWidth <= W && m.frameRight <= W + 0.5, `the page does not scroll sideways, the board's frame does (${JSON.stringify(m)})`);
  check(m.right > m.frameRight + m.square, 'the board is wider than its frame');
  for (const t of ['status', 'undo', 'end-turn', 'move-list', 'board-fit']) {
    const b = await page.locator(`[data-testid=${t}]`).boundingBox();
    check(b && b.x >= 0 && b.x + b.width <= W + 0.5, `${t} is within the screen's width (${JSON.stringify(b)})`);
  }
  // A finger on the screen (touch events, as the phone sends them): a swipe from (x, y) by
  // (dx, dy), or a drag when it starts on a unit that may move.
  const cdp = await page.context().newCDPSession(page);
  const finger = async (x, y, dx, dy) => {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y }] });
    for (let i = 1; i <= 10; i++) {
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: x + (dx * i) / 10, y: y + (dy * i) / 10 }] });
      await page.waitForTimeout(16);
    }
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  };
  const centre = async (sq) => {
    const b = await page.locator(`[data-testid=sq-${sq}]`).boundingBox();
    return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
  };
  // The King on k2 leads: off the screen at first; the board swiped sideways (on the empty
  // e6), and the King tapped.
  let view = await getView(id, token);
  check(view.legal.some((s) => s.text === 'lead:k2'), 'the King on k2 may lead');
  check(!(await inFrame(page, 'k2')), 'k2 is out of sight at first');
  const e6 = await centre('e6');
  await finger(e6.x, e6.y, -250, 0);
  await page.waitForFunction(() => document.querySelector('[data-testid=board-frame]').scrollLeft > 0);
  await page.waitForTimeout(300); // the swipe's glide
  if (!(await inFrame(page, 'k2'))) await page.locator('[data-testid=sq-k2]').scrollIntoViewIfNeeded();
  const scrolled = await boardGeometry(page);
  check(scrolled.scrollLeft > 0 && scrolled.pageScrollX === 0 && scrolled.pageWidth <= W, `the frame scrolled, not the page (${JSON.stringify(scrolled)})`);
  check(await inFrame(page, 'k2'), 'k2 is in sight');
  let v0 = await version(page);
  await page.tap('[data-testid=sq-k2]');
  await waitVersionAbove(page, v0, 'lead:k2');
  view = await getView(id, token);
  check(JSON.stringify(view.turn_steps) === '["lead:k2"]', `the tap on k2 played lead:k2 (${view.turn_steps})`);
  const left = (await boardGeometry(page)).scrollLeft;
  check(Math.abs(left - scrolled.scrollLeft) < 1, `the redraw kept the frame scrolled (${left} / ${scrolled.scrollLeft})`);
  // A unit tapped, then its destination: both on the scrolled board.
  const seen = [];
  for (const s of quiet(view)) if (await inFrame(page, s.from) && await inFrame(page, s.to)) seen.push(s);
  const first = seen.find((s) => s.from[0] >= 'j');
  check(first, `a unit right of the first screen may move (${seen.map((s) => s.text)})`);
  v0 = await version(page);
  await page.tap(`[data-testid=sq-${first.from}]`);
  await page.waitForFunction((sq) => document.querySelector('[data-testid=board]').dataset.selected === sq, first.from);
  await page.tap(`[data-testid=sq-${first.to}]`);
  await waitVersionAbove(page, v0, first.text);
  view = await getView(id, token);
  check(view.turn_steps.at(-1) === first.text && (await unitAt(page, first.to)), `the taps played ${first.text} (${view.turn_steps})`);
  // Another unit dragged by the finger to its destination in the scrolled frame (the frame
  // does not scroll under it); a third with the mouse.
  const inSight = async (pred) => {
    const out = [];
    for (const s of quiet(view, pred)) if (await inFrame(page, s.from) && await inFrame(page, s.to, 4)) out.push(s);
    return out;
  };
  const second = (await inSight((x) => x.from !== first.to))[0];
  check(second, 'a second unit in sight may move');
  let a = await centre(second.from), b = await centre(second.to);
  const before = (await boardGeometry(page)).scrollLeft;
  v0 = await version(page);
  await finger(a.x, a.y, b.x - a.x, b.y - a.y);
  await waitVersionAbove(page, v0, `the finger's drag ${second.text}`);
  view = await getView(id, token);
  check(view.turn_steps.at(-1) === second.text, `the finger's drag played ${second.text} (${view.turn_steps})`);
  check(Math.abs((await boardGeometry(page)).scrollLeft - before) < 1, 'the drag did not scroll the board');
  const third = (await inSight((x) => x.from !== first.to && x.from !== second.to))[0];
  check(third, 'a third unit in sight may move');
  a = await centre(third.from);
  b = await centre(third.to);
  v0 = await version(page);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 4 });
  await page.mouse.move(b.x, b.y, { steps: 4 });
  await page.mouse.up();
  await waitVersionAbove(page, v0, `the mouse's drag ${third.text}`);
  view = await getView(id, token);
  check(view.turn_steps.at(-1) === third.text, `the mouse's drag played ${third.text} (${view.turn_steps})`);
  await page.screenshot({ path: join(SHOTS, 'phone-fusion.png') });
  // Fit: the whole board within the screen's width, kept over a reload; and back.
  check((await page.textContent('[data-testid=board-fit]')).includes('Fit'), 'the control offers to fit the board');
  await page.tap('[data-testid=board-fit]');
  await page.waitForFunction((w) => document.querySelector('[data-testid=board] svg.board-svg').getBoundingClientRect().right <= w, W);
  const fit = await boardGeometry(page);
  check(fit.left >= 0 && fit.right <= W && fit.square < 36, `fitted: the whole board within ${W} px (${JSON.stringify(fit)})`);
  check(await page.evaluate(() => localStorage.getItem('cohort-board-fit')) === '1', 'the choice is kept in the browser');
  await page.screenshot({ path: join(SHOTS, 'phone-fusion-fit.png') });
  await page.reload();
  await page.waitForSelector('[data-testid=board-fit]', { state: 'visible' });
  const again = await boardGeometry(page);
  check(again.right <= W && again.square < 36, `still fitted after a reload (${JSON.stringify(again)})`);
  await page.tap('[data-testid=board-fit]');
  await page.waitForFunction(() => document.querySelector('[data-testid=board] rect[data-square]').getBoundingClientRect().width >= 36);
  // The replay page: the same frame.
  await page.goto(`${base}/game/${id}?replay`);
  await page.waitForSelector('[data-testid=replay-slider]');
  await page.waitForSelector('[data-testid=board-fit]', { state: 'visible' });
  const replay = await boardGeometry(page);
  check(replay.square >= 36 && replay.pageWidth <= W, `the replay page: ${replay.square.toFixed(1)} px squares, no sideways page (${JSON.stringify(replay)})`);
  return `${W}x${PHONE.viewport.height}: squares ${m.square.toFixed(1)} px (fitted ${fit.square.toFixed(1)} px); swiped ${scrolled.scrollLeft} px, lead:k2 tapped, ${first.text} tapped, ${second.text} dragged by a finger, ${third.text} by the mouse; fit kept over a reload; replay ${replay.square.toFixed(1)} px`;
}

// Looking back in a live game: a click on White's first turn in the move list shows the board
// after it (the position of `?at=`), marked, read only; the arrow keys step through the turns;
// a step played meanwhile leaves the board where it is and the banner says the game moved on;
// Back shows the live board and the turn goes on; Escape returns too.
async function lookBack(sc) {
  const page = await sc.page();
  const { id, token } = await createFromHome(page, 'chesimals-1', { opponent: 'ai', strength: 'level8', time: 200 });
  await page.selectOption('[data-testid=replay-speed]', '0');
  let view = await getView(id, token);
  const w1 = forward(quiet(view))[0];
  await clickStep(page, w1);
  view = await getView(id, token);
  await clickStep(page, forward(quiet(view, (s) => s.from !== w1.to))[0]);
  await endTurn(page);
  view = await waitAiReply(page, id, token, 0);
  const live = view.position;
  const at = view.turns[0].steps.length;
  const old = await getView(`${id}?at=${at}`);
  check(old.position !== live, 'the position after White\'s first turn is not the live one');

  await page.click('[data-testid=move-list] .turn-cell[data-turn="1"]');
  await page.waitForFunction((k) => document.querySelector('[data-testid=board]').dataset.lookBackAt === String(k), at, { timeout: 10000 });
  check(await page.getAttribute('[data-testid=board]', 'data-position') === old.position, 'the board shows the position after White\'s first turn');
  await checkDrawnBoard(page, old, 'looking back at turn 1');
  const banner = await page.textContent('[data-testid=look-back-what]');
  check(banner === 'Looking at turn 1, White', `the banner: "${banner}"`);
  check(await page.getAttribute('[data-testid=move-list] .turn-cell.current', 'data-turn') === '1', 'turn 1 is marked in the move list');
  check(await page.isDisabled('[data-testid=end-turn]'), 'End turn is disabled while looking back');
  // Clicks on the old board play nothing, select nothing and set no premove.
  const v0 = await version(page);
  const mover = quiet(view)[0];
  await page.click(`[data-testid=sq-${mover.from}]`);
  await page.click(`[data-testid=sq-${mover.to}]`);
  await page.waitForTimeout(300);
  check(await version(page) === v0 && (await getView(id, token)).turn_steps.length === 0, 'a click on the board made no step');
  check(await page.getAttribute('[data-testid=board]', 'data-selected') === '' && await page.locator('[data-testid=board] rect.premove').count() === 0, 'nothing selected, no premove');
  check(await page.getAttribute('[data-testid=board]', 'data-look-back-at') === String(at), 'still looking at turn 1');

  // The arrow keys: Black's reply, then back to White's turn.
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => document.querySelector('[data-testid=board]').dataset.lookBack === '2');
  check(await page.textContent('[data-testid=look-back-what]') === 'Looking at turn 1, Black', 'right arrow: turn 1, Black');
  check(await page.getAttribute('[data-testid=board]', 'data-position') === live, 'after Black\'s reply: the live position');
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction((k) => document.querySelector('[data-testid=board]').dataset.lookBackAt === String(k), at);
  check(await page.getAttribute('[data-testid=board]', 'data-position') === old.position, 'left arrow: back at turn 1, White');

  // The game moves on underneath: a step of ours, played on another page (through the API).
  const r = await post(`/api/games/${id}/step`, { token, step: mover.text });
  check(r.status === 200, `${mover.text}: ${JSON.stringify(r.body)}`);
  await page.waitForSelector('[data-testid=look-back-moved]');
  const moved = await page.textContent('[data-testid=look-back-moved]');
  check(moved.includes('moved on') && moved.includes('1 new step'), `the banner says the game moved on: "${moved}"`);
  view = await getView(id, token);
  check(await page.getAttribute('[data-testid=board]', 'data-position') === old.position, 'the board stays at turn 1');
  check(await page.getAttribute('[data-testid=board]', 'data-live-position') === view.position, 'the page has the new live position');
  await page.screenshot({ path: join(SHOTS, 'look-back.png') });

  // Back: the live board, and the turn goes on by clicking.
  await page.click('[data-testid=look-back-return]');
  await page.waitForFunction(() => !document.querySelector('[data-testid=look-back]') && !document.querySelector('[data-testid=board]').dataset.lookBack);
  check(await page.getAttribute('[data-testid=board]', 'data-position') === view.position, 'Back: the live position');
  await checkDrawnBoard(page, view, 'back to the game');
  const next = forward(quiet(view, (s) => s.from !== mover.to))[0];
  await clickStep(page, next);
  // Escape returns too.
  await page.click('[data-testid=move-list] .turn-cell[data-turn="2"]');
  await page.waitForSelector('[data-testid=look-back]');
  await page.keyboard.press('Escape');
  await page.waitForSelector('[data-testid=look-back]', { state: 'detached' });
  check(await page.getAttribute('[data-testid=board]', 'data-position') === (await getView(id, token)).position, 'Escape: the live position');
  return `turn 1 (${at} steps) looked at: ?at=${at} drawn, banner, clicks inert, arrows to Black's reply and back; ${mover.text} played meanwhile ("${moved}"); Back and Escape show the live board; ${next.text} clicked after`;
}

// ---------------------------------------------------------------- runner

// Every rules page on a 390 px phone (issue 45: Fusion's was 2,335 px wide, its position
// string unbroken, and the pieces' "In words" column two letters wide): nothing wider than
// the screen, the words readable, and no file of the project cited.
async function phoneRulesPages(sc) {
  const phone = { ...PHONE, viewport: { width: 390, height: 844 } };
  const page = await sc.page(phone);
  const W = phone.viewport.width;
  const variants = await (await fetch(`${base}/api/variants`)).json();
  const widths = [];
  for (const v of variants) {
    await page.goto(`${base}/rules/${v.id}`);
    await page.waitForSelector('[data-testid=rules-position]');
    const m = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth,
      words: Math.min(...[...document.querySelectorAll('[data-testid^=words-]')].map((e) => e.getBoundingClientRect().width)),
      text: document.querySelector('[data-testid=rules]').textContent,
    }));
    check(m.page <= W, `${v.id}: the rules page is ${m.page} px wide on a ${W} px screen`);
    check(m.words >= 90, `${v.id}: the "In words" column is ${m.words.toFixed(0)} px wide`);
    for (const cited of ['RULES.md', 'docs/', 'of the project']) check(!m.text.includes(cited), `${v.id}: the page cites "${cited}"`);
    widths.push(m.page);
  }
  return `${variants.length} rules pages, at most ${Math.max(...widths)} px wide on ${W} px`;
}

// Chessma 84 on a 390 px phone (issue 45's newcomer: it opened with the h-file cut in half):
// the eight files a to h are whole on the screen when the game opens.
async function phoneChessma(sc) {
  const phone = { ...PHONE, viewport: { width: 390, height: 844 } };
  const page = await sc.page(phone);
  const r = await post('/api/games', { variant: 'chessma-84', white: 'human', black: 'human' });
  check(r.status === 200, `create: ${JSON.stringify(r.body)}`);
  await page.goto(base + r.body.links.white);
  await page.waitForSelector('[data-testid=board] svg');
  await page.waitForTimeout(300);
  const frame = await page.locator('[data-testid=board-frame]').boundingBox();
  const cut = [];
  for (const f of 'abcdefgh') {
    const b = await page.locator(`[data-testid=sq-${f}2]`).boundingBox();
    if (b.x < frame.x - 0.5 || b.x + b.width > frame.x + frame.width + 0.5) cut.push(`${f}2 ${b.x.toFixed(0)}..${(b.x + b.width).toFixed(0)}`);
  }
  check(!cut.length, `files cut by the frame (${frame.x.toFixed(0)}..${(frame.x + frame.width).toFixed(0)}): ${cut.join(', ')}`);
  return `a2 to h2 whole in a ${frame.width.toFixed(0)} px frame`;
}

// AI levels (issue 46): the home page offers Level 1 to Level 8 by number, level 3 first,
// and says what the chosen one is in the engine's words (GET /api/ai/levels); a game made at
// a level has that AI; the analysis page plays the position shown against a level, and the
// lobby plays the AI at a level (the records page's continuation: records.mjs).
async function aiLevels(sc) {
  const page = await sc.page();
  const levels = await (await fetch(`${base}/api/ai/levels?variant=chieftain`)).json();
  const chessLevels = await (await fetch(`${base}/api/ai/levels?variant=chess`)).json();
  check(levels.levels.length === 8 && levels.default === 3, `the server's levels: ${JSON.stringify(levels)}`);
  await page.goto(base + '/');
  await page.waitForSelector('[data-testid="strength-chieftain"]');
  await page.waitForFunction(() => document.querySelector('[data-testid="strength-chieftain-about"]').textContent.length > 0);
  const options = await page.$$eval('[data-testid="strength-chieftain"] option', (os) => os.map((o) => [o.value, o.textContent, o.title]));
  check(options.map((o) => o[1]).join(',') === 'Level 1,Level 2,Level 3,Level 4,Level 5,Level 6,Level 7,Level 8', `options: ${JSON.stringify(options)}`);
  check(options.every(([v, , title], i) => v === `level${i + 1}` && title === levels.levels[i].about), 'each option says what its level is');
  check(await page.inputValue('[data-testid="strength-chieftain"]') === 'level3', 'level 3 first');
  await page.selectOption('[data-testid="strength-chieftain"]', 'level1');
  const about = await page.textContent('[data-testid="strength-chieftain-about"]');
  check(about === levels.levels[0].about, `the chosen level's words: "${about}"`);
  const { id } = await createFromHome(page, 'chieftain', { opponent: 'ai', strength: 'level1', time: 200 });
  const v = await (await fetch(`${base}/api/games/${id}`)).json();
  check(v.players.black.startsWith('level1 '), `the AI is level 1: ${v.players.black}`);
  // The analysis page: play a position against level 2, as the side to move.
  await page.goto(`${base}/analysis?variant=chieftain`);
  await page.waitForSelector('[data-testid=play-level]');
  await page.selectOption('[data-testid=play-level]', 'level2');
  await page.click('[data-testid=play-from-here-go]');
  await page.waitForURL(/\/game\/[0-9a-f]+\?token=/);
  const g = gameOf(page);
  const w = await (await fetch(`${base}/api/games/${g.id}`)).json();
  check(w.players.black.startsWith('level2 ') && w.players.white === 'human', `the new game: ${JSON.stringify(w.players)}`);
  // The lobby: play the AI at level 5 as Black.
  await page.goto(`${base}/lobby`);
  await page.waitForSelector('[data-testid=ai-level]');
  await page.waitForFunction(() => document.querySelector('[data-testid=ai-level-about]').textContent.length > 0);
  // The words follow the variant chosen: chess has its own table (no greedy moves).
  await page.selectOption('[data-testid=ai-level]', 'level5');
  await page.selectOption('[data-testid=ai-variant]', 'chess');
  const sayWhen = (want) => page.waitForFunction((w) => document.querySelector('[data-testid=ai-level-about]').textContent === w, want, { timeout: 5000 })
    .then(() => true, () => false);
  check(chessLevels.levels[4].about !== levels.levels[4].about && await sayWhen(chessLevels.levels[4].about),
    `the lobby says what level 5 is in chess: "${await page.textContent('[data-testid=ai-level-about]')}"`);
  await page.selectOption('[data-testid=ai-variant]', 'chesimals-1');
  check(await sayWhen(levels.levels[4].about), 'the lobby says what level 5 is in chesimals-1');
  await page.selectOption('[data-testid=ai-side]', 'black');
  await page.click('[data-testid=ai-play]');
  await page.waitForURL(/\/game\/[0-9a-f]+\?token=/);
  const l = await (await fetch(`${base}/api/games/${gameOf(page).id}`)).json();
  check(l.players.white.startsWith('level5 ') && l.players.black === 'human' && l.variant === 'chesimals-1', `the lobby's game: ${JSON.stringify(l.players)}`);
  return `8 levels offered, their words per variant; games made at levels 1 (home), 2 (analysis) and 5 (lobby)`;
}

const scenarios = [
  ['home page', homePage],
  ['AI levels: home and analysis pages', aiLevels],
  ['a. vs AI, chesimals-1', vsAiChesimals],
  ['b. vs AI, mini-chieftain', vsAiChieftain],
  ['c+d. human vs human, seats', humanVsHuman],
  ['drops (lifeform-free)', drops],
  ['promotion choice and resign (chess)', promotion],
  ['reconnect after a server restart', reconnect],
  ['fusion: lead by clicking (chesimal-fusion-1)', fusion],
  ['fusion: a moved unit moves again (chesimals-0.75)', movedAgain],
  ['skipped replay, replay speed', skippedReplay],
  ['drag and drop', dragAndDrop],
  ['premove', premove],
  ['sounds and notifications', soundsAndNotifications],
  ['phone: fusion squares to tap, a frame that scrolls, fit', phoneFusion],
  ['look back at a turn of a live game', lookBack],
  ['phone: every rules page fits the screen', phoneRulesPages],
  ['phone: chessma 84 opens with files a to h whole', phoneChessma],
];

await runSuite('browser tests', scenarios, {
  prefix: 'cohort-browser-',
  timeoutMs: SCENARIO_MS, waitMs: WAIT_MS,
  ready: (env) => ({ base, port, database } = env),
});
