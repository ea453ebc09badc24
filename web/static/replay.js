// The replay of a game (`/game/<id>?replay`): any step, its board, the move list.
'use strict';

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
  // Full-turn numbers, as the move list counts: "turn 1, Black" is Black's reply to turn 1.
  const numbers = turnNumbers(turns);
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
    const size = v.files > 12 ? 44 : v.files > 8 ? 52 : 64;
    const last = lastStepOf(v);
    const board = h('div', { class: 'board', 'data-testid': 'board', 'data-version': want, 'data-position': v.position, 'data-to-move': v.to_move },
      CohortBoard.frame(CohortBoard.render(v, {
        size, showCommand, last: last && last.move ? [last.move] : [],
        arrows: last ? arrowsOf(last.turn) : [], removed: last ? last.removed : [],
      }), { size, key: `replay ${gameId}` }));
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
        current >= 0 ? ` (turn ${numbers[current]}, ${cap(turns[current].side)})` : '',
        v.result ? `; ${v.result.text}` : `; ${cap(v.to_move)} to move`),
      h('div', { class: 'buttons' },
        h('button', { onclick: go(0), 'data-testid': 'replay-first', title: 'Start' }, '\u00ab Start'),
        h('button', { onclick: go(want - 1), 'data-testid': 'replay-prev', title: 'Step back (left arrow)' }, '\u2039 Back'),
        h('button', { onclick: go(want + 1), 'data-testid': 'replay-next', title: 'Step forward (right arrow)' }, 'Next \u203a'),
        h('button', { onclick: go(total), 'data-testid': 'replay-last', title: 'End' }, 'End \u00bb'),
        v.shows_command ? h('button', { class: showCommand ? 'on' : '', 'data-testid': 'show-command',
          onclick: () => { showCommand = !showCommand; show(); } }, showCommand ? 'Hide command' : 'Show command') : null),
      slider,
      h('p', { class: 'buttons' }, h('a', { href: `/game/${gameId}`, class: 'button' }, 'Back to the game'),
        record.result !== '*' ? h('a', { href: `/analysis?game=${gameId}`, class: 'button', 'data-testid': 'analysis-link' }, 'Analyse') : null,
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
