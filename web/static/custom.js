// Piece move diagrams (in the manner of H. G. Muller's Interactive Diagram) for every variant,
// and custom variants: a variant file pasted or uploaded on the home page, checked by the
// server, shown (errors on their line, or the start position and every piece's moves) and
// played. The server computes every destination and every error (docs/server.md, "Custom
// variants and piece diagrams"); this file only draws its answers. Loaded before the page scripts,
// whose `h` and `api` (common.js) it uses.
'use strict';

// The JSON of a request, whatever its status (the check's errors carry line and field).
async function apiRaw(method, path, body) {
  let r;
  try {
    r = await fetch(path, {
      method,
      headers: body ? { 'content-type': 'application/json' } : {},
      body: body ? JSON.stringify(body) : undefined,
    });
  } catch (e) {
    return { ok: false, status: 0, data: { error: 'The server cannot be reached; check your connection.' } };
  }
  let data = null;
  try { data = await r.json(); } catch { data = { error: `The server answered ${r.status}.` }; }
  return { ok: r.ok, status: r.status, data };
}

const CohortDiagram = (() => {
  function fetchDiagram(source, q) {
    if (source.text !== undefined) {
      return api('POST', '/api/variants/diagram', { text: source.text, variant: source.variant, ...q });
    }
    const qs = new URLSearchParams(Object.entries(q).filter(([, v]) => v)).toString();
    const base = source.game ? `/api/games/${source.game}/diagram` : `/api/variants/${encodeURIComponent(source.variant)}/diagram`;
    return api('GET', `${base}?${qs}`);
  }

  // Where a piece may go, as marks: both (move or capture), move only, capture only.
  function marksOf(d, board) {
    const m = new Map();
    const emptyCaptures = new Set(d.empty.captures);
    if (board === 'empty') {
      const moves = new Set(d.empty.moves);
      for (const s of d.empty.moves) m.set(s, emptyCaptures.has(s) ? 'both' : 'move');
      for (const s of d.empty.captures) if (!moves.has(s)) m.set(s, 'capture');
    } else {
      for (const s of d.board.moves) m.set(s, emptyCaptures.has(s) ? 'both' : 'move');
      for (const s of d.board.captures) m.set(s, 'capture');
    }
    return m;
  }

  /**
   * A diagram panel. source: { game: id } (the game's variant, its board now),
   * { variant: id } (a built-in variant, its start position), or { text, variant } (a
   * custom variant file, its start position). opts: { piece, board: 'empty' | 'board' }.
   * Returns { el, refresh }.
   */
  function create(source, opts = {}) {
    const st = { piece: opts.piece || '', square: '', side: 'white', board: opts.board || 'empty', reach: true, data: null, error: '' };
    const root = h('div', { class: 'diagram-panel', 'data-testid': 'piece-diagram-panel' }, h('p', { class: 'hint' }, 'Loading the pieces...'));
    let seq = 0;
    async function load() {
      const mine = ++seq;
      try {
        const d = await fetchDiagram(source, { piece: st.piece, square: st.square, side: st.side });
        if (mine !== seq) return;
        Object.assign(st, { data: d, piece: d.letter, square: d.square, error: '' });
      } catch (e) {
        if (mine !== seq) return;
        st.error = e.message;
      }
      render();
    }
    function render() {
      const d = st.data;
      if (!d) {
        root.replaceChildren(h('p', { class: 'error', 'data-testid': 'diagram-error' }, st.error));
        return;
      }
      const names = Object.fromEntries(d.kinds.map((k) => [k.letter, k.name]));
      const nameList = (letters) => letters.map((l) => names[l] || l).join(', ');
      const kinds = h('div', { class: 'kinds' }, d.kinds.map((k) => h('button', {
        class: k.letter === d.letter ? 'on' : '', 'data-testid': `diagram-kind-${k.letter}`, title: `${k.name}: ${k.moves}`,
        onclick: () => { st.piece = k.letter; load(); },
      }, `${k.letter} ${k.name}`)));
      const side = h('select', { 'data-testid': 'diagram-side', onchange: (e) => { st.side = e.target.value; load(); } },
        h('option', { value: 'white', selected: st.side === 'white' }, 'White'), h('option', { value: 'black', selected: st.side === 'black' }, 'Black'));
      const boardName = source.game ? 'Current board' : 'Start position';
      const which = (key, label) => h('button', {
        class: st.board === key ? 'on' : '', 'data-testid': `diagram-${key}`, onclick: () => { st.board = key; render(); },
      }, label);
      const marks = marksOf(d, st.board);
      const info = d.leader_info;
      const zone = st.reach && info ? (st.board === 'empty' ? info.reach_empty : info.reach_board) : [];
      const own = { square: d.square, letter: d.side === 'white' ? d.letter : d.letter.toLowerCase(), side: d.side, group: 0,
        colour: d.side === 'white' ? '#f7f5ee' : '#3a3a3a', moved: false, pinned: null };
      // The board's layout as the game view gives it (squares, holes, edge labels): a
      // Chessma 84 diagram is drawn on the game's 84 squares, not on its 10x12 frame.
      const view = { files: d.files, ranks: d.ranks, file_labels: d.file_labels, rank_labels: d.rank_labels, squares: d.squares,
        variant: d.variant, name: `${d.name} diagram`, pieces: names,
        units: st.board === 'empty' ? [own] : d.board.units, position: st.board === 'empty' ? '' : d.board.position };
      const size = d.files > 12 ? 26 : d.files > 8 ? 32 : 40;
      const captures = [...marks.values()].filter((k) => k === 'capture').length;
      const board = h('div', {
        class: 'diagram-board', 'data-testid': 'piece-diagram', 'data-piece': d.letter, 'data-square': d.square,
        'data-side': d.side, 'data-board': st.board, 'data-targets': marks.size, 'data-captures': captures,
      }, CohortBoard.render(view, { size, marks, zone, selected: d.square, onSquare: (sq) => { st.square = sq; load(); } }));
      const flags = [d.leader ? 'leader' : '', d.royal ? 'royal' : ''].filter(Boolean);
      const parts = [
        kinds,
        h('p', { class: 'buttons' }, which('empty', 'Empty board'), which('board', boardName), h('label', {}, 'Side ', side)),
        h('p', { 'data-testid': 'diagram-title' }, h('b', {}, `${d.name} (${d.letter})`), ` moves ${d.moves === '-' ? '(none of its own)' : d.moves}`,
          flags.length ? ` \u00b7 ${flags.join(', ')}` : '', ` \u00b7 from ${d.square}: `,
          h('span', { 'data-testid': 'diagram-count' }, `${marks.size} square${marks.size === 1 ? '' : 's'}`),
          captures ? ` (${captures} capture${captures === 1 ? '' : 's'} only)` : ''),
        board,
        h('p', { class: 'diagram-key hint' },
          h('span', {}, '\u25cf move or capture'), h('span', {}, '\u25cb move only'), h('span', {}, '\u2715 capture'),
          info ? h('span', {}, '\u25a0 reach') : null, ' Click a square to put the piece there.'),
      ];
      if (st.board === 'board' && d.board.real) {
        parts.push(h('p', { 'data-testid': 'diagram-legal-now' }, d.board.legal_now.length
          ? `The ${d.name} standing on ${d.square} may move now to ${d.board.legal_now.join(' ')}.`
          : d.board.lead_now.length
            ? `The ${d.name} standing on ${d.square} may lead this turn: ${d.board.lead_now.join(', ')}.`
            : `The ${d.name} standing on ${d.square} may not move now (the command rules, or not its side's turn).`));
      }
      if (info) {
        const box = h('div', { class: 'lead-panel', 'data-testid': 'diagram-leader' },
          h('p', {}, h('b', {}, `${d.name}: `), info.text, '.'));
        if (info.modes) {
          for (const m of info.modes) {
            box.append(h('p', { 'data-testid': `diagram-mode-${m.mode || 'lead'}` },
              h('b', {}, m.mode ? `Leading in ${m.mode} mode` : 'Leading'), `: ${m.budget} activations itself included`,
              m.others < m.budget ? `, at most ${m.others} for other units` : '', `; activates ${nameList(m.activates)}`,
              m.remap.length ? `; ${m.remap.map((r) => `${r.name}s move as ${r.moves}`).join(', ')}` : '', '.'));
          }
        } else {
          box.append(h('p', { 'data-testid': 'diagram-activates' }, `Activates: ${nameList(info.activates)}.`));
        }
        box.append(h('p', {}, h('label', {},
          h('input', { type: 'checkbox', checked: st.reach, 'data-testid': 'diagram-reach', onchange: (e) => { st.reach = e.target.checked; render(); } }),
          info.range != null ? ` Show its reach (${info.range} squares: ${zone.length} shaded)` : ` Show the units linked to it (${zone.length} shaded)`)));
        parts.push(box);
      }
      if (d.as_activated.length) {
        parts.push(h('div', { class: 'lead-panel', 'data-testid': 'diagram-activated' },
          d.as_activated.map((a) => h('p', {}, `Led by the ${a.leader_name}${a.mode ? ` (${a.mode})` : ''}: moves as ${a.moves}, `,
            `${new Set(a.empty.moves.concat(a.empty.captures)).size} squares from ${d.square} on an empty board.`))));
      }
      if (st.error) parts.push(h('p', { class: 'error' }, st.error));
      root.replaceChildren(...parts);
    }
    load();
    return { el: root, refresh: () => { if (st.board === 'board') load(); } };
  }

  return { create };
})();

const CohortCustom = (() => {
  const EXAMPLE = `# A variant of your own: docs/variants.md lists every field.
[tiny-chieftain]
base = mini-chieftain
name = Tiny Chieftain
summary = mini-Chieftain on 6x6 with two Chieftains a side.
board = 6x6
setup = 1ccm2/6/6/6/6/2CMC1 w
`;
  const MAX = 64 * 1024;

  function listing(text, marks) {
    const lines = text.split('\n');
    if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
    return h('div', { class: 'listing', 'data-testid': 'custom-listing' }, lines.map((l, i) => h('div', {
      'data-line': i + 1, class: marks.get(i + 1) || '',
    }, h('span', { class: 'ln' }, i + 1), l || ' ')));
  }

  function newGame(text, v) {
    const id = v.id;
    const opponent = h('select', { 'data-testid': `custom-opponent-${id}` },
      h('option', { value: 'ai' }, 'the AI'), h('option', { value: 'human' }, 'another person'));
    const { select: strength, about: levelAbout } = levelSelect(`custom-strength-${id}`, v.ai_levels);
    const time = h('select', { 'data-testid': `custom-time-${id}` },
      h('option', { value: '200' }, '200 ms'), h('option', { value: '1000', selected: true }, '1 s'), h('option', { value: '3000' }, '3 s'));
    const side = h('select', { 'data-testid': `custom-side-${id}` },
      h('option', { value: 'white' }, 'White'), h('option', { value: 'black' }, 'Black'));
    const aiOnly = h('span', { class: 'ai-only' }, h('label', {}, 'Strength ', strength), h('label', {}, 'Time per turn ', time), levelAbout);
    opponent.onchange = () => { aiOnly.hidden = opponent.value !== 'ai'; };
    const err = h('p', { class: 'error', 'data-testid': `custom-game-error-${id}` });
    const start = h('button', { type: 'submit', class: 'primary', 'data-testid': `custom-start-${id}` }, `New ${v.name} game`);
    const form = h('form', { class: 'new-game' },
      h('label', {}, 'Play against ', opponent), aiOnly, h('label', {}, 'as ', side), start, err);
    form.onsubmit = async (ev) => {
      ev.preventDefault();
      const me = side.value;
      const human = opponent.value === 'human';
      const body = { variant: id, variant_text: text, [me]: 'human', [me === 'white' ? 'black' : 'white']: human ? 'human' : 'ai' };
      if (!human) body.ai = { agent: strength.value, time_ms: Number(time.value) };
      start.disabled = true;
      try {
        const created = await api('POST', '/api/games', body);
        try { localStorage.setItem(`cohort-game-${created.id}`, JSON.stringify({ ...created, creator: me })); } catch { /* private mode */ }
        location.href = created.links[me];
      } catch (e) {
        err.textContent = e.message;
        start.disabled = false;
      }
    };
    return form;
  }

  function variantBlock(text, v) {
    const pieces = h('table', { class: 'custom-pieces', 'data-testid': `custom-pieces-${v.id}` },
      v.pieces.map((p) => h('tr', { 'data-piece': p.letter },
        h('td', {}, h('b', {}, p.letter)), h('td', {}, p.name), h('td', {}, h('code', {}, p.moves)),
        h('td', { class: 'hint' }, [p.leader ? 'leader' : '', p.royal ? 'royal' : ''].filter(Boolean).join(', ')),
        h('td', { class: 'hint' }, `${new Set(p.empty.moves.concat(p.empty.captures)).size} squares from ${p.from}`))));
    const diagram = CohortDiagram.create({ text, variant: v.id });
    return h('div', { class: 'custom-variant', 'data-testid': `custom-variant-${v.id}` },
      h('div', {},
        h('h3', {}, v.name, h('span', { class: 'vid' }, v.id), h('span', { class: 'badge' }, 'custom')),
        h('div', { class: 'diagram', 'data-testid': `custom-start-board-${v.id}` },
          CohortBoard.render({ ...v.start, variant: v.id, files: v.files, ranks: v.ranks }, { size: v.files > 8 ? 16 : 24, small: true })),
        h('p', { class: 'hint', 'data-testid': `custom-facts-${v.id}` },
          `${v.files}x${v.ranks} board, command = ${v.command}, ${v.units} units, ${v.first_steps} legal first steps.`),
        v.summary ? h('p', { class: 'summary' }, v.summary) : null,
        pieces,
        newGame(text, v)),
      h('div', {}, h('h3', {}, 'Pieces and moves'), diagram.el));
  }

  // replaceChildren with arrays flattened and nulls left out.
  const put = (el, ...items) => el.replaceChildren(...items.flat(Infinity).filter((x) => x !== null && x !== undefined && x !== false));

  function panel() {
    const text = h('textarea', { 'data-testid': 'custom-text', spellcheck: 'false', placeholder: EXAMPLE, 'aria-label': 'Variant file' });
    const out = h('div', { 'data-testid': 'custom-result' });
    const file = h('input', { type: 'file', accept: '.ini,.txt,text/plain', 'data-testid': 'custom-file' });
    const button = h('button', { type: 'button', class: 'primary', 'data-testid': 'custom-check' }, 'Check');
    async function check() {
      const t = text.value;
      out.replaceChildren(h('p', { class: 'hint' }, 'Checking...'));
      button.disabled = true;
      const r = await apiRaw('POST', '/api/variants/check', { text: t });
      button.disabled = false;
      if (!r.ok) {
        const e = (r.data.errors && r.data.errors[0]) || {};
        const where = e.line ? `Line ${e.line}${e.field ? `, field '${e.field}'` : ''}: ` : '';
        put(out,
          h('p', { class: 'error', 'data-testid': 'custom-error', 'data-line': e.line || '' }, where, e.message || r.data.error),
          e.line ? listing(t, new Map([[e.line, 'bad']])) : null);
        const bad = out.querySelector('.listing .bad');
        if (bad) bad.scrollIntoView({ block: 'nearest' });
        return;
      }
      const warnings = r.data.warnings;
      put(out,
        h('p', { class: 'ok', 'data-testid': 'custom-ok' },
          `The file loads: ${r.data.variants.map((v) => v.name).join(', ')}.`),
        warnings.length ? h('ul', { class: 'warnings', 'data-testid': 'custom-warnings' },
          warnings.map((w) => h('li', { 'data-line': w.line }, `Line ${w.line}, field '${w.field}': ${w.message}`))) : null,
        warnings.length ? listing(t, new Map(warnings.map((w) => [w.line, 'warn']))) : null,
        r.data.variants.map((v) => variantBlock(t, v)));
    }
    button.onclick = check;
    file.onchange = async () => {
      const f = file.files[0];
      if (!f) return;
      if (f.size > MAX) {
        out.replaceChildren(h('p', { class: 'error', 'data-testid': 'custom-error' }, `${f.name} is ${f.size} bytes; at most ${MAX} (64 KiB) are accepted.`));
        return;
      }
      text.value = await f.text();
      check();
    };
    return h('section', { class: 'custom', 'data-testid': 'custom-panel' },
      h('h2', {}, 'Your own variant'),
      h('p', { class: 'hint' }, 'Paste a variant file (the format of the built-in ones, docs/variants.md) or upload one; ',
        'the server checks it, shows its start position and every piece\'s moves, and you can play it against the AI or a person.'),
      text,
      h('p', { class: 'buttons' }, button,
        h('button', { type: 'button', 'data-testid': 'custom-example', onclick: () => { text.value = EXAMPLE; check(); } }, 'Example'),
        h('label', {}, 'Upload ', file)),
      out);
  }

  return { panel };
})();
