// Cohort's pages: the home page (variants, new games, recent games), the game page (play,
// live updates over the WebSocket) and the replay (`/game/<id>?replay`). The API is
// docs/server.md. Plain browser JavaScript, no framework, no build step.
'use strict';

const app = document.getElementById('app');
const page = document.body.dataset.page;
const gameId = document.body.dataset.game;
const params = new URLSearchParams(location.search);
const token = params.get('token') || '';

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

async function api(method, path, body) {
  let r;
  try {
    r = await fetch(path, {
      method,
      headers: body ? { 'content-type': 'application/json' } : {},
      body: body ? JSON.stringify(body) : undefined,
    });
  } catch (e) {
    throw new Error('The server cannot be reached; check your connection.');
  }
  let data = null;
  try { data = await r.json(); } catch { data = null; }
  if (!r.ok) {
    const err = new Error(data && data.error ? data.error : `The server answered ${r.status}.`);
    err.status = r.status;
    throw err;
  }
  return data;
}

const cap = (s) => (s ? s.charAt(0).toUpperCase() + s.slice(1) : '');
const other = (side) => (side === 'white' ? 'black' : 'white');
const savedGame = (id) => {
  try { return JSON.parse(localStorage.getItem(`cohort-game-${id}`)); } catch { return null; }
};

// Piece names by letter: the server's (`pieces` of a GameView), else the board's table.
function namesOf(v) {
  return v && v.pieces && Object.keys(v.pieces).length ? v.pieces : CohortBoard.pieceNames(v && v.variant);
}

function legend(names, letters) {
  const present = new Set(letters.map((l) => l.toUpperCase()));
  const shown = Object.keys(names).filter((l) => present.has(l));
  if (!shown.length) return null;
  return h('p', { class: 'legend' }, shown.map((l) => h('span', {}, h('b', {}, l), ` ${names[l]}`)));
}

// ---------------------------------------------------------------- home page

async function home() {
  document.title = 'Cohort';
  app.append(h('section', { class: 'intro' },
    h('h1', {}, 'Cohort'),
    h('p', {}, 'Chess variants whose turns are made of several unit moves under command rules: ',
      'Chesimals, Chieftain Chess, Lifeform Chess, and FIDE chess. Every rule is enforced and the ',
      'AI plays every game. Pick a game, then an opponent.')));
  const grid = h('section', { class: 'variants' });
  app.append(grid);
  app.append(CohortCustom.panel()); // custom.js: a variant file of one's own
  let variants;
  try {
    variants = await api('GET', '/api/variants');
  } catch (e) {
    grid.append(h('p', { class: 'error', 'data-testid': 'error' }, e.message));
    return;
  }
  for (const v of variants) grid.append(variantCard(v));
  app.append(h('section', { class: 'open-record' }, h('h2', {}, 'Game records'),
    h('p', {}, 'Replay a game record step by step, or continue it against the AI: ',
      h('a', { href: '/record', class: 'button', 'data-testid': 'open-record-link' }, 'Open a record'))));
  const recent = h('section', { class: 'recent' }, h('h2', {}, 'Recent games'));
  app.append(recent);
  try {
    const games = await api('GET', '/api/games');
    if (!games.length) recent.append(h('p', { class: 'hint' }, 'No games yet.'));
    else recent.append(recentList(games, variants));
  } catch (e) {
    recent.append(h('p', { class: 'error' }, e.message));
  }
}

function variantCard(v) {
  const diagram = h('div', { class: 'diagram', 'data-testid': `diagram-${v.id}` },
    CohortBoard.render({ ...v.start, variant: v.id, files: v.files, ranks: v.ranks },
      { size: v.files > 8 ? 16 : 24, small: true }));
  const id = v.id;
  const opponent = h('select', { 'data-testid': `opponent-${id}`, name: 'opponent' },
    h('option', { value: 'ai' }, 'the AI'), h('option', { value: 'human' }, 'another person'),
    h('option', { value: 'watch' }, 'nobody: watch AI against AI'));
  const strength = h('select', { 'data-testid': `strength-${id}`, name: 'strength' },
    h('option', { value: 'engine' }, 'engine (strong)'), h('option', { value: 'greedy' }, 'greedy (weak)'),
    h('option', { value: 'random' }, 'random (weakest)'));
  const time = h('select', { 'data-testid': `time-${id}`, name: 'time' },
    h('option', { value: '200' }, '200 ms'), h('option', { value: '1000', selected: true }, '1 s'),
    h('option', { value: '3000' }, '3 s'));
  const side = h('select', { 'data-testid': `side-${id}`, name: 'side' },
    h('option', { value: 'white' }, 'White'), h('option', { value: 'black' }, 'Black'));
  const aiOnly = h('span', { class: 'ai-only' },
    h('label', {}, 'Strength ', strength), h('label', {}, 'Time per turn ', time));
  opponent.onchange = () => { aiOnly.hidden = opponent.value === 'human'; };
  const err = h('p', { class: 'error', 'data-testid': `error-${id}` });
  const start = h('button', { type: 'submit', class: 'primary', 'data-testid': `start-${id}` }, 'New game');
  const form = h('form', { class: 'new-game', 'data-testid': `new-game-${id}` },
    h('label', {}, 'Play against ', opponent), aiOnly, h('label', {}, 'as ', side), start, err);
  form.onsubmit = async (ev) => {
    ev.preventDefault();
    const me = side.value;
    const human = opponent.value === 'human';
    const watch = opponent.value === 'watch';
    const body = watch ? { variant: id, white: 'ai', black: 'ai' }
      : { variant: id, [me]: 'human', [other(me)]: human ? 'human' : 'ai' };
    if (!human) body.ai = { agent: strength.value, time_ms: Number(time.value) };
    start.disabled = true;
    try {
      const created = await api('POST', '/api/games', body);
      if (watch) {
        // The creator token is the key that may stop the game: kept in the page address.
        try { localStorage.setItem(`cohort-game-${created.id}`, JSON.stringify({ ...created, creator: null })); } catch { /* private mode */ }
        location.href = `/game/${created.id}?token=${created.creator_token}`;
        return;
      }
      try { localStorage.setItem(`cohort-game-${created.id}`, JSON.stringify({ ...created, creator: me })); } catch { /* private mode */ }
      location.href = created.links[me];
    } catch (e) {
      err.textContent = e.message;
      start.disabled = false;
    }
  };
  return h('article', { class: 'variant', id: `variant-${id}`, 'data-testid': `variant-${id}` },
    h('h2', {}, v.name, h('span', { class: 'vid' }, id)),
    diagram,
    h('p', { class: 'summary' }, v.summary),
    legend(namesOf({ ...v.start, variant: id }), (v.start.units || []).map((u) => u.letter).concat(v.start.pocket ? v.start.pocket.white : [])),
    v.reconstructed ? h('p', { class: 'reconstructed', 'data-testid': `reconstructed-${id}` },
      'Setup reconstructed: ', v.reconstructed.replace(/^setup:\s*/i, '').replace(/\s*\(RULES\.md[^)]*\)/, ''), '. ',
      h('a', { href: `/rules/${id}`, 'data-testid': `reconstructed-link-${id}` }, 'Rules and setup')) : null,
    h('p', { class: 'hint' }, h('a', { href: `/rules/${id}`, 'data-testid': `rules-${id}` }, `Rules of ${v.name}`)),
    piecesDetails({ variant: id }, id),
    form);
}

// "Pieces and moves": the piece diagrams of custom.js, loaded when first opened.
function piecesDetails(source, key) {
  let made = null;
  const d = h('details', { 'data-testid': `pieces-${key}` }, h('summary', { 'data-testid': `pieces-open-${key}` }, 'Pieces and moves'));
  d.ontoggle = () => {
    if (d.open && !made) { made = CohortDiagram.create(source); d.append(made.el); }
  };
  return d;
}

function recentList(games) {
  const list = h('ul', { 'data-testid': 'recent-games' });
  for (const g of games) {
    const mine = savedGame(g.id);
    const seatLink = mine && mine.creator && mine.links && mine.links[mine.creator];
    list.append(h('li', { 'data-game': g.id },
      h('span', { class: 'rg-name' }, g.name), ' ',
      h('span', { class: 'rg-players' }, `${g.players.white} vs ${g.players.black}`), ' ',
      h('span', { class: 'rg-state' }, g.result ? g.result.text : `${g.turns} turn${g.turns === 1 ? '' : 's'}, ${cap(g.to_move)} to move`), ' ',
      seatLink && !g.result ? h('a', { href: seatLink, class: 'button small' }, 'continue') : null, ' ',
      h('a', { href: `/game/${g.id}`, class: 'button small', 'data-testid': `watch-${g.id}` }, 'watch'), ' ',
      h('a', { href: `/game/${g.id}?replay`, class: 'button small', 'data-testid': `replay-${g.id}` }, 'replay')));
  }
  return list;
}

// ---------------------------------------------------------------- game page

const state = {
  view: null,
  seat: null,
  selected: null,
  dropLetter: null,
  showCommand: false,
  flip: null, // null: as the seat says
  error: '',
  choice: null, // several legal steps between the same squares (promotion, pin or capture)
  leadChoice: null, // lead model: the leader whose modes are offered (`lead:b2:ortho`, `lead:b2:dia`)
  busy: false,
  confirmResign: false,
  connected: false,
  creator: false, // holds the creator token of an AI-against-AI game (may stop it)
  variantInfo: null, // GET /api/variants/<id>: the reconstructed note
  shown: null, // steps shown on the board so far (the replay of others' steps catches up)
  frames: new Map(), // step count -> a view after that many steps (from the WebSocket)
  frame: null, // the frame on the board while others' steps are replayed
  replaying: false,
  diagram: null, // the pieces panel (custom.js), made when first shown
  showPieces: false,
  variantFile: null, // custom variants: the file, shown on request
};

// Milliseconds each replayed step of the opponent stays on the board.
const REPLAY_MS = 550;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

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

async function runReplay() {
  state.replaying = true;
  try {
    while (state.shown < stepCount(state.view)) {
      const k = state.shown + 1;
      const side = stepSides(state.view)[k - 1];
      if (state.seat && side === state.seat) { state.shown = k; continue; }
      let frame = k === stepCount(state.view) ? state.view : state.frames.get(k);
      if (!frame) {
        try { frame = await api('GET', `/api/games/${gameId}?at=${k}`); } catch { break; }
      }
      state.frame = { view: frame, k };
      draw();
      await sleep(REPLAY_MS);
      state.shown = k;
    }
  } finally {
    state.shown = stepCount(state.view);
    state.frame = null;
    state.replaying = false;
    for (const k of [...state.frames.keys()]) if (k < state.shown) state.frames.delete(k);
    draw();
  }
}

// The legal steps as data (`steps` of the GameView, docs/server.md): kind, squares, what each
// removes. Lead model (chesimal-fusion-1): a turn starts with a lead step (kind `lead`)
// naming its leader and mode, `from` and `to` both the leader's square.
const isLead = (s) => s.kind === 'lead';
const leadMode = (s) => s.lead_mode || '';
function leadSteps() {
  return state.view ? state.view.steps.filter(isLead) : [];
}

// The unit steps now (every legal step but `end`).
const unitSteps = (v) => v.steps.filter((s) => s.kind !== 'end');

function stepsFrom(from) {
  const m = new Map();
  for (const s of state.view.steps) {
    if (s.from !== null && s.from === from && !isLead(s)) {
      if (!m.has(s.to)) m.set(s.to, []);
      m.get(s.to).push(s);
    }
  }
  return m;
}

// Drops name the piece by its upper-case letter for both sides (`drop: "K"`); pockets list
// Black's units in lower case.
function dropTargets(letter) {
  const m = new Map();
  for (const s of state.view.steps) {
    if (s.kind === 'drop' && s.drop.toUpperCase() === letter.toUpperCase()) {
      if (!m.has(s.to)) m.set(s.to, []);
      m.get(s.to).push(s);
    }
  }
  return m;
}

function clearSelection() {
  state.selected = null;
  state.dropLetter = null;
  state.choice = null;
  state.leadChoice = null;
}

async function act(path, body) {
  if (state.busy) return;
  state.busy = true;
  state.confirmResign = false;
  draw();
  try {
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

function play(text) {
  clearSelection();
  return act('step', { step: text });
}

function onSquare(sq) {
  const v = state.view;
  if (!v) return;
  if (!state.seat) { state.error = 'You are watching: only the players can move.'; return draw(); }
  if (!myTurn()) {
    state.error = v.result ? 'The game is over.'
      : v.ai_thinking ? 'The AI is thinking; wait for its move.'
        : `It is ${cap(v.to_move)}'s turn, not yours.`;
    clearSelection();
    return draw();
  }
  if (state.busy) return;
  state.error = '';
  state.choice = null;
  // A leader that may lead the turn: one way to lead (a King) plays it at once, several
  // (a Prince's modes) are offered as a choice.
  const leads = leadSteps().filter((s) => s.from === sq);
  if (leads.length === 1) return play(leads[0].text);
  if (leads.length > 1) {
    state.leadChoice = state.leadChoice === sq ? null : sq;
    state.selected = null;
    return draw();
  }
  state.leadChoice = null;
  if (state.dropLetter) {
    const t = dropTargets(state.dropLetter).get(sq);
    if (t && t.length === 1) return play(t[0].text);
    if (t && t.length > 1) { state.choice = t; return draw(); }
  }
  if (state.selected) {
    const t = stepsFrom(state.selected).get(sq);
    if (t && t.length === 1) return play(t[0].text);
    if (t && t.length > 1) { state.choice = t; return draw(); }
  }
  const unit = v.units.find((u) => u.square === sq);
  if (state.selected !== sq && unit && v.movable.includes(sq) && stepsFrom(sq).size) {
    state.selected = sq;
    state.dropLetter = null;
  } else if (state.selected === sq) {
    state.selected = null;
  } else if (unit && unit.side === state.seat && state.selected === null) {
    const name = namesOf(v)[unit.letter.toUpperCase()] || unit.letter;
    state.error = leadSteps().length
      ? `First choose the leader who leads this turn (ringed in gold); it then activates the ${name} on ${sq} or not.`
      : `The ${name} on ${sq} may not move now.`;
  } else {
    state.selected = null;
  }
  draw();
}

function accept(v) {
  if (!v.replay) state.frames.set(stepCount(v), v);
  if (state.view && v.version < state.view.version) return; // an older message
  const before = state.view;
  if (v.seat) state.seat = v.seat;
  state.view = v;
  if (before && before.version !== v.version && state.diagram) state.diagram.refresh();
  if (!before || before.version !== v.version) {
    if (state.selected && !(v.movable.includes(state.selected) && myTurn())) state.selected = null;
    if (state.dropLetter && !(state.seat && v.pocket[state.seat].includes(state.dropLetter))) state.dropLetter = null;
    state.choice = null;
    if (state.leadChoice && !(myTurn() && leadSteps().some((s) => s.from === state.leadChoice))) state.leadChoice = null;
  }
  scheduleReplay();
  if (myTurn() && !state.selected && !state.dropLetter && state.seat) {
    // Placement: nothing on the board may move, only drops: pick the first pocket letter.
    const pocket = v.pocket[state.seat];
    const now = unitSteps(v);
    if (pocket.length && now.length && now.every((s) => s.kind === 'drop')) {
      state.dropLetter = pocket.find((l) => dropTargets(l).size) || null;
    }
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

// Steps over the whole game: completed turns and the turn in progress.
const stepCount = (v) => v.turns.reduce((n, t) => n + t.steps.length, 0) + (v.turn_steps || []).length;

// The game's turns with their removals and their steps as data (`moves`), the turn in
// progress last (if it has a step).
function allTurns(v) {
  return v.turns.concat(v.turn_steps && v.turn_steps.length
    ? [{ side: v.to_move, steps: v.turn_steps, removed: v.turn_removed || [], moves: v.turn_moves || [] }] : []);
}

// The last step of a view: its text and data, the side that played it, the units it removed,
// and the steps of its turn so far (as data).
function lastStepOf(v) {
  const turns = allTurns(v);
  const t = turns[turns.length - 1];
  if (!t || !t.steps.length) return null;
  const i = t.steps.length - 1;
  const moves = t.moves || [];
  return { text: t.steps[i], move: moves[i] || null, side: t.side, removed: (t.removed && t.removed[i]) || [], turn: moves };
}

// Arrows for steps as data (lead steps, drops and `end` have none: no `from`, or `from` = `to`).
function arrowsOf(moves) {
  const out = [];
  moves.forEach((m, i) => {
    if (m && m.from && m.to) out.push({ from: m.from, to: m.to, current: i === moves.length - 1 });
  });
  return out;
}

// What a step removed that its text does not show (a capture on its destination square is
// shown by its `x`): captures elsewhere (en passant, Ultima captures) and the removals at a
// turn's end (Lifeform's regulations).
function extraRemovals(move, removed) {
  if (!removed || !removed.length) return [];
  if (move && move.kind !== 'end' && move.to && removed.length === 1 && removed[0].square === move.to) return [];
  return removed;
}

function describeUnit(names, r) {
  return `${cap(r.side)} ${names[r.letter.toUpperCase()] || r.letter} (${r.letter}) on ${r.square}`;
}

function turnCell(t, names) {
  const parts = [];
  t.steps.forEach((text, i) => {
    const extra = extraRemovals(t.moves && t.moves[i], t.removed && t.removed[i]);
    if (text !== 'end' || extra.length) parts.push(h('span', { class: 'step' }, text), ' ');
    if (extra.length) {
      const why = text === 'end' ? 'removed at the end of the turn' : `removed by ${text}`;
      parts.push(h('span', {
        class: 'removal', 'data-testid': 'removal', 'data-squares': extra.map((r) => r.square).join(' '),
        title: `${why}: ${extra.map((r) => describeUnit(names, r)).join(', ')}`,
      }, `{${extra.map((r) => `\u2212${r.letter}${r.square}`).join(' ')}}`), ' ');
    }
  });
  return parts.length ? parts : ['(no move)'];
}

// The move list, one line per full turn: `1. <White's turn> <Black's turn>`.
function moveList(turns, opts = {}) {
  const list = h('ol', { class: 'moves', 'data-testid': 'move-list' });
  const names = opts.names || {};
  let at = 0;
  let row = null;
  let num = 0;
  turns.forEach((t, i) => {
    at += t.steps.length;
    const end = at;
    if (!row || t.side === 'white') {
      num += 1;
      row = h('li', { 'data-move': num }, h('span', { class: 'num' }, `${num}.`));
      if (t.side === 'black') row.append(h('span', { class: 'turn-cell white empty' }, '\u2026'));
      list.append(row);
    }
    const cell = h('span', {
      class: `turn-cell ${t.side}${opts.current === i ? ' current' : ''}`, 'data-turn': i + 1, 'data-side': t.side,
      title: `${cap(t.side)}'s turn ${num}`,
    }, turnCell(t, names));
    if (opts.onTurn) { cell.classList.add('clickable'); cell.onclick = () => opts.onTurn(end); }
    row.append(cell);
    if (t.side === 'black') row = null;
  });
  return list;
}

function capturedBox(v) {
  const names = namesOf(v);
  const line = (side) => h('div', { class: 'captured', 'data-testid': `captured-${side}` },
    h('span', { class: `side-dot ${side}` }), `${cap(side)} lost: `,
    v.captured[side].length
      ? v.captured[side].map((l) => h('span', { class: `cap-unit ${side}`, title: names[l.toUpperCase()] || l }, l))
      : h('span', { class: 'hint' }, 'nothing'));
  return h('div', { class: 'captures' }, line('white'), line('black'));
}

function inviteBox(v) {
  if (!state.seat || v.result) return null;
  const them = other(state.seat);
  if (v.players[them] !== 'human') return null;
  const created = savedGame(gameId);
  if (!created || !created.links || !created.links[them]) return null;
  const url = `${location.origin}${created.links[them]}`;
  const started = v.turns.some((t) => t.side === them);
  const input = h('input', { readonly: true, value: url, 'data-testid': 'invite-link', onclick: (e) => e.target.select() });
  const copy = h('button', { type: 'button', 'data-testid': 'copy-invite', onclick: async () => {
    input.select();
    try { await navigator.clipboard.writeText(url); copy.textContent = 'Copied'; } catch { document.execCommand('copy'); copy.textContent = 'Copied'; }
  } }, 'Copy');
  return h('div', { class: `invite${started ? ' quiet' : ''}`, 'data-testid': 'invite' },
    h('p', {}, h('b', {}, `Invite your opponent (${cap(them)}):`), ' send them this link. It is the key to their seat; ',
      'anyone else who opens the game only watches.'),
    h('div', { class: 'invite-row' }, input, copy),
    h('p', { class: 'watch' }, 'Spectators: ', h('a', { href: `/game/${gameId}` }, `${location.origin}/game/${gameId}`)));
}

function statusText(v) {
  if (v.result) {
    let text = v.result.text;
    if (state.seat && v.result.winner) text += v.result.winner === state.seat ? ': you win' : ': you lose';
    return text;
  }
  const who = cap(v.to_move);
  if (v.ai_thinking) return `${who} to move: the AI is thinking...`;
  if (state.seat === v.to_move) return v.at_turn_start === false ? `Your turn (${who}): go on or end the turn` : `Your turn (${who})`;
  if (state.seat) return `${who} to move: waiting for your opponent`;
  return `${who} to move`;
}

function hint(v, mine) {
  if (!state.seat) return 'You are watching this game.';
  if (!mine) return '';
  if (state.dropLetter) return `Click a highlighted square to place ${state.dropLetter}.`;
  if (state.selected) return `Click a highlighted square to move the unit on ${state.selected}, or another unit.`;
  const leads = leadSteps();
  if (leads.length) {
    if (state.leadChoice) return `Choose how the leader on ${state.leadChoice} leads the turn, or click another leader.`;
    const n = new Set(leads.map((s) => s.from)).size;
    return `Start the turn by choosing its leader: click one of the ${n} leader${n === 1 ? '' : 's'} ringed in gold.`;
  }
  if (!unitSteps(v).length) return v.can_end ? 'No unit may move any more: end the turn.' : '';
  const n = v.movable.filter((sq) => v.units.some((u) => u.square === sq)).length;
  if (!n) return 'Pick a unit to place from your pocket.';
  return `${n} unit${n === 1 ? '' : 's'} may move now (ringed). Click one, then a destination.` +
    (v.can_end ? ' Or end the turn.' : '');
}

// ---- lead model: the mode choice and the panel of the leader leading the turn

// What a lead step allows, from the rules' command view (`command_info.lead_options`).
function leadOption(v, text) {
  return ((v.command_info && v.command_info.lead_options) || []).find((o) => o.step === text) || null;
}

// "9 activations with itself; activates King, Prince, Elephant, Pawn; Pawns move as a Ferz".
function describeLead(v, o) {
  const names = namesOf(v);
  const others = o.others_left < o.budget ? `, at most ${o.others_left} for other units` : '';
  const kinds = o.activates.map((k) => names[k] || k).join(', ');
  const remap = o.remap.map((r) => `${names[r.letter] || r.letter}s move as ${BETZA[r.moves] || `Betza ${r.moves}`}`);
  return [`${o.budget} activations with itself${others}`, `activates ${kinds}`].concat(remap).join('; ');
}

function leadChoiceBox(v) {
  const sq = state.leadChoice;
  const steps = leadSteps().filter((s) => s.from === sq);
  if (!steps.length) return null;
  const unit = v.units.find((u) => u.square === sq);
  const name = unit ? (namesOf(v)[unit.letter.toUpperCase()] || unit.letter) : 'leader';
  // One button per legal lead step of this leader: the modes come from `steps`.
  return h('div', { class: 'lead-choice', 'data-testid': 'lead-choice' },
    h('p', {}, h('b', {}, `Lead with the ${name} on ${sq}:`), ' choose its mode.'),
    steps.map((s) => {
      const mode = leadMode(s);
      const option = leadOption(v, s.text);
      const info = option ? describeLead(v, option) : null;
      return h('div', { class: 'lead-mode' },
        h('button', { class: 'primary', 'data-testid': `lead-mode-${mode}`, disabled: state.busy, onclick: () => play(s.text) }, cap(mode)),
        h('span', { class: 'lead-mode-info', 'data-testid': `lead-mode-info-${mode}` },
          info ? `${cap(mode)}: ${info}.` : `Plays ${s.text}.`));
    }),
    h('button', { 'data-testid': 'lead-cancel', onclick: () => { state.leadChoice = null; draw(); } }, 'Cancel'));
}

// How a remapped kind moves (`remap` gives Betza atoms): named for the common one-step atoms.
const BETZA = { F: 'a Ferz (one step diagonally)', W: 'a Wazir (one step orthogonally)', K: 'a Guard (one step any way)' };

function leadPanel(v) {
  const l = v.command_info && v.command_info.leading;
  if (!l || v.result) return null;
  const names = namesOf(v);
  const unit = v.units.find((u) => u.square === l.square);
  const letter = unit ? unit.letter.toUpperCase() : '';
  const name = names[letter] || letter || 'Leader';
  const left = l.budget - l.used;
  return h('div', { class: 'lead-panel', 'data-testid': 'lead-panel', 'data-leading': l.square, 'data-mode': l.mode },
    h('p', { class: 'lead-title' }, h('span', { class: 'lead-badge' }, '\u2605'),
      h('b', { 'data-testid': 'lead-summary' }, `${name}${l.mode ? ` (${l.mode})` : ''}: ${l.used} of ${l.budget} used, ${left} left`),
      h('span', { class: 'hint' }, ` leading from ${l.square}`,
        l.others_left < left ? `; at most ${l.others_left} more for other units` : '')),
    h('p', { class: 'lead-kinds', 'data-testid': 'lead-kinds' }, 'May activate: ',
      l.activates.map((k) => names[k] || k).join(', '), '.'),
    l.remap.length ? h('p', { class: 'lead-kinds', 'data-testid': 'lead-remap' },
      l.remap.map((r) => `${names[r.letter] || r.letter}s move as ${BETZA[r.moves] || `Betza ${r.moves}`}`).join('; '), '.') : null);
}

// The last completed turn as data (the opponent's reply, usually); the turn in progress shows
// its moved units itself.
function lastTurnSteps(v) {
  const t = v.turns[v.turns.length - 1];
  return t ? t.moves || [] : [];
}

// Before the turn ends: what ending it now would remove (Lifeform's regulations), and the
// result it would bring.
function endPreview(v, mine) {
  const p = v.end_preview;
  if (!mine || !p || (!p.removed.length && !p.result)) return null;
  const names = namesOf(v);
  return h('div', { class: 'preview', 'data-testid': 'end-preview', 'data-squares': p.removed.map((r) => r.square).join(' ') },
    p.removed.length ? h('p', {}, h('b', {}, 'If you end the turn now, the rules remove: '),
      p.removed.map((r) => describeUnit(names, r)).join(', '), ' (crossed on the board).') : null,
    p.result ? h('p', {}, h('b', {}, 'Ending now: '), p.result, '.') : null);
}

function draw() {
  const v = state.view;
  if (!v) return;
  const mine = myTurn();
  const flip = state.flip === null ? state.seat === 'black' : state.flip;
  document.title = `${mine ? '(your move) ' : ''}${v.name}: Cohort`;
  let targets = new Map();
  if (mine && state.selected) targets = stepsFrom(state.selected);
  if (mine && state.dropLetter) targets = dropTargets(state.dropLetter);
  const size = v.files > 12 ? 44 : v.files > 8 ? 52 : 64;
  let svg;
  let boardAttrs = {};
  if (state.frame) {
    // Replaying others' steps: the board after step k, its arrow and what it removed.
    const f = state.frame.view;
    const last = lastStepOf(f);
    svg = CohortBoard.render(f, {
      size, flip, showCommand: state.showCommand, arrows: last ? arrowsOf(last.turn) : [],
      removed: last ? last.removed : [], last: last && last.move ? [last.move] : [],
    });
    boardAttrs = {
      'data-frame': state.frame.k, 'data-step': last ? last.text : '', 'data-frame-position': f.position,
      'data-frame-removed': last ? last.removed.map((r) => r.square).join(' ') : '',
    };
  } else {
    const last = lastStepOf(v);
    const preview = mine && v.end_preview ? v.end_preview.removed.map((r) => r.square) : [];
    svg = CohortBoard.render(v, {
      size, flip, selected: state.selected || (mine ? state.leadChoice : null), targets, onSquare, showCommand: state.showCommand,
      interactive: mine, last: lastTurnSteps(v), leads: mine ? leadSteps().map((s) => s.from) : [],
      arrows: last ? arrowsOf(last.turn) : [], removed: last ? last.removed : [], doomed: preview,
    });
  }
  const board = h('div', {
    class: `board${mine ? ' mine' : ''}`, 'data-testid': 'board', 'data-version': v.version, 'data-to-move': v.to_move,
    'data-position': v.position, 'data-selected': state.selected || '', 'data-seat': state.seat || '',
    'data-result': v.result ? v.result.text : '', 'data-lead-choice': state.leadChoice || '',
    'data-replaying': state.replaying ? 'yes' : 'no', ...boardAttrs,
  }, svg);

  const panel = h('div', { class: 'panel' });
  panel.append(h('h1', {}, v.name, ' ', h('a', { class: 'vid', href: '/' }, v.variant),
    v.custom ? h('span', { class: 'badge', 'data-testid': 'custom-badge' }, 'custom variant') : null));
  panel.append(h('p', {
    class: `status${v.result ? ' over' : ''}${mine ? ' mine' : ''}`, 'data-testid': 'status', role: 'status',
  }, statusText(v)));
  if (v.ai_thinking) panel.append(h('p', { class: 'thinking', 'data-testid': 'ai-thinking' }, h('span', { class: 'spinner' }), 'AI is thinking'));
  if (state.frame) {
    const last = lastStepOf(state.frame.view);
    panel.append(h('p', { class: 'replaying', 'data-testid': 'replaying' },
      `${cap(last ? last.side : '')}'s step ${last ? last.turn.length : ''}: ${last ? last.text : ''}`,
      last && last.removed.length ? ` (removes ${last.removed.map((r) => `${r.letter} ${r.square}`).join(', ')})` : ''));
  }
  if (!state.connected) panel.append(h('p', { class: 'connection', 'data-testid': 'connection' }, 'Live updates interrupted: reconnecting...'));
  panel.append(h('p', { class: 'players', 'data-testid': 'players' },
    h('span', { class: 'side-dot white' }), `White: ${v.players.white}`,
    h('span', { class: 'side-dot black' }), `Black: ${v.players.black}`,
    h('span', { class: 'seat' }, state.seat ? ` (you play ${cap(state.seat)})` : ' (you are watching)')));
  // Clocks, accounts and the rating change (clock.js).
  if (window.CohortClock) panel.append(CohortClock.box(v, state.seat) || '');
  const invite = inviteBox(v);
  if (invite) panel.append(invite);
  panel.append(h('p', { class: `error${state.error ? '' : ' empty'}`, 'data-testid': 'error', role: 'alert' }, state.error));

  // The turn in progress.
  const turn = h('div', { class: 'turn' },
    h('h2', {}, v.result ? 'Game over' : `${cap(v.to_move)}'s turn`),
    h('p', { class: 'turn-steps', 'data-testid': 'turn-steps' },
      v.turn_steps.length ? v.turn_steps.join(' ') : h('span', { class: 'hint' }, 'no step yet')),
    leadPanel(v),
    endPreview(v, mine),
    h('p', { class: 'hint', 'data-testid': 'hint' }, hint(v, mine)));
  if (mine && state.leadChoice) turn.append(leadChoiceBox(v));
  if (state.seat && !v.result) {
    turn.append(h('div', { class: 'buttons' },
      h('button', { 'data-testid': 'undo', disabled: !(mine && v.can_undo) || state.busy, onclick: () => { clearSelection(); act('undo', {}); } }, 'Undo step'),
      h('button', { 'data-testid': 'end-turn', class: 'primary', disabled: !(mine && v.can_end) || state.busy, onclick: () => play('end') }, 'End turn')));
  }
  if (state.choice) {
    const names = namesOf(v);
    const label = (s) => {
      if (s.kind === 'promote') return `${names[s.promote.toUpperCase()] || s.promote} (${s.text})`;
      if (s.kind === 'pin') return `Pin (${s.text})`;
      if (s.removes.length) return `Capture (${s.text})`;
      return s.text;
    };
    turn.append(h('div', { class: 'choice', 'data-testid': 'choice' }, 'Choose: ',
      state.choice.map((s) => h('button', { onclick: () => play(s.text), 'data-testid': `choice-${s.text}` }, label(s))),
      h('button', { onclick: () => { state.choice = null; draw(); } }, 'Cancel')));
  }
  for (const side of ['white', 'black']) {
    const pocket = v.pocket[side];
    if (!pocket.length) continue;
    const usable = mine && side === state.seat;
    const counts = [...new Set(pocket)].map((l) => [l, pocket.filter((x) => x === l).length]);
    turn.append(h('div', { class: 'pocket', 'data-testid': `pocket-${side}` }, `${cap(side)} to place: `,
      counts.map(([l, n]) => h('button', {
        class: `pocket-unit ${side}${state.dropLetter === l && usable ? ' on' : ''}`, disabled: !usable,
        'data-testid': `pocket-${l}`, title: namesOf(v)[l.toUpperCase()] || l,
        onclick: () => { state.dropLetter = l; state.selected = null; state.choice = null; draw(); },
      }, l, n > 1 ? h('small', {}, `\u00d7${n}`) : null))));
  }
  panel.append(turn);

  const tools = h('div', { class: 'buttons tools' },
    v.command !== 'single' && v.command !== 'body' ? h('button', {
      'data-testid': 'show-command', class: state.showCommand ? 'on' : '', 'aria-pressed': String(state.showCommand),
      onclick: () => { state.showCommand = !state.showCommand; draw(); },
    }, state.showCommand ? 'Hide command' : 'Show command') : null,
    h('button', { 'data-testid': 'flip', onclick: () => { state.flip = !flip; draw(); } }, 'Flip board'),
    h('button', {
      'data-testid': 'letters-toggle', 'aria-pressed': String(CohortBoard.lettersOn()),
      title: 'Show the pieces as pictures or as letters (kept for next time)',
      onclick: () => { CohortBoard.setLetters(!CohortBoard.lettersOn()); draw(); },
    }, CohortBoard.lettersOn() ? 'Pictures' : 'Letters'),
    h('a', { href: `/rules/${v.variant}`, class: 'button', 'data-testid': 'rules-link' }, 'Rules'),
    h('button', {
      'data-testid': 'show-pieces', class: state.showPieces ? 'on' : '', 'aria-pressed': String(state.showPieces),
      onclick: () => { state.showPieces = !state.showPieces; draw(); },
    }, 'Pieces and moves'),
    h('a', { href: `/game/${gameId}?replay`, class: 'button', 'data-testid': 'replay-link' }, 'Replay'),
    h('a', { href: `/api/games/${gameId}/record`, class: 'button', download: '', 'data-testid': 'download-record' }, 'Download record'));
  panel.append(tools);
  if (state.creator && !v.result) {
    panel.append(h('div', { class: 'buttons' },
      h('button', { 'data-testid': 'stop-game', class: 'danger', disabled: state.busy, onclick: () => act('stop', {}) }, 'Stop this game'),
      h('span', { class: 'hint' }, 'You started this AI-against-AI game: stopping it ends it as a draw.')));
  }
  if (state.showPieces) {
    if (!state.diagram) state.diagram = CohortDiagram.create({ game: gameId }, { board: 'board' });
    panel.append(state.diagram.el);
  }
  if (v.custom) {
    // A custom variant: its file, as stored with the game (from the record).
    if (!state.variantFile) {
      const pre = h('pre', { class: 'variant-file', 'data-testid': 'variant-file' });
      state.variantFile = h('details', {}, h('summary', { 'data-testid': 'variant-file-open' }, 'Variant file'), pre);
      state.variantFile.ontoggle = async () => {
        if (!state.variantFile.open || pre.textContent) return;
        try { pre.textContent = (await api('GET', `/api/games/${gameId}/record?format=json`)).variant_file; } catch (e) { pre.textContent = e.message; }
      };
    }
    panel.append(state.variantFile);
  }
  const info = state.variantInfo;
  if (info && info.reconstructed) {
    panel.append(h('p', { class: 'reconstructed', 'data-testid': 'reconstructed' }, 'Setup reconstructed: ',
      info.reconstructed.replace(/^setup:\s*/i, '').replace(/\s*\(RULES\.md[^)]*\)/, ''), '. ',
      h('a', { href: `/rules/${v.variant}`, 'data-testid': 'reconstructed-link' }, 'Rules and setup')));
  }
  if (state.showCommand) {
    panel.append(h('p', { class: 'hint' }, v.command === 'range'
      ? `Boxes: the squares within ${v.command_info.range} of each Chieftain of the side to move (dashed rings).`
      : v.command === 'lead'
        ? 'Lines: the links of adjacent friendly units that connect units to the leaders (dashed rings).'
        : 'Lines: the links of adjacent units that connect each chesimal to its leader (dashed rings).'));
  }

  if (state.seat && !v.result) {
    const them = other(state.seat);
    const row = [];
    if (v.draw_offer === them) {
      row.push(h('span', { class: 'offer', 'data-testid': 'draw-offered' }, `${cap(them)} offers a draw.`),
        h('button', { 'data-testid': 'accept-draw', onclick: () => act('draw', { action: 'accept' }) }, 'Accept draw'),
        h('button', { 'data-testid': 'decline-draw', onclick: () => act('draw', { action: 'decline' }) }, 'Decline'));
    } else if (v.draw_offer === state.seat) {
      row.push(h('span', { class: 'offer', 'data-testid': 'draw-offered' }, 'You offered a draw.'));
    } else if (v.players[them] === 'human') {
      row.push(h('button', { 'data-testid': 'offer-draw', onclick: () => act('draw', { action: 'offer' }) }, 'Offer draw'));
    }
    if (state.confirmResign) {
      row.push(h('span', { class: 'offer' }, 'Resign this game?'),
        h('button', { 'data-testid': 'confirm-resign', class: 'danger', onclick: () => act('resign', {}) }, 'Yes, resign'),
        h('button', { 'data-testid': 'cancel-resign', onclick: () => { state.confirmResign = false; draw(); } }, 'No'));
    } else {
      row.push(h('button', { 'data-testid': 'resign', class: 'danger', onclick: () => { state.confirmResign = true; draw(); } }, 'Resign'));
    }
    panel.append(h('div', { class: 'buttons' }, row));
  }
  panel.append(capturedBox(v));
  panel.append(legend(namesOf(v), v.units.map((u) => u.letter).concat(v.pocket.white)));
  panel.append(h('h2', {}, 'Moves'));
  const moves = moveList(allTurns(v), { names: namesOf(v) });
  panel.append(moves);

  const keepScroll = app.querySelector('.moves');
  const atBottom = !keepScroll || keepScroll.scrollTop + keepScroll.clientHeight >= keepScroll.scrollHeight - 4;
  app.replaceChildren(h('div', { class: 'game' }, board, panel));
  if (atBottom) moves.scrollTop = moves.scrollHeight;
}

async function gamePage() {
  app.append(h('p', { class: 'hint' }, 'Loading the game...'));
  try {
    const v = await api('GET', `/api/games/${gameId}${token ? `?token=${encodeURIComponent(token)}` : ''}`);
    state.creator = Boolean(v.creator);
    if (token && !v.seat && !v.creator) state.error = 'This link holds no seat in this game: you are watching.';
    accept(v);
    // A built-in variant's rules (the reconstructed note); a custom variant has none there.
    if (!v.custom) api('GET', `/api/variants/${encodeURIComponent(v.variant)}`).then((info) => { state.variantInfo = info; draw(); }).catch(() => {});
    draw();
    connect();
  } catch (e) {
    app.replaceChildren(h('p', { class: 'error', 'data-testid': 'error' }, e.message),
      h('p', {}, h('a', { href: '/' }, 'All games')));
  }
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && (state.selected || state.dropLetter || state.choice || state.leadChoice)) { clearSelection(); draw(); }
  });
}

// ---------------------------------------------------------------- replay

async function replayPage() {
  let record, live;
  try {
    [record, live] = await Promise.all([api('GET', `/api/games/${gameId}/record?format=json`), api('GET', `/api/games/${gameId}`)]);
  } catch (e) {
    app.replaceChildren(h('p', { class: 'error', 'data-testid': 'error' }, e.message));
    return;
  }
  document.title = `Replay: ${live.name}: Cohort`;
  const total = record.steps.length;
  // Turns with their sides, the turn in progress last; each ends at a step index.
  const turns = allTurns(live);
  const ends = [];
  turns.reduce((n, t) => { ends.push(n + t.steps.length); return n + t.steps.length; }, 0);
  const cache = new Map();
  let at = total;
  let showCommand = false;
  let shown = -1;
  const show = async () => {
    const want = at;
    let v = cache.get(want);
    if (!v) {
      try { v = await api('GET', `/api/games/${gameId}?at=${want}`); } catch (e) {
        app.replaceChildren(h('p', { class: 'error', 'data-testid': 'error' }, e.message));
        return;
      }
      cache.set(want, v);
    }
    if (want !== at) return; // a newer request is on its way
    shown = want;
    const current = ends.findIndex((e) => e >= want && want > 0);
    const go = (n) => () => { at = Math.max(0, Math.min(total, n)); show(); };
    const board = h('div', { class: 'board', 'data-testid': 'board', 'data-version': want, 'data-position': v.position, 'data-to-move': v.to_move },
      CohortBoard.render(v, (() => {
        const last = lastStepOf(v);
        return {
          size: v.files > 12 ? 44 : v.files > 8 ? 52 : 64, showCommand, last: last && last.move ? [last.move] : [],
          arrows: last ? arrowsOf(last.turn) : [], removed: last ? last.removed : [],
        };
      })()));
    const slider = h('input', { type: 'range', min: 0, max: total, value: String(want), 'data-testid': 'replay-slider',
      'aria-label': 'Step', oninput: (e) => { at = Number(e.target.value); show(); } });
    const result = record.result === '*' ? 'not finished' : `${record.result} (${record.reason})`;
    const panel = h('div', { class: 'panel' },
      h('h1', {}, `Replay: ${v.name} `, h('a', { class: 'vid', href: `/game/${gameId}` }, gameId)),
      h('p', { class: 'players' }, h('span', { class: 'side-dot white' }), `White: ${record.white}`,
        h('span', { class: 'side-dot black' }), `Black: ${record.black}`),
      h('p', { class: `status${record.result !== '*' ? ' over' : ''}`, 'data-testid': 'result' }, `Result: ${result}`),
      h('p', { class: 'status', 'data-testid': 'status' },
        want === 0 ? 'Start position' : `Step ${want} of ${total}: ${v.replay.step}`,
        current >= 0 ? ` (turn ${current + 1}, ${cap(turns[current].side)})` : '',
        v.result ? `; ${v.result.text}` : `; ${cap(v.to_move)} to move`),
      h('div', { class: 'buttons' },
        h('button', { onclick: go(0), 'data-testid': 'replay-first', title: 'Start' }, '\u00ab Start'),
        h('button', { onclick: go(want - 1), 'data-testid': 'replay-prev', title: 'Step back (left arrow)' }, '\u2039 Back'),
        h('button', { onclick: go(want + 1), 'data-testid': 'replay-next', title: 'Step forward (right arrow)' }, 'Next \u203a'),
        h('button', { onclick: go(total), 'data-testid': 'replay-last', title: 'End' }, 'End \u00bb'),
        v.command !== 'single' && v.command !== 'body' ? h('button', { class: showCommand ? 'on' : '', 'data-testid': 'show-command',
          onclick: () => { showCommand = !showCommand; show(); } }, showCommand ? 'Hide command' : 'Show command') : null),
      slider,
      h('p', { class: 'buttons' }, h('a', { href: `/game/${gameId}`, class: 'button' }, 'Back to the game'),
        h('a', { href: `/api/games/${gameId}/record`, download: '', class: 'button', 'data-testid': 'download-record' }, 'Download record')),
      capturedBox(v),
      h('h2', {}, 'Moves (click a turn)'),
      moveList(turns, { current: current, names: namesOf(v), onTurn: (end) => { at = end; show(); } }));
    app.replaceChildren(h('div', { class: 'game' }, board, panel));
    const cur = app.querySelector('.moves li.current');
    if (cur) cur.scrollIntoView({ block: 'nearest' });
  };
  await show();
  document.addEventListener('keydown', (e) => {
    if (e.target && e.target.tagName === 'INPUT') return;
    if (e.key === 'ArrowRight' && shown < total) { at = shown + 1; show(); }
    if (e.key === 'ArrowLeft' && shown > 0) { at = shown - 1; show(); }
  });
}

// ---------------------------------------------------------------- rules page

async function rulesPage() {
  const id = decodeURIComponent(location.pathname.replace(/^\/rules\//, ''));
  let r;
  try {
    r = await api('GET', `/api/variants/${encodeURIComponent(id)}`);
  } catch (e) {
    app.replaceChildren(h('p', { class: 'error', 'data-testid': 'error' }, e.message), h('p', {}, h('a', { href: '/' }, 'All games')));
    return;
  }
  document.title = `Rules of ${r.name}: Cohort`;
  const art = (p, side) => {
    const markup = CohortPieces.markup(p.name, side);
    if (!markup || CohortBoard.lettersOn()) return h('b', {}, side === 'white' ? p.letter : p.letter.toLowerCase());
    const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    svg.setAttribute('viewBox', '0 0 45 45');
    svg.setAttribute('class', 'piece-art');
    svg.setAttribute('data-piece', p.name.toLowerCase());
    svg.innerHTML = markup;
    return svg;
  };
  const draw = () => {
    const rows = r.pieces.map((p) => h('tr', { 'data-testid': `piece-${p.letter}` },
      h('td', { class: 'art' }, art(p, 'white')), h('td', { class: 'art' }, art(p, 'black')),
      h('td', {}, h('b', {}, p.letter)), h('td', {}, p.name,
        p.flags.length ? h('span', { class: 'hint' }, ` (${p.flags.join(', ')})`) : null,
        p.role ? h('span', { class: 'hint' }, ` (${p.role})`) : null),
      h('td', {}, h('code', {}, p.moves)), h('td', { 'data-testid': `words-${p.letter}` }, p.words,
        p.activates ? ` Activates: ${p.activates.join(', ')}.` : '')));
    const start = { ...r.start, variant: r.id };
    app.replaceChildren(h('article', { class: 'rules-page', 'data-testid': 'rules' },
      h('h1', {}, `Rules of ${r.name}`, h('span', { class: 'vid' }, r.id)),
      h('p', { class: 'summary', 'data-testid': 'rules-summary' }, r.summary),
      r.reconstructed ? h('p', { class: 'reconstructed', 'data-testid': 'rules-reconstructed' },
        'Setup reconstructed: ', r.reconstructed.replace(/^setup:\s*/i, '')) : h('p', { class: 'hint', 'data-testid': 'rules-sourced' }, 'The setup is the inventor\'s, not a reconstruction.'),
      h('h2', {}, 'Pieces'),
      h('table', { 'data-testid': 'rules-pieces' },
        h('thead', {}, h('tr', {}, h('th', {}, 'White'), h('th', {}, 'Black'), h('th', {}, 'Letter'), h('th', {}, 'Piece'), h('th', {}, 'Moves (Betza)'), h('th', {}, 'In words'))),
        h('tbody', {}, rows)),
      h('p', { class: 'hint' }, 'Capture is by moving onto an enemy unit, unless said otherwise. Betza notation: docs/variants.md of the project.'),
      h('h2', {}, 'A turn'),
      h('ul', { 'data-testid': 'rules-command' }, r.command_rules.map((t) => h('li', {}, t))),
      h('h2', {}, 'Winning'),
      h('p', { 'data-testid': 'rules-victory' }, r.victory),
      r.draws.length ? h('ul', {}, r.draws.map((t) => h('li', {}, t))) : null,
      r.groups.length ? h('h2', {}, 'Groups') : null,
      r.groups.length ? h('ul', {}, r.groups.map((g) => h('li', {}, `${g.number}: ${g.name} (White ${g.colours.white}, Black ${g.colours.black})`))) : null,
      h('h2', {}, 'Setup'),
      r.placement ? h('p', {}, `Free set-up: each side places ${r.placement.units.map((u) => `${u.count} ${u.name}`).join(', ')} on its first ${r.placement.ranks} ranks.`) : null,
      h('div', { class: 'setup', 'data-testid': 'rules-setup' }, CohortBoard.render(start, { size: r.files > 8 ? 40 : 52 })),
      h('p', {}, h('code', { 'data-testid': 'rules-position' }, r.setup)),
      h('div', { class: 'buttons' },
        h('button', { 'data-testid': 'letters-toggle', onclick: () => { CohortBoard.setLetters(!CohortBoard.lettersOn()); draw(); } },
          CohortBoard.lettersOn() ? 'Pictures' : 'Letters'),
        h('a', { href: `/#variant-${r.id}`, class: 'button' }, 'Play it'))));
  };
  draw();
}

if (page === 'home') home();
else if (page === 'rules') rulesPage();
else if (page === 'game' && params.has('replay')) replayPage();
else if (page === 'game') gamePage();
