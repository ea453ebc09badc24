// The game page's state and its server connection: the view, the WebSocket, actions sent to
// the server, and the replay of others' steps one at a time.
'use strict';

const state = {
  view: null,
  seat: null,
  selected: null,
  dropLetter: null,
  showCommand: false,
  flip: null, // null: as the seat says
  note: '', // a confirmation (a premove set): shown apart from errors
  error: '',
  choice: null, // several legal steps between the same squares (promotion, pin or capture)
  leadChoice: null, // lead model: the leader whose modes are offered (`lead:b2:ortho`, `lead:b2:dia`)
  busy: false,
  confirmResign: false,
  connected: false,
  creator: false, // holds the creator token of an AI-against-AI game (may stop it)
  variantInfo: null, // GET /api/variants/<id>: the reconstructed note
  tournament: null, // GET /api/games/<id>/tournament: the tournament this game is in, if any
  shown: null, // steps shown on the board so far (the replay of others' steps catches up)
  frames: new Map(), // step count -> a view after that many steps (from the WebSocket)
  frame: null, // the frame on the board while others' steps are replayed
  replaying: false,
  diagram: null, // the pieces panel (custom.js), made when first shown
  showPieces: false,
  variantFile: null, // custom variants: the file, shown on request
  joiningRematch: false, // the rematch is made: this seat's page is moving to it
  premove: null, // {from, to}: the next turn's first step, chosen during the opponent's turn
  // Looking back at a finished turn (a click in the move list): { turn: its index, at: the
  // step it ends at, steps: the game's step count when the look back began, mine: whether it
  // was the player's turn then, shown: { at, turn, view } the board drawn (the view at that
  // step, `?at=`; the turn before until it comes) }. The live game goes on meanwhile.
  lookBack: null,
};

// Milliseconds each replayed step of the opponent stays on the board: the reader's choice
// (kept in localStorage), 550 by default; 0 shows the opponent's turn at once.
const REPLAY_SPEEDS = [['Slow', 1000], ['Normal', 550], ['Fast', 200], ['Off', 0]];
function replayMs() {
  try {
    const raw = localStorage.getItem('cohort-replay-ms');
    if (raw !== null && REPLAY_SPEEDS.some(([, v]) => String(v) === raw)) return Number(raw);
  } catch { /* private mode */ }
  return 550;
}
function setReplayMs(ms) {
  try { localStorage.setItem('cohort-replay-ms', String(ms)); } catch { /* private mode */ }
}
// The replay's pause between steps; `skipReplay` ends it and the rest of the replay at once.
let wakeReplay = null;
function replayPause(ms) {
  return new Promise((r) => { wakeReplay = r; setTimeout(r, ms); }).then(() => { wakeReplay = null; });
}
function skipReplay() {
  state.skipReplay = true;
  if (wakeReplay) wakeReplay();
}

function myTurn() {
  const v = state.view;
  return Boolean(v && state.seat && !v.result && v.to_move === state.seat && !v.ai_thinking && !state.replaying);
}

// The side that played each step of the game, in order.
function stepSides(v) {
  return allTurns(v).flatMap((t) => t.steps.map(() => t.side));
}

// Others' steps (the opponent's, the AI's; every step for a spectator) are replayed one at a
// time with their arrows and removals; the player's own steps show at once.
function scheduleReplay() {
  const v = state.view;
  const n = stepCount(v);
  if (state.shown === null || n < state.shown) { state.shown = n; return; }
  if (n > state.shown && !state.replaying) runReplay();
}

// The pause after a replayed step: the reader's speed, but when the player's own time is
// to start (the server credits the replay of the opponent's turn at the default speed), no
// slower than what ends the replay by then: watching never costs the player's time.
function replayPace() {
  const v = state.view;
  const ms = replayMs();
  if (!v || !v.clock || !state.seat || v.clock.running !== state.seat || !window.CohortClock) return ms;
  const left = stepCount(v) - state.shown;
  const until = CohortClock.startsAt() - performance.now();
  return Math.max(0, Math.min(ms, until / Math.max(1, left)));
}

async function runReplay() {
  state.replaying = true;
  state.skipReplay = false;
  try {
    while (state.shown < stepCount(state.view) && !state.skipReplay && replayMs() > 0) {
      const k = state.shown + 1;
      const side = stepSides(state.view)[k - 1];
      if (state.seat && side === state.seat) { state.shown = k; continue; }
      let frame = k === stepCount(state.view) ? state.view : state.frames.get(k);
      if (!frame) {
        try { frame = await api('GET', `/api/games/${gameId}?at=${k}`); } catch { break; }
      }
      state.frame = { view: frame, k };
      draw();
      await replayPause(replayPace());
      state.shown = k;
    }
  } finally {
    state.shown = stepCount(state.view);
    state.frame = null;
    state.replaying = false;
    state.skipReplay = false;
    for (const k of [...state.frames.keys()]) if (k < state.shown) state.frames.delete(k);
    draw();
    tryPremove();
  }
}

async function act(path, body) {
  if (state.busy) return;
  state.busy = true;
  state.confirmResign = false;
  draw();
  try {
    // Own steps shown by the local rules go first (an undo takes back the last of them).
    await local.chain;
    const v = await api('POST', `/api/games/${gameId}/${path}`, { token, ...body });
    state.error = '';
    accept(v);
  } catch (e) {
    state.error = e.message;
  } finally {
    state.busy = false;
    draw();
  }
}

// ---- the local rules (docs/wasm.md, "Live games"): the WebAssembly module in the page, fed
// the game's steps from its start, shows the position after a step of one's own at once (its
// units, legal steps with what each removes, why a unit may not move) while the step goes to
// the server, which judges and stores it as before; the server's view replaces the local one
// when its answers are in. No engine: only the rules. Without the module (not built, not
// loadable, a custom variant) the page works as it did, waiting for the server.
const local = {
  cohort: null, // the module (Cohort), once loaded
  start: null, // the game's start position (`?at=0`)
  game: null, // a CohortGame at the server's position, with `steps` its step texts
  steps: [],
  pending: 0, // own steps shown locally and not yet answered by the server
  held: null, // the newest server view that came while steps were pending
  chain: Promise.resolve(),
};

async function loadLocalRules(v) {
  if (v.custom || !window.WebAssembly) return;
  try {
    const [{ Cohort }, start] = await Promise.all([
      import('/wasm/cohort.js').then((m) => m),
      api('GET', `/api/games/${gameId}?at=0`),
    ]);
    const cohort = await Cohort.load('/wasm/cohort.wasm');
    local.start = start.position;
    local.cohort = cohort;
    document.documentElement.dataset.localRules = 'on';
  } catch (e) {
    document.documentElement.dataset.localRules = 'off';
    local.cohort = null;
  }
}

// The steps of the game as the view has them, in order (the turn in progress included).
function viewSteps(v) {
  return allTurns(v).flatMap((t) => t.steps);
}

// The local game at the view's position (made or brought up to date), or null.
function localGame(v) {
  if (!local.cohort || !local.start) return null;
  const steps = viewSteps(v);
  try {
    const same = local.game && local.steps.length <= steps.length && local.steps.every((s, i) => s === steps[i]);
    if (!same) {
      if (local.game) local.game.free();
      local.game = local.cohort.newGame(v.variant, local.start);
      local.steps = [];
    }
    for (const s of steps.slice(local.steps.length)) { local.game.make(s); local.steps.push(s); }
    if (local.game.position() !== v.position) throw new Error('the local position is not the server\'s');
    return local.game;
  } catch {
    if (local.game) local.game.free();
    local.game = null;
    local.steps = [];
    return null;
  }
}

// The view after `text`, made by the local rules from `v`, or null (no module, the step not
// legal here, anything amiss: the server's answer is awaited as before).
function localAfter(v, text) {
  const g = localGame(v);
  if (!g) return null;
  try {
    g.make(text);
    local.steps.push(text);
    const lv = g.view();
    const steps = g.legalSteps();
    const outcome = lv.outcome;
    const { variant, name, outcome: _o, files, ranks, ...board } = lv;
    const turnSteps = lv.to_move === v.to_move && !outcome ? (v.turn_steps || []).concat([text]) : [];
    const turns = v.turns.map((t) => t);
    if (!turnSteps.length) turns.push({ side: v.to_move, steps: (v.turn_steps || []).concat([text]), removed: [], moves: [] });
    return {
      ...v, ...board, steps, legal: [], can_end: steps.some((s) => s.kind === 'end'), turn_steps: turnSteps,
      can_undo: turnSteps.length > 0, end_preview: null, turn_removed: [], turn_moves: [], turns,
      result: outcome ? { text: outcome.text, winner: outcome.winner, result: outcome.result } : null,
      local: true,
    };
  } catch {
    localGame(v); // back to the server's position
    return null;
  }
}

// Post an own step while the local rules show it: the steps go one after another; the
// server's answers are held until the last is in (then its view replaces the local one).
function postLocal(body) {
  local.pending += 1;
  local.chain = local.chain.then(async () => {
    try {
      const v = await api('POST', `/api/games/${gameId}/step`, { token, ...body });
      if (!local.held || v.version >= local.held.version) local.held = v;
    } catch (e) {
      // Refused: the local steps after it go too; the server's position comes back.
      local.pending = 0;
      local.held = null;
      state.error = e.message;
      local.chain = Promise.resolve();
      refresh();
      return;
    }
    local.pending -= 1;
    if (local.pending === 0 && local.held) {
      const held = local.held;
      local.held = null;
      accept(held);
      draw();
    }
  });
}

// A step is posted as data: its index in the view's legal steps and the view's version
// (the server plays the listed step without reading text); text only for a step the view
// does not list (the server then says why it is refused). With the local rules, the view
// after it shows at once (see above).
function play(text) {
  clearSelection();
  const v = state.view;
  const listed = v && !v.local && v.steps.find((s) => s.text === text && Number.isInteger(s.index));
  const body = listed ? { index: listed.index, version: v.version } : { step: text };
  if (v && !state.busy && (local.pending || v.steps.some((s) => s.text === text))) {
    const after = localAfter(v, text);
    if (after) {
      state.error = '';
      state.view = after;
      postLocal(body);
      draw();
      return Promise.resolve();
    }
  }
  if (local.pending) return local.chain.then(() => play(text));
  return act('step', body);
}

function accept(v) {
  if (local.pending > 0) {
    // Own steps shown locally are on their way: the server's views wait for their answers.
    if (!local.held || v.version >= local.held.version) local.held = v;
    return;
  }
  if (!v.replay) state.frames.set(stepCount(v), v);
  if (state.view && v.version < state.view.version) return; // an older message
  const before = state.view;
  if (before && v.turns.length < before.turns.length) {
    // A takeback: the steps after it are gone, and with them what was looked back at.
    lookCache.clear();
    if (state.lookBack && state.lookBack.turn >= v.turns.length) state.lookBack = null;
  }
  if (v.seat) state.seat = v.seat;
  state.view = v;
  if (before && before.version !== v.version && state.diagram) state.diagram.refresh();
  if (!before || before.version !== v.version) {
    if (state.selected && !(v.movable.includes(state.selected) && myTurn())) state.selected = null;
    if (state.dropLetter && !(state.seat && v.pocket[state.seat].includes(state.dropLetter))) state.dropLetter = null;
    state.choice = null;
    if (state.leadChoice && !(myTurn() && leadSteps().some((s) => s.from === state.leadChoice))) state.leadChoice = null;
  }
  if (before && before.version !== v.version) CohortAlerts.viewed(before, v, state.seat, v.name);
  scheduleReplay();
  if (v.rematch && state.seat) joinRematch(v);
  if (v.result) state.premove = null;
  // After the caller's draw: the turn may have come for a premove.
  setTimeout(tryPremove, 0);
  if (myTurn() && !state.selected && !state.dropLetter && state.seat) {
    // Placement: nothing on the board may move, only drops: pick the first pocket letter.
    const pocket = v.pocket[state.seat];
    const now = unitSteps(v);
    if (pocket.length && now.length && now.every((s) => s.kind === 'drop')) {
      state.dropLetter = pocket.find((l) => dropTargets(l).size) || null;
    }
  }
}

// The rematch is made: go to this seat's place in it. The shared view names only the new
// game; the seat's new token comes with the answer of the request that made it, or else
// for this seat's token (`rematch/seat`), so no watcher ever sees it.
async function joinRematch(v) {
  if (state.joiningRematch) return;
  state.joiningRematch = true;
  try {
    const seat = v.rematch_seat || await api('POST', `/api/games/${gameId}/rematch/seat`, { token });
    location.assign(seat.link);
  } catch (e) {
    state.joiningRematch = false;
    state.error = e.message;
    draw();
  }
}

async function refresh() {
  try {
    accept(await api('GET', `/api/games/${gameId}${token ? `?token=${encodeURIComponent(token)}` : ''}`));
    draw();
  } catch { /* the WebSocket brings the next view */ }
}

function connect() {
  const proto = location.protocol === 'https:' ? 'wss' : 'ws';
  let ws;
  try { ws = new WebSocket(`${proto}://${location.host}/api/games/${gameId}/ws`); } catch { setTimeout(connect, 2000); return; }
  let opened = false;
  ws.onopen = () => {
    opened = true;
    const wasDown = !state.connected;
    state.connected = true;
    if (wasDown && state.view) refresh();
  };
  ws.onmessage = (m) => {
    let v;
    try { v = JSON.parse(m.data); } catch { return; }
    if (v && typeof v.version === 'number') { accept(v); draw(); }
  };
  ws.onclose = () => {
    state.connected = false;
    if (state.view) draw();
    setTimeout(connect, opened ? 500 : 2000);
  };
}

// ---- looking back: a finished turn of the live game on the board, read only, while the game
// goes on underneath (its views still arrive and are accepted; the board stays on the turn).

const lookCache = new Map(); // step index -> the view after that many steps (`?at=`)

// The step at which finished turn `i` ends (the steps of the turns up to it, `end` included).
function turnEnd(v, i) {
  return v.turns.slice(0, i + 1).reduce((n, t) => n + t.steps.length, 0);
}

// Show the board after finished turn `i`; the banner shows at once, the board when its view
// is there (from the cache, or asked for).
async function lookBackTo(i) {
  const v = state.view;
  if (!v || i < 0 || i >= v.turns.length) return;
  const at = turnEnd(v, i);
  if (!state.lookBack) {
    clearSelection();
    state.lookBack = { steps: stepCount(v), mine: myTurn(), shown: null };
  }
  Object.assign(state.lookBack, { turn: i, at });
  let view = lookCache.get(at);
  if (!view) {
    draw();
    try {
      view = await api('GET', `/api/games/${gameId}?at=${at}`);
    } catch (e) {
      if (state.lookBack && state.lookBack.at === at) { state.lookBack = null; state.error = e.message; draw(); }
      return;
    }
    lookCache.set(at, view);
  }
  if (!state.lookBack || state.lookBack.at !== at) return; // gone back, or on to another turn
  state.lookBack.shown = { at, turn: i, view };
  draw();
}

// Back to the live game: its board as it is now.
function lookBackEnd() {
  if (!state.lookBack) return;
  state.lookBack = null;
  draw();
}

// The arrow keys while looking back: the turn before, the turn after (after the last finished
// turn: back to the game).
function lookBackStep(d) {
  const lb = state.lookBack;
  if (!lb) return;
  const i = lb.turn + d;
  if (i >= state.view.turns.length) lookBackEnd();
  else if (i >= 0) lookBackTo(i);
}
