// The move input of the game page: the legal steps by square (as data, `steps` of the view),
// clicks on the board, the choice between several steps, lead modes and the pockets.
'use strict';

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

// The steps a unit on `from` may start: those the rules list it among the origins of (its
// own moves; an Ataxx clone from any adjacent stone).
const startsFrom = (s, from) => (s.origins ? s.origins.includes(from) : s.from !== null && s.from === from);

function stepsFrom(from) {
  const m = new Map();
  for (const s of state.view.steps) {
    if (startsFrom(s, from) && !isLead(s)) {
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

// ---- premove: the first step of the next turn, chosen during the opponent's turn and
// played as soon as the turn comes if it is legal then (cleared with a message if not).

// A click while the opponent is to move: one's own unit, then its destination; a click on
// the premove's own unit again, or a new unit, starts over.
function premoveClick(sq) {
  const v = state.view;
  const unit = v.units.find((u) => u.square === sq);
  const mine = unit && unit.side === state.seat;
  const p = state.premove;
  if (p && !p.to && p.from === sq) state.premove = null;
  else if (p && !p.to && !mine) state.premove = { from: p.from, to: sq };
  else if (mine) state.premove = { from: sq, to: null };
  else state.premove = null;
  const q = state.premove;
  // A premove set is a confirmation, not an error.
  state.note = q && q.to ? `Premove ${q.from}-${q.to}: played when your turn comes if it is legal then (click ${q.from} to change it).` : '';
  state.error = q ? '' : `It is ${cap(v.to_move)}'s turn, not yours; click one of your units to premove your next step.`;
  draw();
}

// The turn has come: play the premove if exactly one legal step goes from its unit to its
// square (a promotion takes the first offered, the strongest).
function tryPremove() {
  const p = state.premove;
  if (!p || !p.to || !myTurn() || state.busy) return;
  const v = state.view;
  if ((v.turn_steps || []).length) { state.premove = null; state.note = ''; return; }
  state.premove = null;
  state.note = '';
  const t = stepsFrom(p.from).get(p.to);
  if (t && t.length) { play(t[0].text); return; }
  state.error = `Premove ${p.from}-${p.to} is not legal now; cleared.`;
  draw();
}

// A unit dragged from one square to another (board.js): the same as clicking the two.
function onDrag(from, to) {
  if (state.selected !== from) {
    clearSelection();
    onSquare(from);
  }
  if (state.selected === from) onSquare(to);
}

function onSquare(sq) {
  const v = state.view;
  if (!v || state.lookBack) return; // looking back: the board is read only
  if (!state.seat) { state.error = 'You are watching: only the players can move.'; return draw(); }
  if (!myTurn()) {
    // The opponent's turn (or its replay): the click sets up a premove.
    if (!v.result && (v.to_move !== state.seat || state.replaying)) return premoveClick(sq);
    state.error = v.result ? 'The game is over.'
      : v.ai_thinking ? 'The AI is thinking; wait for its move.'
        : `It is ${cap(v.to_move)}'s turn, not yours.`;
    clearSelection();
    return draw();
  }
  if (state.busy) return;
  state.error = '';
  state.note = '';
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
      // Frozen before check: a frozen piece could not move even out of check (the rules'
      // why_not says so first too).
      : v.frozen && v.frozen.includes(sq)
        ? `The ${name} on ${sq} is frozen by an enemy Immobilizer next to it and may not move.`
        : (v.check || []).length
          ? `Your King is in check (${v.check.join(', ')})${v.checkers && v.checkers.length ? ` by ${CohortBoard.checkedBy(v)}` : ''}: the ${name} on ${sq} has no step that ends the check.`
          : v.why_not && v.why_not[sq]
            ? `The ${name} on ${sq} may not move now: ${v.why_not[sq]}.`
            : `The ${name} on ${sq} may not move now.`;
  } else {
    state.selected = null;
  }
  draw();
}

// The twin rows each of Chessma 84's boards runs through (docs/chessma.md).
const sheetRows = { A: "rows 1 and 8", B: "rows 1' and 8'" };

// Several legal steps between the same squares (a promotion, a pin or a capture, a push
// along either sheet): one button each.
function choiceBox(v) {
  const names = namesOf(v);
  const label = (s) => {
    if (s.kind === 'promote') return `${names[s.promote.toUpperCase()] || s.promote} (${s.text})`;
    if (s.kind === 'pin') return `Pin (${s.text})`;
    if (s.removes.length) return `Capture (${s.text})`;
    // Chessma 84's Pusher, where the push forks at the twin rows: which board it runs on.
    if (s.kind === 'push') return `Push along board ${s.sheet}${sheetRows[s.sheet] ? ` (${sheetRows[s.sheet]})` : ''}`;
    return s.text;
  };
  return h('div', { class: 'choice', 'data-testid': 'choice' }, 'Choose: ',
    state.choice.map((s) => h('button', { onclick: () => play(s.text), 'data-testid': `choice-${s.text}` }, label(s))),
    h('button', { onclick: () => { state.choice = null; draw(); } }, 'Cancel'));
}

// The pockets: units to place (drops); the player's own are buttons on their turn.
function pocketBoxes(v, mine) {
  const boxes = [];
  for (const side of ['white', 'black']) {
    const pocket = v.pocket[side];
    if (!pocket.length) continue;
    const usable = mine && side === state.seat;
    const counts = [...new Set(pocket)].map((l) => [l, pocket.filter((x) => x === l).length]);
    boxes.push(h('div', { class: 'pocket', 'data-testid': `pocket-${side}` }, `${cap(side)} to place: `,
      counts.map(([l, n]) => h('button', {
        class: `pocket-unit ${side}${state.dropLetter === l && usable ? ' on' : ''}`, disabled: !usable,
        'data-testid': `pocket-${l}`, title: namesOf(v)[l.toUpperCase()] || l,
        onclick: () => { state.dropLetter = l; state.selected = null; state.choice = null; draw(); },
      }, l, n > 1 ? h('small', {}, `\u00d7${n}`) : null))));
  }
  return boxes;
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
