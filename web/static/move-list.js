// The turns of a game as the page shows them: all turns with their steps as data, the last
// step, its arrows, and the move list with the removals a step's text does not show.
'use strict';

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

// The full-turn number of each turn (White's turn and Black's reply share one, as in the
// move list): a game that starts with Black's turn starts at 1 too.
function turnNumbers(turns) {
  let num = 0;
  return turns.map((t, i) => (i === 0 || t.side === 'white' || turns[i - 1].side === 'black' ? ++num : num));
}

// The move list, one line per full turn: `1. <White's turn> <Black's turn>`. opts: names,
// current (the index of the turn marked), onTurn(end, i) for a click (or Enter) on turn i,
// which ends at step `end`; with `finished`, only the turns before it take clicks (a live
// game's turn in progress does not).
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
    if (opts.onTurn && (opts.finished === undefined || i < opts.finished)) {
      cell.classList.add('clickable');
      cell.tabIndex = 0;
      cell.setAttribute('role', 'button');
      cell.onclick = () => opts.onTurn(end, i);
      cell.onkeydown = (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); opts.onTurn(end, i); } };
    }
    row.append(cell);
    if (t.side === 'black') row = null;
  });
  return list;
}

// The last completed turn as data (the opponent's reply, usually); the turn in progress shows
// its moved units itself.
function lastTurnSteps(v) {
  const t = v.turns[v.turns.length - 1];
  return t ? t.moves || [] : [];
}
