// The game page: the board and the panel put together (draw), and the page's start.
'use strict';

// The board of the game page: the position (or, while others' steps are replayed, the frame
// on show) with the selected unit's targets, the last steps and what they removed.
function boardBox(v, mine, flip) {
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
      size, flip, selected: state.selected || (mine ? state.leadChoice : null), targets, onSquare, onDrag: mine ? onDrag : null, premove: state.premove, showCommand: state.showCommand,
      interactive: mine, last: lastTurnSteps(v), leads: mine ? leadSteps().map((s) => s.from) : [],
      arrows: last ? arrowsOf(last.turn) : [], removed: last ? last.removed : [], doomed: preview,
    });
  }
  return h('div', {
    class: `board${mine ? ' mine' : ''}`, 'data-testid': 'board', 'data-version': v.version, 'data-to-move': v.to_move,
    'data-position': v.position, 'data-selected': state.selected || '', 'data-seat': state.seat || '',
    'data-result': v.result ? v.result.text : '', 'data-lead-choice': state.leadChoice || '',
    'data-replaying': state.replaying ? 'yes' : 'no', ...boardAttrs,
  }, svg);
}

// The game page: the board and the panel, redrawn from `state` after every change.
function draw() {
  const v = state.view;
  if (!v) return;
  const mine = myTurn();
  const flip = state.flip === null ? state.seat === 'black' : state.flip;
  document.title = `${mine ? '(your move) ' : ''}${v.name}: Cohort`;
  const board = boardBox(v, mine, flip);
  const panel = h('div', { class: 'panel' });
  headBox(panel, v, mine);
  panel.append(turnBox(v, mine));
  panel.append(toolsBox(v, flip));
  for (const box of extraBoxes(v)) panel.append(box);
  const offers = offerBox(v);
  if (offers) panel.append(offers);
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

// The game's chat, below the game (outside #app, which every draw replaces): a player's page
// shows the players' channel (its seat's token writes there); anyone else's the spectators'
// channel (logged-in accounts write there). The players' channel is the players' alone.
async function chatPanel(v) {
  const box = h('div', { class: 'chat-box' });
  app.after(box);
  const user = await window.CohortAccount.ready();
  const seated = Boolean(state.seat && token);
  const channel = seated ? 'players' : 'spectators';
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
    // A built-in variant's rules (the reconstructed note); a custom variant has none there.
    if (!v.custom) api('GET', `/api/variants/${encodeURIComponent(v.variant)}`).then((info) => { state.variantInfo = info; draw(); }).catch(() => {});
    draw();
    connect();
    chatPanel(v);
  } catch (e) {
    app.replaceChildren(h('p', { class: 'error', 'data-testid': 'error' }, e.message),
      h('p', {}, h('a', { href: '/' }, 'All games')));
  }
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && (state.selected || state.dropLetter || state.choice || state.leadChoice)) { clearSelection(); draw(); }
  });
}
