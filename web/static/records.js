// "Open a record" (/record): paste a game record (docs/records.md) or choose its file, replay
// it step by step, and continue it against the AI from any step. The server checks the
// record (POST /api/records/replay) and names the first illegal step by turn and step.
// Uses the pages' helpers (h, api, cap, other, moveList, capturedBox).
'use strict';

async function recordPage() {
  document.title = 'Open a record: Cohort';
  const text = h('textarea', { rows: 14, cols: 70, 'data-testid': 'record-text', spellcheck: 'false',
    placeholder: '[Variant "mini-chieftain"]\n\n1. d2-d3 d7-d6,e7-e6\n2. ...\n*' });
  const file = h('input', { type: 'file', accept: '.txt,.pgn,text/plain', 'data-testid': 'record-file' });
  const err = h('p', { class: 'error', 'data-testid': 'record-error' });
  const open = h('button', { class: 'primary', 'data-testid': 'record-open' }, 'Open');
  const viewer = h('div', { 'data-testid': 'record-viewer' });
  file.onchange = async () => {
    const f = file.files && file.files[0];
    if (!f) return;
    text.value = await f.text();
    load();
  };
  open.onclick = () => load();
  app.replaceChildren(h('section', { class: 'record-input' },
    h('h1', {}, 'Open a record'),
    h('p', {}, 'Paste a game record, or choose a record file (as "Download record" saves them): ', file),
    text, h('div', { class: 'buttons' }, open), err),
  viewer);

  async function load() {
    err.textContent = '';
    viewer.replaceChildren();
    let first;
    try {
      first = await api('POST', '/api/records/replay', { record: text.value, at: 0 });
    } catch (e) {
      err.textContent = e.message;
      return;
    }
    replayRecord(text.value, first, viewer);
  }
}

function replayRecord(record, first, viewer) {
  const total = first.steps.length;
  const turns = first.turns;
  const cache = new Map([[0, first]]);
  let at = 0;
  let shown = -1;
  const { select: strength, about: levelAbout } = levelSelect('continue-strength', first.builtin ? first.variant : null);
  const time = h('select', { 'data-testid': 'continue-time' },
    h('option', { value: '200' }, '200 ms'), h('option', { value: '1000', selected: true }, '1 s'));
  const show = async () => {
    const want = at;
    let r = cache.get(want);
    if (!r) {
      try { r = await api('POST', '/api/records/replay', { record, at: want }); } catch (e) {
        viewer.replaceChildren(h('p', { class: 'error', 'data-testid': 'record-error' }, e.message));
        return;
      }
      cache.set(want, r);
    }
    if (want !== at) return;
    shown = want;
    const v = r.view;
    const current = turns.findIndex((t) => t.end_at >= want && want > 0);
    const go = (n) => () => { at = Math.max(0, Math.min(total, n)); show(); };
    const boardSize = v.files > 12 ? 44 : v.files > 8 ? 52 : 64;
    const board = h('div', { class: 'board', 'data-testid': 'board', 'data-version': want, 'data-position': v.position, 'data-to-move': v.to_move },
      CohortBoard.frame(CohortBoard.render(v, { size: boardSize, last: r.step_move ? [r.step_move] : [] }), { size: boardSize, key: 'record' }));
    const tags = r.tags;
    const cont = h('p', { class: 'error', 'data-testid': 'continue-error' });
    const continueBox = !r.builtin ? h('p', { class: 'hint' }, 'A record of a custom variant replays here but cannot be continued on this server.')
      : r.over ? h('p', { class: 'hint' }, 'The game is over at this step: step back to continue from earlier.')
        : h('div', { class: 'continue' },
          h('p', {}, `Continue from here as ${cap(r.to_move)} against the AI: `,
            h('label', {}, 'Strength ', strength), ' ', h('label', {}, 'Time per turn ', time), ' ',
            levelAbout, ' ',
            h('button', { class: 'primary', 'data-testid': 'continue', onclick: async () => {
              const me = r.to_move;
              const body = { variant: r.variant, [me]: 'human', [other(me)]: 'ai',
                ai: { agent: strength.value, time_ms: Number(time.value) }, record, at: want };
              try {
                const created = await api('POST', '/api/games', body);
                try { localStorage.setItem(`cohort-game-${created.id}`, JSON.stringify({ ...created, creator: me })); } catch { /* private mode */ }
                location.href = created.links[me];
              } catch (e) { cont.textContent = e.message; }
            } }, 'Continue against the AI')), cont);
    const panel = h('div', { class: 'panel' },
      h('h1', {}, `Record: ${r.name} `, h('span', { class: 'vid' }, r.variant)),
      h('p', { class: 'players' }, h('span', { class: 'side-dot white' }), `White: ${tags.White || '?'}`,
        h('span', { class: 'side-dot black' }), `Black: ${tags.Black || '?'}`),
      h('p', { class: `status${r.result !== '*' ? ' over' : ''}`, 'data-testid': 'result' },
        `Result: ${r.result === '*' ? 'not finished' : r.result}${tags.Termination ? ` (${tags.Termination})` : ''}`,
        tags.Date ? `, ${tags.Date}` : ''),
      h('p', { class: 'status', 'data-testid': 'status' },
        want === 0 ? 'Start position' : `Step ${want} of ${total}: ${r.step}`,
        current >= 0 ? ` (turn ${turns[current].number}, ${cap(turns[current].side)})` : '',
        v.result ? '; the game is over' : `; ${cap(v.to_move)} to move`),
      h('div', { class: 'buttons' },
        h('button', { onclick: go(0), 'data-testid': 'replay-first' }, '\u00ab Start'),
        h('button', { onclick: go(want - 1), 'data-testid': 'replay-prev' }, '\u2039 Back'),
        h('button', { onclick: go(want + 1), 'data-testid': 'replay-next' }, 'Next \u203a'),
        h('button', { onclick: go(total), 'data-testid': 'replay-last' }, 'End \u00bb')),
      h('input', { type: 'range', min: 0, max: total, value: String(want), 'data-testid': 'replay-slider',
        'aria-label': 'Step', oninput: (e) => { at = Number(e.target.value); show(); } }),
      continueBox,
      capturedBox(v),
      h('h2', {}, 'Moves (click a turn)'),
      // With each step's removals and data: the notes of what a step's text does not show,
      // as on the game page.
      moveList(turns.map((t, i) => ({ side: t.side, steps: Array(t.end_at - (i ? turns[i - 1].end_at : 0)).fill('').map((_, k) => t.steps[k] || 'end'), removed: t.removed, moves: t.moves })),
        { current, onTurn: (end) => { at = end; show(); } }));
    viewer.replaceChildren(h('div', { class: 'game' }, board, panel));
  };
  show();
  document.addEventListener('keydown', (e) => {
    if (e.target && (e.target.tagName === 'INPUT' || e.target.tagName === 'TEXTAREA')) return;
    if (e.key === 'ArrowRight' && shown < total) { at = shown + 1; show(); }
    if (e.key === 'ArrowLeft' && shown > 0) { at = shown - 1; show(); }
  });
}

if (page === 'record') recordPage();
