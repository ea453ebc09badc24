// The side panels of the game page: status, captures, invitation, hints, the lead panel, the
// end preview, the turn box, the tools, the extras and the offers.
'use strict';

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
  // The opponent's steps are still being shown: the board is not yet the one to play on.
  if (state.replaying && state.seat === v.to_move) return `Your turn (${who}) after the replay of your opponent's steps`;
  // Check, and who gives it in the rules' words (`checkers`): "Check by the Rook on e8".
  const by = CohortBoard.checkedBy(v);
  const checkBy = by ? `. Check by ${by}` : '';
  const check = (v.check || []).length ? `: your King on ${v.check.join(', ')} is in check${checkBy}` : '';
  if (state.seat === v.to_move) return v.at_turn_start === false ? `Your turn (${who}): go on or end the turn` : `Your turn (${who})${check}`;
  if ((v.check || []).length) return `${who} to move, in check (${v.check.join(', ')})${checkBy}`;
  if (state.seat) return `${who} to move: waiting for your opponent`;
  return `${who} to move`;
}

function hint(v, mine) {
  if (!state.seat) return 'You are watching this game.';
  if (state.lookBack) return 'You are looking back at an earlier turn: go back to the game to play.';
  if (!mine) return '';
  if (state.dropLetter) return `Click a highlighted square to place ${state.dropLetter}.`;
  if (state.selected) return `Click a highlighted square to move the unit on ${state.selected}, or another unit.`;
  const leads = leadSteps();
  if (leads.length) {
    if (state.leadChoice) return `Choose how the leader on ${state.leadChoice} leads the turn, or click another leader.`;
    const n = new Set(leads.map((s) => s.from)).size;
    return `Start the turn by choosing its leader: click one of the ${n} leader${n === 1 ? '' : 's'} ringed in gold.`;
  }
  if (v.steps.some((s) => s.kind === 'pass')) return 'No move is possible: pass the turn.';
  if (!unitSteps(v).length) return v.can_end ? 'No unit may move any more: end the turn.' : '';
  const n = v.movable.filter((sq) => v.units.some((u) => u.square === sq)).length;
  if (!n) return 'Pick a unit to place from your pocket.';
  return `${n} unit${n === 1 ? '' : 's'} may move now (ringed). Click one, then a destination.` +
    (v.can_end ? ' Or end the turn.' : '');
}

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

// The top of the game page's panel: the title, the status, the replayed step, the players,
// the clocks, the invitation and the last error.
function headBox(panel, v, mine) {
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
      last && last.removed.length ? ` (removes ${last.removed.map((r) => `${r.letter} ${r.square}`).join(', ')})` : '',
      ' ', h('button', { 'data-testid': 'skip-replay', onclick: () => skipReplay() }, 'Skip')));
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
  if (state.note) panel.append(h('p', { class: 'note', 'data-testid': 'note', role: 'status' }, state.note));
  panel.append(h('p', { class: `error${state.error ? '' : ' empty'}`, 'data-testid': 'error', role: 'alert' }, state.error));
}

// The turn in progress: its steps, the lead panel, the end preview, the hint, the lead mode
// choice, undo and end, the step choice and the pockets.
function turnBox(v, mine) {
  // Over: the result, not an empty turn ("no step yet", no hint).
  if (v.result) {
    return h('div', { class: 'turn over', 'data-testid': 'game-over' },
      h('h2', {}, 'Game over'), h('p', {}, v.result.text));
  }
  const turn = h('div', { class: 'turn' },
    h('h2', {}, v.result ? 'Game over' : `${cap(v.to_move)}'s turn`),
    h('p', { class: 'turn-steps', 'data-testid': 'turn-steps' },
      v.turn_steps.length ? v.turn_steps.join(' ') : h('span', { class: 'hint' }, 'no step yet')),
    leadPanel(v),
    endPreview(v, mine),
    h('p', { class: 'hint', 'data-testid': 'hint' }, hint(v, mine)),
    // What the marks on the board mean, when there are any (Chessma 84, chess).
    (v.check || []).length ? h('p', { class: 'legend', 'data-testid': 'legend-check' }, 'Red ring: a King in check; only a step that ends the check is legal.',
      (v.checkers || []).length ? ` Dashed red ring: the piece giving check (${v.checkers.map((c) => `the ${c.piece} on ${c.square} ${c.how}`).join('; ')}).` : '') : null,
    (v.frozen || []).length ? h('p', { class: 'legend', 'data-testid': 'legend-frozen' }, 'Dashed blue frame: frozen by an enemy Immobilizer next to it; it may not move.') : null);
  if (mine && state.leadChoice) turn.append(leadChoiceBox(v));
  // Where a turn is one step (chess, Chessma 84) the step ends it: nothing to undo or end.
  if (state.seat && !v.result && !v.one_step_turns) {
    turn.append(h('div', { class: 'buttons' },
      h('button', { 'data-testid': 'undo', disabled: !(mine && v.can_undo) || state.busy, onclick: () => { clearSelection(); act('undo', {}); } }, 'Undo step'),
      h('button', { 'data-testid': 'end-turn', class: 'primary', disabled: !(mine && v.can_end) || state.busy, onclick: () => play('end') }, 'End turn')));
  }
  // A side with no move passes (Ataxx): the rules list `pass` as its one step.
  const pass = v.steps.find((s) => s.kind === 'pass');
  if (mine && pass) {
    turn.append(h('div', { class: 'buttons' },
      h('button', { 'data-testid': 'pass', class: 'primary', disabled: state.busy, onclick: () => play(pass.text) }, 'Pass')));
  }
  if (state.choice) turn.append(choiceBox(v));
  for (const box of pocketBoxes(v, mine)) turn.append(box);
  return turn;
}

// The tools under the turn: command overlay, flip, letters, rules, pieces, replay, record.
function toolsBox(v, flip) {
  return h('div', { class: 'buttons tools' },
    v.shows_command ? h('button', {
      'data-testid': 'show-command', class: state.showCommand ? 'on' : '', 'aria-pressed': String(state.showCommand),
      onclick: () => { state.showCommand = !state.showCommand; draw(); },
    }, state.showCommand ? 'Hide command' : 'Show command') : null,
    h('button', { 'data-testid': 'flip', onclick: () => { state.flip = !flip; draw(); } }, 'Flip board'),
    h('button', {
      'data-testid': 'letters-toggle', 'aria-pressed': String(CohortBoard.lettersOn()),
      title: 'Show the pieces as pictures or as letters (kept for next time)',
      onclick: () => { CohortBoard.setLetters(!CohortBoard.lettersOn()); draw(); },
    }, CohortBoard.lettersOn() ? 'Pictures' : 'Letters'),
    h('label', { class: 'replay-speed', title: "How long each of the opponent's steps stays on the board before the next (kept for next time)" },
      'Opponent replay ',
      h('select', { 'data-testid': 'replay-speed', onchange: (e) => { setReplayMs(Number(e.target.value)); draw(); } },
        ...REPLAY_SPEEDS.map(([name, ms]) => h('option', { value: String(ms), selected: ms === replayMs() }, name)))),
    h('label', { class: 'sounds', title: "A tone when the opponent's step arrives, and when your clock falls under 10 s (kept for next time)" },
      h('input', { type: 'checkbox', 'data-testid': 'sounds', checked: CohortAlerts.soundsOn() ? '' : null,
        onchange: (e) => { CohortAlerts.setSounds(e.target.checked); draw(); } }), ' Sounds'),
    state.seat && v.clock && v.clock.kind === 'corr' && CohortAlerts.notifySupported() ? h('label', { class: 'notify',
      title: 'A browser notification when it becomes your turn while this page is in the background' },
    h('input', { type: 'checkbox', 'data-testid': 'notify', checked: CohortAlerts.notifyOn() ? '' : null,
      onchange: async (e) => { await CohortAlerts.setNotify(e.target.checked); draw(); } }), ' Notify me on my turn') : null,
    h('a', { href: `/rules/${v.variant}`, class: 'button', 'data-testid': 'rules-link' }, 'Rules'),
    h('button', {
      'data-testid': 'show-pieces', class: state.showPieces ? 'on' : '', 'aria-pressed': String(state.showPieces),
      onclick: () => { state.showPieces = !state.showPieces; draw(); },
    }, 'Pieces and moves'),
    h('a', { href: `/game/${gameId}?replay`, class: 'button', 'data-testid': 'replay-link' }, 'Replay'),
    v.result ? h('a', { href: `/analysis?game=${gameId}`, class: 'button', 'data-testid': 'analysis-link' }, 'Analyse') : null,
    h('a', { href: `/api/games/${gameId}/record`, class: 'button', download: '', 'data-testid': 'download-record' }, 'Download record'));
}

// What the game page shows on request or for some games: the stop button of an AI-against-AI
// game's creator, the pieces panel, a custom variant's file, the reconstructed-setup note and
// the command overlay's legend.
function extraBoxes(v) {
  const out = [];
  if (state.creator && !v.result) {
    out.push(h('div', { class: 'buttons' },
      h('button', { 'data-testid': 'stop-game', class: 'danger', disabled: state.busy, onclick: () => act('stop', {}) }, 'Stop this game'),
      h('span', { class: 'hint' }, 'You started this AI-against-AI game: stopping it ends it as a draw.')));
  }
  if (state.showPieces) {
    if (!state.diagram) state.diagram = CohortDiagram.create({ game: gameId }, { board: 'board' });
    out.push(state.diagram.el);
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
    out.push(state.variantFile);
  }
  const info = state.variantInfo;
  if (info && info.reconstructed) {
    out.push(h('p', { class: 'reconstructed', 'data-testid': 'reconstructed' }, 'Setup reconstructed: ',
      info.reconstructed.replace(/^setup:\s*/i, '').replace(/\s*\(RULES\.md[^)]*\)/, ''), '. ',
      h('a', { href: `/rules/${v.variant}`, 'data-testid': 'reconstructed-link' }, 'Rules and setup')));
  }
  if (state.showCommand && v.shows_command) {
    // What the overlay draws and the rule it shows, in the rules' words (the view's).
    out.push(h('p', { class: 'hint', 'data-testid': 'command-legend' }, v.command_legend || ''));
    if (v.link_rule) out.push(h('p', { class: 'hint', 'data-testid': 'link-rule' }, v.link_rule));
  }
  return out;
}

// What a player may ask of the other (draws, takebacks, a rematch) and end the game with
// (abort, resign): each shown only when it applies.
function offerBox(v) {
  if (!state.seat) return v.result && v.rematch ? rematchBox(v) : null;
  if (v.result) return rematchBox(v);
  const them = other(state.seat);
  const human = v.players[them] === 'human';
  const row = [];
  if (v.draw_offer === them) {
    row.push(h('span', { class: 'offer', 'data-testid': 'draw-offered' }, `${cap(them)} offers a draw.`),
      h('button', { 'data-testid': 'accept-draw', onclick: () => act('draw', { action: 'accept' }) }, 'Accept draw'),
      h('button', { 'data-testid': 'decline-draw', onclick: () => act('draw', { action: 'decline' }) }, 'Decline'));
  } else if (v.draw_offer === state.seat) {
    row.push(h('span', { class: 'offer', 'data-testid': 'draw-offered' }, 'You offered a draw.'));
  } else if (human) {
    row.push(h('button', { 'data-testid': 'offer-draw', onclick: () => act('draw', { action: 'offer' }) }, 'Offer draw'));
  }
  // A takeback removes the last completed turn: offered when that turn is the player's own.
  const lastTurn = v.turns.length ? v.turns[v.turns.length - 1] : null;
  if (v.takeback_offer === them) {
    row.push(h('span', { class: 'offer', 'data-testid': 'takeback-offered' }, `${cap(them)} asks to take back ${lastTurn && lastTurn.side === them ? 'their' : 'your'} last turn.`),
      h('button', { 'data-testid': 'accept-takeback', onclick: () => act('takeback', { action: 'accept' }) }, 'Accept takeback'),
      h('button', { 'data-testid': 'decline-takeback', onclick: () => act('takeback', { action: 'decline' }) }, 'Decline'));
  } else if (v.takeback_offer === state.seat) {
    row.push(h('span', { class: 'offer', 'data-testid': 'takeback-offered' }, 'You asked to take back the last turn.'));
  } else if (human && lastTurn && lastTurn.side === state.seat) {
    row.push(h('button', { 'data-testid': 'takeback', onclick: () => act('takeback', { action: 'offer' }) }, 'Takeback'));
  }
  if (v.can_abort) {
    row.push(h('button', { 'data-testid': 'abort', title: 'Fewer than two turns played: end the game without a result', onclick: () => act('abort', {}) }, 'Abort'));
  }
  if (state.confirmResign) {
    row.push(h('span', { class: 'offer' }, 'Resign this game?'),
      h('button', { 'data-testid': 'confirm-resign', class: 'danger', onclick: () => act('resign', {}) }, 'Yes, resign'),
      h('button', { 'data-testid': 'cancel-resign', onclick: () => { state.confirmResign = false; draw(); } }, 'No'));
  } else {
    row.push(h('button', { 'data-testid': 'resign', class: 'danger', onclick: () => { state.confirmResign = true; draw(); } }, 'Resign'));
  }
  return h('div', { class: 'buttons' }, row);
}

// A game over: a rematch offered, answered, or made (the players' pages move to it; a
// watcher gets a link to watch it).
function rematchBox(v) {
  const row = [];
  if (v.rematch) {
    row.push(h('span', { class: 'offer', 'data-testid': 'rematch-made' }, state.seat ? 'Rematch: joining the new game...' : 'A rematch was made: ',
      state.seat ? null : h('a', { href: `/game/${v.rematch}`, 'data-testid': 'rematch-watch' }, 'watch it')));
  } else if (v.rematch_offer === other(state.seat)) {
    row.push(h('span', { class: 'offer', 'data-testid': 'rematch-offered' }, `${cap(other(state.seat))} offers a rematch.`),
      h('button', { 'data-testid': 'accept-rematch', onclick: () => act('rematch', { action: 'accept' }) }, 'Accept rematch'),
      h('button', { 'data-testid': 'decline-rematch', onclick: () => act('rematch', { action: 'decline' }) }, 'Decline'));
  } else if (v.rematch_offer === state.seat) {
    row.push(h('span', { class: 'offer', 'data-testid': 'rematch-offered' }, 'You offered a rematch.'));
  } else {
    row.push(h('button', { 'data-testid': 'rematch', onclick: () => act('rematch', { action: 'offer' }) }, 'Rematch'));
  }
  return h('div', { class: 'buttons' }, row);
}
