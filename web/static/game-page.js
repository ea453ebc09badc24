// The game page: the board and the panel put together (draw), and the page's start.
'use strict';

// The banner over the board while looking back at a finished turn: which turn, whether the
// game has moved on since, the turns before and after, and the way back.
function lookBackBanner(v) {
  const lb = state.lookBack;
  const numbers = turnNumbers(v.turns);
  const t = v.turns[lb.turn];
  const moved = stepCount(v) - lb.steps;
  const news = [];
  if (moved > 0) news.push(`The game has moved on: ${moved} new step${moved === 1 ? '' : 's'}`);
  if (v.result) news.push(`the game is over (${v.result.text})`);
  else if (moved > 0 && myTurn() && !lb.mine) news.push('it is your turn');
  return h('div', { class: 'look-back', 'data-testid': 'look-back', role: 'status' },
    h('span', { class: 'look-back-what', 'data-testid': 'look-back-what' }, `Looking at turn ${numbers[lb.turn]}, ${cap(t.side)}`),
    news.length ? h('span', { class: 'look-back-moved', 'data-testid': 'look-back-moved' }, `${news.join('; ')}.`) : null,
    h('button', { 'data-testid': 'look-back-prev', title: 'The turn before (left arrow)', disabled: lb.turn === 0, onclick: () => lookBackStep(-1) }, '\u2039'),
    h('button', { 'data-testid': 'look-back-next', title: 'The turn after (right arrow)', onclick: () => lookBackStep(1) }, '\u203a'),
    h('button', { class: 'primary', 'data-testid': 'look-back-return', title: 'Back to the game (Escape)', onclick: () => lookBackEnd() }, 'Back to the game'),
    h('span', { class: 'look-back-hint' }, 'The board as it was after that turn, read only. \u2190 \u2192 step through the turns, Escape returns.'));
}

// The board of the game page: the position (or, while others' steps are replayed, the frame
// on show; while looking back, the turn looked at) with the selected unit's targets, the last
// steps and what they removed. `data-position` is the position drawn (`data-live-position`
// the game's while looking back); `data-version` and `data-to-move` are always the game's.
function boardBox(v, mine, flip) {
  let targets = new Map();
  if (mine && state.selected) targets = stepsFrom(state.selected);
  if (mine && state.dropLetter) targets = dropTargets(state.dropLetter);
  const size = v.files > 12 ? 44 : v.files > 8 ? 52 : 64;
  let svg;
  let boardAttrs = {};
  const looking = state.lookBack && state.lookBack.shown;
  if (looking) {
    // Looking back: the board after that turn, its steps marked, nothing to click.
    const lv = looking.view;
    const moves = lastTurnSteps(lv);
    svg = CohortBoard.render(lv, { size, flip, showCommand: state.showCommand, last: moves, arrows: arrowsOf(moves) });
    boardAttrs = { 'data-look-back': looking.turn + 1, 'data-look-back-at': looking.at, 'data-position': lv.position, 'data-live-position': v.position };
  } else if (state.frame) {
    // Replaying others' steps: the board after step k, its arrow and what it removed.
    const f = state.frame.view;
    const last = lastStepOf(f);
    svg = CohortBoard.render(f, {
      size, flip, showCommand: state.showCommand, arrows: last ? arrowsOf(last.turn) : [],
      removed: last ? last.removed : [], last: last && last.move ? [last.move] : [],
      removedKey: `${gameId}:frame:${f.position}:${state.frame.k}`,
    });
    boardAttrs = {
      'data-frame': state.frame.k, 'data-step': last ? last.text : '', 'data-frame-position': f.position,
      'data-frame-removed': last ? last.removed.map((r) => r.square).join(' ') : '',
    };
  } else {
    const last = lastStepOf(v);
    const preview = mine && v.end_preview ? v.end_preview.removed.map((r) => r.square) : [];
    svg = CohortBoard.render(v, {
      size, flip, selected: state.selected || (mine ? state.leadChoice : null), targets, onSquare, onDrag: mine ? onDrag : null, premove: state.premove, showCommand: state.showCommand,
      interactive: mine, last: lastTurnSteps(v), leads: mine ? leadSteps().map((s) => s.from) : [],
      arrows: last ? arrowsOf(last.turn) : [], removed: last ? last.removed : [], doomed: preview,
      removedKey: `${gameId}:${v.position}:${(v.turn_steps || []).length}:${v.turns.length}`,
    });
  }
  return h('div', {
    class: `board${mine ? ' mine' : ''}${state.lookBack ? ' looking-back' : ''}`, 'data-testid': 'board', 'data-version': v.version, 'data-to-move': v.to_move,
    'data-position': v.position, 'data-selected': state.selected || '', 'data-seat': state.seat || '',
    'data-result': v.result ? v.result.text : '', 'data-lead-choice': state.leadChoice || '',
    'data-replaying': state.replaying ? 'yes' : 'no', ...boardAttrs,
  }, state.lookBack ? lookBackBanner(v) : null, CohortBoard.frame(svg, { size, key: `${gameId} ${flip}` }));
}

// The game page: the board and the panel, redrawn from `state` after every change.
function draw() {
  const v = state.view;
  if (!v) return;
  // A unit in the player's hand stays there: the redraw waits for the drop (board.js).
  if (CohortBoard.whenNotDragging(draw)) return;
  // Looking back, the board takes no input: the turn goes on when the player is back.
  const mine = myTurn() && !state.lookBack;
  const flip = state.flip === null ? state.seat === 'black' : state.flip;
  document.title = `${myTurn() ? '(your move) ' : ''}${v.name}: Cohort`;
  const board = boardBox(v, mine, flip);
  const panel = h('div', { class: 'panel' });
  headBox(panel, v, mine);
  panel.append(turnBox(v, mine));
  panel.append(toolsBox(v, flip));
  for (const box of extraBoxes(v)) panel.append(box);
  if (state.tournament) panel.append(tournamentBox(state.tournament, v));
  const offers = offerBox(v);
  if (offers) panel.append(offers);
  panel.append(capturedBox(v));
  panel.append(legend(namesOf(v), v.units.map((u) => u.letter).concat(v.pocket.white)));
  panel.append(h('h2', {}, 'Moves ', h('span', { class: 'hint' }, v.turns.length ? '(click a turn to look back)' : '')));
  const lb = state.lookBack;
  const moves = moveList(allTurns(v), {
    names: namesOf(v), current: lb ? lb.turn : undefined, finished: v.turns.length,
    onTurn: (end, i) => { lookBackTo(i); showBoard(); },
  });
  panel.append(moves);

  const keepScroll = app.querySelector('.moves');
  const atBottom = !keepScroll || keepScroll.scrollTop + keepScroll.clientHeight >= keepScroll.scrollHeight - 4;
  app.replaceChildren(h('div', { class: 'game' }, board, panel));
  if (lb) {
    // Looking back: the list stays where it was, the turn looked at in sight.
    moves.scrollTop = keepScroll ? keepScroll.scrollTop : 0;
    const cur = moves.querySelector('.turn-cell.current');
    if (cur) {
      const r = cur.getBoundingClientRect(), box = moves.getBoundingClientRect();
      if (r.top < box.top) moves.scrollTop -= box.top - r.top;
      else if (r.bottom > box.bottom) moves.scrollTop += r.bottom - box.bottom;
    }
  } else if (atBottom) moves.scrollTop = moves.scrollHeight;
}

// A tournament's game: where it belongs, and the way back to the tournament's page (the next
// pairing is there once the game is over).
function tournamentBox(t, v) {
  const what = t.kind === 'swiss' ? `Swiss, round ${t.round}` : 'Arena';
  return h('div', { class: 'tournament-note', 'data-testid': 'game-tournament' },
    'Tournament: ', h('a', { href: `/tournament/${encodeURIComponent(t.id)}` }, t.name), ` (${what})`,
    v.result && state.seat ? h('p', {}, h('a', { class: 'button primary', 'data-testid': 'back-to-tournament', href: `/tournament/${encodeURIComponent(t.id)}` }, 'Back to the tournament')) : null);
}

// After a click in the move list: the board in sight (on a phone it is above the list, out of
// the screen).
function showBoard() {
  const b = app.querySelector('[data-testid=board]');
  if (!b) return;
  const r = b.getBoundingClientRect();
  if (r.bottom < 40 || r.top > window.innerHeight - 40) b.scrollIntoView({ block: 'start' });
}

// The game's chat, below the game (outside #app, which every draw replaces): a player's page
// shows the players' channel (its seat's token writes there); anyone else's the spectators'
// channel (logged-in accounts write there). The players' channel is the players' alone.
// A player facing the AI has no one to talk to: no panel (the page says which it chose in
// `data-chat` of its body: players, spectators or none).
async function chatPanel(v) {
  const seated = Boolean(state.seat && token);
  if (seated && v.players[other(state.seat)] !== 'human') {
    document.body.dataset.chat = 'none';
    return;
  }
  const box = h('div', { class: 'chat-box' });
  app.after(box);
  const user = await window.CohortAccount.ready();
  const channel = seated ? 'players' : 'spectators';
  document.body.dataset.chat = channel;
  const base = `/api/games/${gameId}/chat/${channel}`;
  window.CohortChat.mount(box, {
    title: seated ? 'Chat with your opponent' : 'Spectators\' chat',
    url: base,
    ws: `${base}/ws`,
    query: seated ? `?token=${encodeURIComponent(token)}` : '',
    body: seated ? { token } : {},
    hint: user ? 'You play in this game: talk with your opponent on your seat\'s page.' : 'Log in to write here.',
  }, user);
}

async function gamePage() {
  app.append(h('p', { class: 'hint' }, 'Loading the game...'));
  try {
    const v = await api('GET', `/api/games/${gameId}${token ? `?token=${encodeURIComponent(token)}` : ''}`);
    state.creator = Boolean(v.creator);
    if (token && !v.seat && !v.creator) state.error = 'This link holds no seat in this game: you are watching.';
    accept(v);
    // A seat in a live game: the rules in the page (docs/wasm.md, "Live games").
    if (v.seat && !v.result) loadLocalRules(v);
    // A built-in variant's rules (the reconstructed note); a custom variant has none there.
    if (!v.custom) api('GET', `/api/variants/${encodeURIComponent(v.variant)}`).then((info) => { state.variantInfo = info; draw(); }).catch(() => {});
    api('GET', `/api/games/${gameId}/tournament`).then((t) => { if (t.tournament) { state.tournament = t.tournament; draw(); } }).catch(() => {});
    draw();
    connect();
    chatPanel(v);
  } catch (e) {
    app.replaceChildren(h('p', { class: 'error', 'data-testid': 'error' }, e.message),
      h('p', {}, h('a', { href: '/' }, 'All games')));
  }
  document.addEventListener('keydown', (e) => {
    const typing = e.target && /^(INPUT|TEXTAREA|SELECT)$/.test(e.target.tagName);
    if (state.lookBack && !typing && !e.altKey && !e.ctrlKey && !e.metaKey) {
      if (e.key === 'Escape') { e.preventDefault(); lookBackEnd(); return; }
      if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') { e.preventDefault(); lookBackStep(e.key === 'ArrowLeft' ? -1 : 1); return; }
    }
    if (e.key === 'Escape' && (state.selected || state.dropLetter || state.choice || state.leadChoice)) { clearSelection(); draw(); }
  });
}
