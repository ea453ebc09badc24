// Cohort's pages: the home page (variants, new games, recent games), the game page (play,
// live updates over the WebSocket) and the replay. The API is docs/server.md.
'use strict';

const app = document.getElementById('app');
const page = document.body.dataset.page;
const gameId = document.body.dataset.game;

function h(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'onclick' || k === 'onchange' || k === 'onsubmit' || k === 'oninput') e[k] = v;
    else if (v !== null && v !== undefined && v !== false) e.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) {
    if (c !== null && c !== undefined) e.append(c instanceof Node ? c : String(c));
  }
  return e;
}

async function api(method, path, body) {
  const r = await fetch(path, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  let data = null;
  try { data = await r.json(); } catch { data = { error: `the server answered ${r.status}` }; }
  if (!r.ok) throw new Error(data && data.error ? data.error : `the server answered ${r.status}`);
  return data;
}

const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);

// ---------------------------------------------------------------- home page

const OPPONENTS = [
  ['engine:1000', 'AI: engine, 1 s a turn'],
  ['engine:200', 'AI: engine, 0.2 s a turn'],
  ['engine:3000', 'AI: engine, 3 s a turn'],
  ['greedy:200', 'AI: greedy (easy)'],
  ['random:200', 'AI: random (easiest)'],
  ['human', 'Another person (invitation link)'],
];

async function home() {
  app.append(h('section', { class: 'intro' },
    h('h1', {}, 'Cohort'),
    h('p', {}, 'Chess variants whose turns are made of many unit moves under command rules. ',
      'Every rule is enforced; the AI plays every game. Pick a game, then an opponent.')));
  const grid = h('section', { class: 'variants' });
  app.append(grid);
  let variants;
  try {
    variants = await api('GET', '/api/variants');
  } catch (e) {
    grid.append(h('p', { class: 'error', 'data-testid': 'error' }, e.message));
    return;
  }
  for (const v of variants) {
    const boardBox = h('div', { class: 'diagram' });
    boardBox.append(CohortBoard.render(v.start, { size: v.files > 8 ? 14 : 20, small: true }));
    const opponent = h('select', { 'data-testid': `opponent-${v.id}`, name: 'opponent' },
      OPPONENTS.map(([value, label]) => h('option', { value }, label)));
    const side = h('select', { 'data-testid': `side-${v.id}`, name: 'side' },
      h('option', { value: 'white' }, 'I play White'), h('option', { value: 'black' }, 'I play Black'));
    const err = h('p', { class: 'error' });
    const form = h('form', { class: 'new-game', 'data-testid': `new-game-${v.id}` }, opponent, side,
      h('button', { type: 'submit', 'data-testid': `start-${v.id}` }, 'New game'), err);
    form.onsubmit = async (ev) => {
      ev.preventDefault();
      const me = side.value, other = me === 'white' ? 'black' : 'white';
      const human = opponent.value === 'human';
      const body = { variant: v.id, [me]: 'human', [other]: human ? 'human' : 'ai' };
      if (!human) {
        const [agent, time] = opponent.value.split(':');
        body.ai = { agent, time_ms: Number(time) };
      }
      try {
        const created = await api('POST', '/api/games', body);
        localStorage.setItem(`cohort-game-${created.id}`, JSON.stringify(created));
        location.href = created.links[me];
      } catch (e) {
        err.textContent = e.message;
      }
    };
    grid.append(h('article', { class: 'variant', id: `variant-${v.id}` },
      h('h2', {}, v.name, h('span', { class: 'vid' }, v.id)),
      boardBox,
      h('p', { class: 'summary' }, v.summary),
      v.reconstructed ? h('p', { class: 'reconstructed' }, 'Reconstructed: ', v.reconstructed) : null,
      form));
  }
  const recent = h('section', { class: 'recent' }, h('h2', {}, 'Recent games'));
  app.append(recent);
  try {
    const games = await api('GET', '/api/games');
    if (!games.length) recent.append(h('p', {}, 'No games yet.'));
    const list = h('ul', { 'data-testid': 'recent-games' });
    for (const g of games) {
      list.append(h('li', {},
        h('a', { href: `/game/${g.id}` }, `${g.name}`), ` ${g.players.white} vs ${g.players.black}, `,
        g.result ? g.result.text : `${g.turns} turns, ${cap(g.to_move)} to move`, ' ',
        h('a', { href: `/game/${g.id}?replay`, class: 'replay-link' }, 'replay')));
    }
    recent.append(list);
  } catch (e) {
    recent.append(h('p', { class: 'error' }, e.message));
  }
}

// ---------------------------------------------------------------- game page

const params = new URLSearchParams(location.search);
const token = params.get('token') || '';

const state = {
  view: null,
  seat: null,
  selected: null,
  dropLetter: null,
  showCommand: false,
  error: '',
  choice: null, // several steps between the same squares (promotion): pick one
  busy: false,
};

function myTurn() {
  const v = state.view;
  return v && state.seat && !v.result && v.to_move === state.seat && !v.ai_thinking;
}

function stepsFrom(from) {
  const m = new Map();
  for (const s of state.view.legal) {
    if (s.from === from) {
      if (!m.has(s.to)) m.set(s.to, []);
      m.get(s.to).push(s);
    }
  }
  return m;
}

function dropTargets(letter) {
  const m = new Map();
  for (const s of state.view.legal) {
    if (s.from === null && s.text.startsWith(`${letter}@`)) m.set(s.to, [s]);
  }
  return m;
}

async function act(path, body) {
  if (state.busy) return;
  state.busy = true;
  try {
    const v = await api('POST', `/api/games/${gameId}/${path}`, { token, ...body });
    accept(v);
    state.error = '';
  } catch (e) {
    state.error = e.message;
  } finally {
    state.busy = false;
    draw();
  }
}

function play(text) {
  state.selected = null;
  state.dropLetter = null;
  state.choice = null;
  return act('step', { step: text });
}

function onSquare(sq) {
  const v = state.view;
  if (!v) return;
  if (!state.seat) { state.error = 'You are watching: only the players can move.'; return draw(); }
  if (!myTurn()) {
    state.error = v.result ? 'The game is over.' : `It is ${cap(v.to_move)}'s turn.`;
    return draw();
  }
  state.error = '';
  if (state.dropLetter) {
    const t = dropTargets(state.dropLetter).get(sq);
    if (t) return play(t[0].text);
    state.dropLetter = null;
  }
  if (state.selected) {
    const t = stepsFrom(state.selected).get(sq);
    if (t && t.length === 1) return play(t[0].text);
    if (t && t.length > 1) { state.choice = t; return draw(); }
  }
  if (state.selected !== sq && v.movable.includes(sq) && stepsFrom(sq).size) {
    state.selected = sq;
  } else {
    state.selected = null;
  }
  state.choice = null;
  draw();
}

function accept(v) {
  if (state.view && v.version < state.view.version) return; // an older message
  const before = state.view;
  if ('seat' in v && v.seat !== null) state.seat = v.seat;
  state.view = v;
  if (before && before.version !== v.version) {
    if (state.selected && !v.movable.includes(state.selected)) state.selected = null;
    state.choice = null;
  }
}

function connect() {
  const proto = location.protocol === 'https:' ? 'wss' : 'ws';
  const ws = new WebSocket(`${proto}://${location.host}/api/games/${gameId}/ws`);
  ws.onmessage = (m) => {
    try { accept(JSON.parse(m.data)); draw(); } catch { /* ignore a malformed message */ }
  };
  ws.onclose = () => setTimeout(connect, 1000);
}

function turnLines(v) {
  const ol = h('ol', { class: 'moves', 'data-testid': 'move-list' });
  v.turns.forEach((t) => {
    ol.append(h('li', { class: t.side }, h('span', { class: 'side-dot ' + t.side }),
      t.steps.filter((s) => s !== 'end').join(' ') || '(pass)'));
  });
  return ol;
}

function capturedLine(v, side) {
  const list = v.captured[side];
  return h('div', { class: 'captured', 'data-testid': `captured-${side}` },
    `${cap(side)} lost: `, list.length ? list.join(' ') : 'nothing');
}

function inviteBox(v) {
  if (!state.seat) return null;
  const other = state.seat === 'white' ? 'black' : 'white';
  if (v.players[other] !== 'human') return null;
  let created = null;
  try { created = JSON.parse(localStorage.getItem(`cohort-game-${gameId}`)); } catch { created = null; }
  if (!created || !created.links || !created.links[other]) return null;
  const url = `${location.origin}${created.links[other]}`;
  return h('div', { class: 'invite' },
    h('p', {}, `Invite your opponent (${cap(other)}): send this link. It is their seat's key; anyone else gets a spectator's view.`),
    h('input', { readonly: true, value: url, 'data-testid': 'invite-link', onclick: (e) => e.target.select() }),
    h('p', { class: 'watch' }, 'Spectators: ', h('a', { href: `/game/${gameId}` }, `${location.origin}/game/${gameId}`)));
}

function statusText(v) {
  if (v.result) return v.result.text;
  const who = cap(v.to_move);
  if (v.ai_thinking) return `${who} to move: the AI is thinking...`;
  if (state.seat === v.to_move) return v.at_turn_start ? `Your turn (${who})` : `Your turn (${who}) continues`;
  if (state.seat) return `${who} to move: waiting for your opponent`;
  return `${who} to move`;
}

function draw() {
  const v = state.view;
  if (!v) return;
  app.replaceChildren();
  const mine = myTurn();
  let targets = new Map();
  if (mine && state.selected) targets = stepsFrom(state.selected);
  if (mine && state.dropLetter) targets = dropTargets(state.dropLetter);
  const size = v.files > 8 ? 44 : 64;
  const svg = CohortBoard.render(v, {
    size, flip: state.seat === 'black', selected: state.selected, targets,
    onSquare, showCommand: state.showCommand, interactive: mine,
  });
  const board = h('div', {
    class: 'board', 'data-testid': 'board', 'data-version': v.version, 'data-to-move': v.to_move,
    'data-position': v.position, 'data-selected': state.selected || '',
  }, svg);

  const panel = h('div', { class: 'panel' });
  panel.append(h('h1', {}, v.name, ' ', h('a', { class: 'vid', href: '/' }, v.variant)));
  panel.append(h('p', { class: `status ${v.result ? 'over' : ''}`, 'data-testid': 'status' }, statusText(v)));
  panel.append(h('p', { class: 'players' },
    h('span', { class: 'side-dot white' }), `White: ${v.players.white}`, '  ',
    h('span', { class: 'side-dot black' }), `Black: ${v.players.black}`,
    state.seat ? h('span', { class: 'seat' }, ` (you play ${cap(state.seat)})`) : h('span', { class: 'seat' }, ' (watching)')));
  if (state.error) panel.append(h('p', { class: 'error', 'data-testid': 'error', role: 'alert' }, state.error));
  else panel.append(h('p', { class: 'error empty', 'data-testid': 'error' }));

  // The turn in progress.
  const turn = h('div', { class: 'turn' },
    h('h2', {}, 'This turn'),
    h('p', { class: 'turn-steps', 'data-testid': 'turn-steps' }, v.turn_steps.length ? v.turn_steps.join(' ') : 'no step yet'),
    h('p', { class: 'hint' }, mine
      ? (v.movable.length ? `${v.movable.length} units may move now (ringed). Click one, then a destination.` : 'No unit may move: end the turn.')
      : ''));
  if (state.seat) {
    turn.append(h('div', { class: 'buttons' },
      h('button', { 'data-testid': 'undo', disabled: !(mine && v.can_undo), onclick: () => act('undo', {}) }, 'Undo step'),
      h('button', { 'data-testid': 'end-turn', class: 'primary', disabled: !(mine && v.can_end), onclick: () => play('end') }, 'End turn')));
  }
  if (state.choice) {
    turn.append(h('div', { class: 'choice' }, 'Choose: ',
      state.choice.map((s) => h('button', { onclick: () => play(s.text), 'data-testid': `choice-${s.text}` }, s.text))));
  }
  const pocket = state.seat ? v.pocket[state.seat] : [];
  if (mine && pocket.length) {
    turn.append(h('div', { class: 'pocket', 'data-testid': 'pocket' }, 'To place: ',
      [...new Set(pocket)].map((l) => h('button', {
        class: state.dropLetter === l ? 'on' : '',
        onclick: () => { state.dropLetter = l; state.selected = null; draw(); },
      }, `${l} x${pocket.filter((x) => x === l).length}`))));
  }
  panel.append(turn);

  const tools = h('div', { class: 'buttons tools' },
    h('button', { 'data-testid': 'show-command', class: state.showCommand ? 'on' : '',
      onclick: () => { state.showCommand = !state.showCommand; draw(); } },
    v.command === 'range' ? 'Show Chieftain ranges' : v.command === 'chain' ? 'Show chains to leaders' : 'Show leaders'),
    h('a', { href: `/game/${gameId}?replay`, class: 'button' }, 'Replay'),
    h('a', { href: `/api/games/${gameId}/record`, class: 'button', download: '' }, 'Download record'));
  panel.append(tools);

  if (state.seat && !v.result) {
    const other = state.seat === 'white' ? 'black' : 'white';
    const draws = [];
    if (v.draw_offer === other) {
      draws.push(h('span', { class: 'offer' }, `${cap(other)} offers a draw. `),
        h('button', { 'data-testid': 'accept-draw', onclick: () => act('draw', { action: 'accept' }) }, 'Accept draw'),
        h('button', { 'data-testid': 'decline-draw', onclick: () => act('draw', { action: 'decline' }) }, 'Decline'));
    } else if (v.draw_offer === state.seat) {
      draws.push(h('span', { class: 'offer' }, 'You offered a draw.'));
    } else if (v.players[other] === 'human') {
      draws.push(h('button', { 'data-testid': 'offer-draw', onclick: () => act('draw', { action: 'offer' }) }, 'Offer draw'));
    }
    panel.append(h('div', { class: 'buttons' }, ...draws,
      h('button', { 'data-testid': 'resign', class: 'danger', onclick: () => {
        if (confirm('Resign this game?')) act('resign', {});
      } }, 'Resign')));
  }
  const invite = inviteBox(v);
  if (invite) panel.append(invite);
  panel.append(h('div', { class: 'captures' }, capturedLine(v, 'white'), capturedLine(v, 'black')));
  panel.append(h('h2', {}, 'Moves'), turnLines(v));
  app.append(h('div', { class: 'game' }, board, panel));
}

async function gamePage() {
  try {
    const v = await api('GET', `/api/games/${gameId}${token ? `?token=${encodeURIComponent(token)}` : ''}`);
    if (token && !v.seat) state.error = 'This link holds no seat in this game: you are watching.';
    accept(v);
    draw();
    connect();
  } catch (e) {
    app.replaceChildren(h('p', { class: 'error', 'data-testid': 'error' }, e.message));
  }
}

// ---------------------------------------------------------------- replay

async function replayPage() {
  let record;
  try {
    record = await api('GET', `/api/games/${gameId}/record`);
  } catch (e) {
    app.replaceChildren(h('p', { class: 'error', 'data-testid': 'error' }, e.message));
    return;
  }
  const total = record.steps.length;
  let at = total;
  const show = async () => {
    const v = await api('GET', `/api/games/${gameId}?at=${at}`);
    const board = h('div', { class: 'board', 'data-testid': 'board', 'data-version': at, 'data-position': v.position },
      CohortBoard.render(v, { size: v.files > 8 ? 44 : 64 }));
    const slider = h('input', { type: 'range', min: 0, max: total, value: at, 'data-testid': 'replay-slider',
      oninput: (e) => { at = Number(e.target.value); show(); } });
    const go = (n) => () => { at = Math.max(0, Math.min(total, n)); show(); };
    const panel = h('div', { class: 'panel' },
      h('h1', {}, `Replay: ${v.name}`),
      h('p', { class: 'players' }, `White: ${record.white}, Black: ${record.black}. Result: ${record.result} (${record.reason})`),
      h('p', { class: 'status', 'data-testid': 'status' },
        at === 0 ? 'Start position' : `Step ${at} of ${total}: ${v.replay.step}`, `, ${cap(v.to_move)} to move`),
      h('div', { class: 'buttons' },
        h('button', { onclick: go(0), 'data-testid': 'replay-first' }, '|<'),
        h('button', { onclick: go(at - 1), 'data-testid': 'replay-prev' }, '<'),
        h('button', { onclick: go(at + 1), 'data-testid': 'replay-next' }, '>'),
        h('button', { onclick: go(total), 'data-testid': 'replay-last' }, '>|')),
      slider,
      h('p', {}, h('a', { href: `/game/${gameId}` }, 'Back to the game'), ' ',
        h('a', { href: `/api/games/${gameId}/record`, download: '' }, 'Download record')),
      h('div', { class: 'captures' }, capturedLine(v, 'white'), capturedLine(v, 'black')),
      h('h2', {}, 'Moves'), turnLines({ turns: record.turns.map((steps, i) => ({ side: (i % 2 === 0) === (record.start.split(' ')[1] !== 'b') ? 'white' : 'black', steps })) }));
    app.replaceChildren(h('div', { class: 'game' }, board, panel));
  };
  await show();
  document.addEventListener('keydown', (e) => {
    if (e.key === 'ArrowRight' && at < total) { at++; show(); }
    if (e.key === 'ArrowLeft' && at > 0) { at--; show(); }
  });
}

if (page === 'home') home();
else if (page === 'game' && params.has('replay')) replayPage();
else if (page === 'game') gamePage();
