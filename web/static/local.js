// Play in the browser with no server (docs/wasm.md, "Local play"): `/local` of `cohort serve`
// and `local.html` of the static site `cohort site DIR` writes. The rules run on this page's
// thread (the WebAssembly module through wasm/cohort.js: legal steps, making steps, the
// view); the engine runs in a module Web Worker (wasm/worker.js), so the page never waits on
// it. Everything is loaded when the page loads (this file, the board's scripts, the module,
// compiled once and handed to the worker): no request is made afterwards, except "Continue
// on the server", which only a page of `cohort serve` offers. No rule is computed here:
// squares, steps, the turn and the outcome all come from the module.
import { Cohort } from '../wasm/cohort.js';

const app = document.getElementById('app');
const onServer = document.body.dataset.site === 'server';
const query = new URLSearchParams(location.search);

function h(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k.startsWith('on') && typeof v === 'function') e[k] = v;
    else if (k === 'value') e.value = v;
    else if (v !== null && v !== undefined && v !== false) e.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat(Infinity)) {
    if (c !== null && c !== undefined && c !== false) e.append(c instanceof Node ? c : String(c));
  }
  return e;
}
const otherSide = (s) => (s === 'white' ? 'black' : 'white');

// ---- loading: the module compiled once, for this page and for the worker

const wasmUrl = new URL('../wasm/cohort.wasm', import.meta.url);
let cohort;
let worker;
let module;
try {
  const answer = await fetch(wasmUrl);
  if (!answer.ok) throw new Error(`${wasmUrl.pathname}: ${answer.status}`);
  const bytes = await answer.arrayBuffer();
  module = await WebAssembly.compile(bytes);
  cohort = await Cohort.load(module);
  worker = new Worker(new URL('../wasm/worker.js', import.meta.url), { type: 'module' });
  worker.postMessage({ type: 'load', wasm: module });
} catch (e) {
  app.replaceChildren(h('p', { class: 'error', 'data-testid': 'local-error' },
    `The rules module could not be loaded (${e.message}). On a server, run scripts/wasm-build; a static site needs wasm/cohort.wasm.`));
  throw e;
}

// ---- the game

const state = {
  game: null,          // the module's game (rules on this thread)
  variant: null,       // {id, name}
  variantText: null,   // a variant file's text, or null for a built-in variant
  start: '',           // the start position
  me: 'white',         // the side the person plays
  aiMs: 200,           // the engine's time per turn
  log: [],             // every step made: {text, side, end} (`end`: the turn's closing step)
  selected: null,      // the square of the unit chosen
  choice: null,        // several steps between the same squares: [step]
  searchId: 0,         // the search whose answer is awaited (older answers are dropped)
  thinking: false,
  last: [],            // the steps of the last turn played (drawn as the last turn)
  hintId: 0,           // the hint search awaited, if any
  hint: null,          // {position, turn: [step]} the engine's suggestion for the person
  hinting: false,
  error: '',
  note: '',
};

worker.onmessage = ({ data }) => {
  if (data.type === 'ready') { document.body.dataset.engine = 'ready'; return; }
  if (data.type === 'info') return;
  if (data.type === 'error' && (data.id === null || data.id === undefined)) {
    state.thinking = false;
    state.hinting = false;
    state.error = `The engine could not start: ${data.message}`;
    render();
    return;
  }
  if (data.id === state.hintId && data.id) { hintDone(data); return; }
  if (data.id !== state.searchId) return; // a search from before an undo or a new game
  state.thinking = false;
  if (data.type === 'error') {
    state.error = `The engine failed: ${data.message}`;
    render();
    return;
  }
  const played = [];
  try {
    for (const text of data.turn) {
      if (state.game.outcome()) break;
      const step = state.game.legalSteps().find((s) => s.text === text);
      const r = record(text, state.game.make(step ? step.index : text));
      if (r) played.push({ ...r, from: step && step.from, to: step && step.to });
    }
  } catch (e) {
    state.error = `The engine's turn did not play: ${e.message}`;
  }
  state.last = played;
  render();
};

worker.onerror = (e) => {
  state.thinking = false;
  state.hinting = false;
  state.error = `The engine's worker failed: ${e.message || 'it could not be loaded'}`;
  if (state.game) render();
};

// A step made: logged, with whether it closed the turn (the `end` step, or the side to move
// changed, as in chess). Answers the step's data for the "last turn" marks.
function record(text, made) {
  const side = state.log.length ? sideAfterLog() : state.startSide;
  const end = made.step === 'end' || made.sideToMove !== side;
  state.log.push({ text: made.step, side, end, kind: made.step === 'end' ? 'end' : 'step' });
  return made.step === 'end' ? null : { text: made.step };
}
function sideAfterLog() {
  const lastEntry = state.log[state.log.length - 1];
  return lastEntry.end ? otherSide(lastEntry.side) : lastEntry.side;
}

let ids = 0;
const nextId = () => ++ids;

// A hint: the engine's turn for the person, searched in the worker for the AI's time while
// the person goes on clicking; drawn as numbered arrows while the position is the same.
function askHint() {
  const g = state.game;
  if (state.thinking || state.hinting || g.outcome() || g.sideToMove() !== state.me) return;
  state.hinting = true;
  state.hintId = nextId();
  worker.postMessage({
    type: 'search', id: state.hintId, variant: state.variantText || state.variant.id, position: g.position(), ms: state.aiMs,
  });
  render();
}
function hintDone(data) {
  state.hinting = false;
  state.hintId = 0;
  if (data.type === 'done') {
    // The suggested steps as squares: played one by one on a copy of the game.
    const copy = cohort.newGame(state.variantText || state.variant.id, state.game.position());
    const turn = [];
    try {
      for (const text of data.turn) {
        const step = copy.legalSteps().find((s) => s.text === text);
        if (!step) break;
        if (step.from && step.to) turn.push({ from: step.from, to: step.to, text });
        copy.make(step.index);
      }
    } finally {
      copy.free();
    }
    state.hint = { position: state.game.position(), turn, text: data.turn.filter((t) => t !== 'end').join(', ') };
  }
  render();
}

function newGame(variantArg, text, position) {
  const game = cohort.newGame(variantArg, position || undefined);
  if (state.game) state.game.free();
  state.game = game;
  const v = JSON.parse(JSON.stringify(game.view()));
  state.variant = { id: v.variant, name: v.name };
  state.variantText = text;
  state.start = game.position();
  state.startSide = game.sideToMove();
  state.log = [];
  state.last = [];
  state.selected = null;
  state.choice = null;
  state.searchId = 0;
  state.hintId = 0;
  state.hinting = false;
  state.hint = null;
  state.thinking = false;
  state.error = '';
  state.note = '';
  maybeAi();
  render();
}

// The engine's turn, in the worker: the page goes on drawing and answering clicks.
function maybeAi() {
  const g = state.game;
  if (!g || g.outcome() || g.sideToMove() === state.me) return;
  state.thinking = true;
  const id = state.searchId = nextId();
  worker.postMessage({
    type: 'search', id, variant: state.variantText || state.variant.id, position: g.position(), ms: state.aiMs,
  });
}

function play(step) {
  state.selected = null;
  state.choice = null;
  state.error = '';
  try {
    // The first step of the person's turn: the engine's last turn is no longer drawn.
    const fresh = !state.log.length || state.log[state.log.length - 1].end;
    const made = state.game.make(step.index);
    const r = record(step.text, made);
    if (fresh) state.last = [];
    if (r) state.last = state.last.concat([{ ...r, from: step.from, to: step.to }]);
  } catch (e) {
    state.error = e.message;
  }
  if (state.log.length && state.log[state.log.length - 1].end) maybeAi();
  render();
}

// The open turn's steps (the person's turn in progress).
function openSteps() {
  let n = 0;
  for (let i = state.log.length - 1; i >= 0 && !state.log[i].end; i--) n++;
  return n;
}

function undo() {
  if (!openSteps() || state.thinking) return;
  state.game.unmake();
  state.log.pop();
  state.last = state.last.slice(0, -1);
  state.selected = null;
  state.choice = null;
  render();
}

// Take back the last full turn pair: the turn in progress, the engine's last turn and the
// person's turn before it, back to the start of the person's turn.
function takeBack() {
  if (!state.log.length) return;
  state.searchId = 0; // an engine search still running is dropped
  state.thinking = false;
  let mine = false;
  while (state.log.length) {
    const e = state.log.pop();
    state.game.unmake();
    if (e.side === state.me) mine = true;
    const atMyStart = !state.log.length ? state.startSide === state.me
      : state.log[state.log.length - 1].end && sideAfterLog() === state.me;
    if (mine && atMyStart) break;
  }
  state.last = [];
  state.selected = null;
  state.choice = null;
  state.error = '';
  maybeAi();
  render();
}

// ---- the record (docs/records.md)

function escapeTag(s) {
  return s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\t/g, '\\t');
}

function recordText() {
  const out = state.game.outcome();
  const result = out ? out.result : '*';
  const d = new Date();
  const date = `${d.getUTCFullYear()}.${String(d.getUTCMonth() + 1).padStart(2, '0')}.${String(d.getUTCDate()).padStart(2, '0')}`;
  const ai = `engine:${state.aiMs}`;
  const tags = [
    ['Event', 'cohort local play'], ['Date', date],
    ['White', state.me === 'white' ? 'human' : ai], ['Black', state.me === 'black' ? 'human' : ai],
    ['Result', result], ['Variant', state.variant.id],
  ];
  if (state.variantText) tags.push(['VariantFile', state.variantText]);
  tags.push(['Position', state.start]);
  if (out) tags.push(['Termination', out.reason]);
  const lines = tags.map(([k, v]) => `[${k} "${escapeTag(String(v))}"]`);
  lines.push('');
  // Turns: numbered by full turn, White's then Black's; a record starting with Black writes `1. ...`.
  const turns = [];
  let cur = null;
  for (const e of state.log) {
    if (!cur) cur = { side: e.side, steps: [], closed: false };
    if (e.kind !== 'end') cur.steps.push(e.text);
    if (e.end) { cur.closed = true; turns.push(cur); cur = null; }
  }
  if (cur && cur.steps.length) turns.push(cur);
  let n = 1;
  let line = '';
  turns.forEach((t, i) => {
    // An open last turn is written `,...`, unless the game ended in it (a victory mid-turn:
    // the reader plays no `end` after it).
    const text = t.steps.join(',') + (t.closed || (out && i === turns.length - 1) ? '' : ',...');
    if (t.side === 'white') {
      if (line) lines.push(line);
      line = `${n}. ${text}`;
    } else {
      if (!line) line = `${n}. ...`;
      line += ` ${text}`;
      lines.push(line);
      line = '';
      n++;
    }
    if (i === turns.length - 1 && line) { lines.push(line); line = ''; }
  });
  lines.push(result);
  return `${lines.join('\n')}\n`;
}

function download() {
  const blob = new Blob([recordText()], { type: 'text/plain' });
  const a = h('a', { href: URL.createObjectURL(blob), download: `${state.variant.id}-local.txt` });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}

// Continue on the server (a page of `cohort serve` only): a new game against the AI from
// this game's record, the person playing the same side, opened at once.
async function carry() {
  state.error = '';
  const body = {
    variant: state.variant.id, [state.me]: 'human', [otherSide(state.me)]: 'ai',
    ai: { agent: 'engine', time_ms: Math.max(50, state.aiMs) }, record: recordText(),
  };
  if (state.variantText) body.variant_text = state.variantText;
  try {
    const r = await fetch('/api/games', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const data = await r.json().catch(() => null);
    if (!r.ok) throw new Error(data && data.error ? data.error : `the server answered ${r.status}`);
    try { localStorage.setItem(`cohort-game-${data.id}`, JSON.stringify({ ...data, creator: state.me })); } catch { /* private mode */ }
    location.href = data.links[state.me];
  } catch (e) {
    state.error = `Could not continue on the server: ${e.message}`;
    render();
  }
}

// ---- drawing

function onSquare(sq) {
  const g = state.game;
  if (state.thinking || g.outcome() || g.sideToMove() !== state.me) return;
  const steps = g.legalSteps();
  if (state.selected) {
    const to = steps.filter((s) => s.from === state.selected && s.to === sq);
    if (to.length === 1) { play(to[0]); return; }
    if (to.length > 1) { state.choice = to; render(); return; }
  }
  state.choice = null;
  state.selected = steps.some((s) => s.from === sq) && state.selected !== sq ? sq : null;
  render();
  if (state.selected && state.clickAt !== undefined) {
    document.body.dataset.answerMs = (performance.now() - state.clickAt).toFixed(1);
  }
}

function render() {
  const g = state.game;
  const v = g.view();
  const steps = g.outcome() ? [] : g.legalSteps();
  const myTurn = !state.thinking && !v.outcome && v.to_move === state.me;
  const targets = new Map();
  if (state.selected) {
    for (const s of steps) {
      if (s.from === state.selected && s.to) {
        if (!targets.has(s.to)) targets.set(s.to, []);
        targets.get(s.to).push(s);
      }
    }
  }
  const size = Math.max(28, Math.min(56, Math.floor(560 / Math.max(v.files, v.ranks))));
  const hint = state.hint && state.hint.position === v.position ? state.hint : null;
  const svg = CohortBoard.render(v, {
    size, flip: state.me === 'black', selected: state.selected, targets, onSquare,
    interactive: myTurn, last: state.last, showCommand: true, hints: hint ? hint.turn : undefined,
  });
  // How long a click took to be answered (tests read it): from the input event to drawn.
  svg.addEventListener('click', (e) => { state.clickAt = e.timeStamp; }, true);
  const endStep = steps.find((s) => s.kind === 'end');
  const others = myTurn ? steps.filter((s) => !s.from && s.kind !== 'end') : [];
  const status = v.outcome ? v.outcome.text
    : state.thinking ? `The engine is thinking (${state.aiMs} ms)...`
      : (v.to_move === state.me ? `Your turn (${v.to_move})` : `${v.to_move} to move`)
        // Check, and who gives it in the rules' words (the WebAssembly view's `checkers`).
        + (CohortBoard.checkedBy(v) ? `. Check by ${CohortBoard.checkedBy(v)}` : '');
  document.body.dataset.toMove = v.to_move;
  document.body.dataset.thinking = state.thinking ? '1' : '0';
  document.body.dataset.hinting = state.hinting ? '1' : '0';
  document.body.dataset.position = v.position;
  document.body.dataset.over = v.outcome ? '1' : '0';
  document.body.dataset.steps = String(state.log.length);
  document.body.dataset.turns = String(state.log.filter((e) => e.end).length);

  const panel = h('div', { class: 'panel local-panel' },
    h('h1', {}, state.variant.name, ' ', h('span', { class: 'vid' }, state.variant.id)),
    h('p', { class: `status${v.outcome ? ' over' : ''}`, 'data-testid': 'local-status' }, status),
    state.choice ? h('p', { class: 'choices', 'data-testid': 'local-choices' }, 'Choose: ',
      state.choice.map((s) => h('button', { 'data-testid': 'local-choice', onclick: () => play(s) }, s.text))) : null,
    others.length ? h('p', { class: 'choices', 'data-testid': 'local-other-steps' }, 'Other steps: ',
      others.map((s) => h('button', { 'data-testid': 'local-other-step', onclick: () => play(s) }, s.text))) : null,
    h('p', { class: 'buttons' },
      h('button', { class: 'primary', 'data-testid': 'local-end', disabled: !(myTurn && endStep), onclick: () => play(endStep) }, 'End turn'),
      ' ', h('button', { 'data-testid': 'local-undo', disabled: !(myTurn && openSteps() > 0), onclick: undo, title: 'Take back a step of the turn in progress' }, 'Undo'),
      ' ', h('button', { 'data-testid': 'local-hint', disabled: !myTurn || state.hinting, onclick: askHint, title: 'The engine\'s turn for you, in the AI\'s time; you may go on playing' }, state.hinting ? 'Thinking of a hint...' : 'Hint'),
      ' ', h('button', { 'data-testid': 'local-takeback', disabled: !state.log.length, onclick: takeBack, title: 'Take back your last turn and the engine\'s answer' }, 'Take back'),
    ),
    h('p', { class: 'buttons' },
      h('button', { 'data-testid': 'local-download', onclick: download }, 'Download record'),
      onServer ? [' ', h('button', { 'data-testid': 'local-carry', onclick: carry, title: 'A game on this server against its AI, from this position' }, 'Continue on the server')] : null),
    hint ? h('p', { class: 'hint', 'data-testid': 'local-hint-text' }, `Hint: ${hint.text}`) : null,
    state.error ? h('p', { class: 'error', 'data-testid': 'local-game-error' }, state.error) : null,
    h('p', { class: 'hint', 'data-testid': 'local-position' }, h('code', {}, v.position)),
  );
  const board = h('div', { class: 'local-board', 'data-testid': 'local-board' }, CohortBoard.frame(svg, { size, key: `local ${state.me}` }));
  gameBox.replaceChildren(h('div', { class: 'local-game' }, board, panel));
}

// ---- the set-up form: a variant (built in, or a file), the side, the engine's time

const variants = cohort.variants();
const select = h('select', { 'data-testid': 'local-variant' },
  variants.map((v) => h('option', { value: v.id }, `${v.name} (${v.id})`)));
const want = query.get('variant');
if (want && variants.some((v) => v.id === want)) select.value = want;
const side = h('select', { 'data-testid': 'local-side' }, h('option', { value: 'white' }, 'White'), h('option', { value: 'black' }, 'Black'));
const time = h('select', { 'data-testid': 'local-time' },
  [100, 200, 500, 1000, 2000, 3000, 5000, 10000].map((ms) => h('option', { value: String(ms) }, ms < 1000 ? `${ms} ms` : `${ms / 1000} s`)));
time.value = '1000';
time.onchange = () => { state.aiMs = Number(time.value); };
const fileInput = h('input', { type: 'file', accept: '.ini,.txt,text/plain', 'data-testid': 'local-file' });
const pasted = h('textarea', { rows: 6, cols: 60, placeholder: 'Or paste a variant file here (docs/variants.md)', 'data-testid': 'local-text' });
const setupError = h('p', { class: 'error', 'data-testid': 'local-setup-error' });
fileInput.onchange = async () => {
  const f = fileInput.files && fileInput.files[0];
  if (f) pasted.value = await f.text();
};

function start() {
  setupError.textContent = '';
  state.me = side.value;
  state.aiMs = Number(time.value);
  const text = pasted.value.trim() ? pasted.value : null;
  try {
    newGame(text || select.value, text, null);
  } catch (e) {
    setupError.textContent = text ? `This variant file does not load: ${e.message}` : e.message;
  }
}

const setup = h('section', { class: 'panel local-setup', 'data-testid': 'local-setup' },
  h('h1', {}, 'Play in your browser'),
  h('p', { class: 'hint' }, 'The rules and the AI run on this page (WebAssembly); nothing is sent anywhere.'),
  h('p', {}, h('label', {}, 'Variant ', select), ' ', h('label', {}, 'You play ', side), ' ',
    h('label', {}, 'AI time per turn ', time), ' ',
    h('button', { class: 'primary', 'data-testid': 'local-start', onclick: start }, 'New game')),
  h('details', {}, h('summary', {}, 'Your own variant file'), h('p', {}, fileInput), h('p', {}, pasted)),
  setupError,
);
const gameBox = h('section', { 'data-testid': 'local-game' });
app.replaceChildren(setup, gameBox);
start();
document.body.dataset.ready = '1';

// For tests and the curious: the state, the record text, the module.
window.cohortLocal = { state, recordText, cohort, worker };
