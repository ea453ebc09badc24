// Cohort's board: our own SVG drawing of any rectangular board from 8x8 up to 16x16, from a
// GameView or the `start` board of a VariantInfo (docs/server.md). No framework, no build
// step: `CohortBoard.render(view, opts)` returns an <svg> element.
'use strict';

const CohortBoard = (() => {
  const NS = 'http://www.w3.org/2000/svg';
  const FILES = 'abcdefghijklmnop';
  // Solid glyphs for both sides (the fill tells the side), for the FIDE `chess` variant.
  const GLYPHS = { K: '\u265A', Q: '\u265B', R: '\u265C', B: '\u265D', N: '\u265E', P: '\u265F' };
  // Leaders' colours for the command overlay (Chieftain ranges), distinct from the highlights.
  const LEADER_COLOURS = ['#0f7b6c', '#8e3fb4', '#c45f00', '#2556b8', '#a3324f', '#5b6b00'];

  let arrowIds = 0;

  // Letters instead of piece drawings: the reader's choice, kept in localStorage.
  function lettersOn() {
    try { return localStorage.getItem('cohort-letters') === '1'; } catch { return false; }
  }
  function setLetters(on) {
    try { localStorage.setItem('cohort-letters', on ? '1' : '0'); } catch { /* private mode */ }
  }

  function starPath(cx, cy, R, r) {
    let d = '';
    for (let i = 0; i < 10; i++) {
      const a = -Math.PI / 2 + (i * Math.PI) / 5, rad = i % 2 ? r : R;
      d += `${i ? 'L' : 'M'}${(cx + rad * Math.cos(a)).toFixed(2)} ${(cy + rad * Math.sin(a)).toFixed(2)}`;
    }
    return `${d}z`;
  }

  function el(name, attrs, parent) {
    const e = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v !== undefined && v !== null) e.setAttribute(k, v);
    }
    if (parent) parent.appendChild(e);
    return e;
  }

  // The squares of the board being drawn, as the server's rules know them (`squares` of a
  // board view, docs/server.md): name -> { file, rank, sheets }. Holes (Chessma 84's missing
  // cells) are simply absent; nothing is read from the position string.
  function squaresOf(view) {
    const map = new Map();
    if (view.squares && view.squares.length) {
      for (const q of view.squares) map.set(q.name, { file: q.file, rank: q.rank, sheets: q.sheets || [] });
      return map;
    }
    // A view without `squares` (none from this server): the full rectangle a1...
    for (let rank = 0; rank < view.ranks; rank++) {
      for (let file = 0; file < view.files; file++) map.set(FILES[file] + (rank + 1), { file, rank, sheets: [] });
    }
    return map;
  }

  // The labels along the board's edges (Chessma 84: z..i and 0 1' 1 .. 8 8' 9).
  function fileLabel(view, f) {
    return view.file_labels && view.file_labels.length ? view.file_labels[f] : FILES[f];
  }
  function rankLabel(view, r) {
    return view.rank_labels && view.rank_labels.length ? view.rank_labels[r] : String(r + 1);
  }

  // Perceived brightness of a #rrggbb colour, to pick a readable letter colour.
  function isLight(hex) {
    if (!/^#[0-9a-f]{6}$/i.test(hex || '')) return true;
    const n = parseInt(hex.slice(1), 16);
    const r = (n >> 16) & 255, g = (n >> 8) & 255, b = n & 255;
    return 0.299 * r + 0.587 * g + 0.114 * b > 150;
  }

  /**
   * view: a GameView (or the `start` board of a VariantInfo).
   * opts: { size: square size in px, small: no coordinates (diagrams), flip,
   *         selected: square, targets: Map(square -> [legal step]), onSquare(name),
   *         showCommand, interactive: show which units may move, last: [step text],
   *         leads: [square] leaders that may lead the turn now (lead model),
   *         hints: [{from, to}] the engine's preferred turn, blue numbered arrows (analysis),
   *         zone: [square] shaded (a leader's reach in a piece diagram),
   *         marks: Map(square -> 'move' | 'capture' | 'both') (a piece diagram: where it may
   *         move only, capture only, or either) }
   * The lead model's leading leader (`command_info.leading`) is always marked.
   */
  // The step whose removed units' fade was last played (render's `removedKey`), and when.
  let lastRemoved = null;

  function render(view, opts = {}) {
    const S = opts.size || 44;
    const M = opts.small ? 0 : Math.round(S * 0.42); // margin for the coordinates
    const files = view.files, ranks = view.ranks;
    const board = squaresOf(view);
    const W = files * S + M, H = ranks * S + M;
    const svg = el('svg', {
      viewBox: `0 0 ${W} ${H}`, width: W, height: H, class: 'board-svg', role: 'img',
      'aria-label': `${view.name || view.variant} board, ${files} by ${ranks}`,
    });
    const pos = (sq) => {
      const { file, rank } = typeof sq === 'string' ? board.get(sq) : sq;
      const x = (opts.flip ? files - 1 - file : file) * S + M;
      const y = (opts.flip ? rank : ranks - 1 - rank) * S;
      return { x, y, cx: x + S / 2, cy: y + S / 2 };
    };
    const movable = new Set(opts.interactive ? view.movable || [] : []);
    const occupied = new Set((view.units || []).map((u) => u.square));
    const moved = new Set((view.units || []).filter((u) => u.moved).map((u) => u.square));
    const targets = opts.targets || new Map();
    const last = new Set();
    for (const step of opts.last || []) {
      if (step && step.from) last.add(step.from);
      if (step && step.to) last.add(step.to);
    }
    // The server's names (`pieces`) first; the table above for older views.
    const names = view.pieces || {};
    const leads = new Set(opts.leads || []);
    const leading = view.command_info && view.command_info.leading ? view.command_info.leading : null;

    // Squares: the click targets.
    const squares = el('g', { class: 'squares' }, svg);
    for (const [name, { file, rank, sheets }] of board) {
      const { x, y } = pos({ file, rank });
      const cls = ['sq', (file + rank) % 2 === 0 ? 'dark' : 'light'];
      if (last.has(name)) cls.push('last');
      if (moved.has(name)) cls.push('moved');
      if (opts.selected === name) cls.push('selected');
      if (opts.premove && (opts.premove.from === name || opts.premove.to === name)) cls.push('premove');
      if (targets.has(name)) cls.push('target-sq');
      // A unit that may be dragged: its square takes the touch (elsewhere a swipe scrolls).
      if (opts.onDrag && occupied.has(name) && (movable.has(name) || opts.selected === name)) cls.push('grab');
      const r = el('rect', {
        x, y, width: S, height: S, class: cls.join(' '), 'data-testid': `sq-${name}`, 'data-square': name,
        'data-file': file, 'data-rank': rank, 'data-sheets': sheets.length ? sheets.join(' ') : null,
      }, squares);
      if (opts.onSquare) r.addEventListener('click', () => opts.onSquare(name));
    }

    // A piece diagram: the leader's reach, shaded.
    if (opts.zone && opts.zone.length) {
      const g = el('g', { class: 'zone' }, svg);
      for (const sq of opts.zone) {
        const p = pos(sq);
        el('rect', { x: p.x, y: p.y, width: S, height: S, class: 'zone-sq', 'data-zone': sq }, g);
      }
    }

    // Coordinates: files along the bottom, ranks on the left.
    if (!opts.small) {
      const coords = el('g', { class: 'coords', 'font-size': Math.max(10, Math.round(S * 0.26)) }, svg);
      for (let f = 0; f < files; f++) {
        const { cx } = pos({ file: f, rank: 0 });
        el('text', { x: cx, y: ranks * S + M * 0.7, 'text-anchor': 'middle' }, coords).textContent = fileLabel(view, f);
      }
      for (let r = 0; r < ranks; r++) {
        const { cy } = pos({ file: 0, rank: r });
        el('text', { x: M * 0.5, y: cy, 'text-anchor': 'middle', 'dominant-baseline': 'central' }, coords)
          .textContent = rankLabel(view, r);
      }
    }

    // Units that may start a move now: a subtle ring.
    if (movable.size) {
      const g = el('g', { class: 'movable-rings' }, svg);
      for (const sq of movable) {
        if (!occupied.has(sq) || sq === opts.selected) continue;
        const p = pos(sq);
        el('circle', { cx: p.cx, cy: p.cy, r: S * 0.46, class: 'movable-ring', 'data-movable': sq }, g);
      }
    }

    // Lead model, turn start: the leaders that may lead the turn (a gold dashed ring).
    if (leads.size) {
      const g = el('g', { class: 'lead-rings' }, svg);
      for (const sq of leads) {
        const p = pos(sq);
        el('circle', { cx: p.cx, cy: p.cy, r: S * 0.46, class: 'lead-ring', 'data-lead': sq, 'stroke-width': Math.max(2, S * 0.07) }, g);
      }
    }

    // Command overlay: Chieftain ranges (a box per leader), chains (links between adjacent
    // linked units, in the colour of their chesimal) and the leaders.
    if (opts.showCommand && view.command_info) {
      const g = el('g', { class: 'command', 'data-testid': 'command-overlay' }, svg);
      const info = view.command_info;
      const leaders = info.leaders || [];
      // Each leader's zone comes from the server (the rules' command view); the box is its
      // bounding rectangle, drawn, not recomputed.
      (info.zones || []).forEach((zone, i) => {
        if (!zone.length) return;
        const sqs = zone.map((q) => board.get(q));
        const lo = { file: Math.min(...sqs.map((q) => q.file)), rank: Math.min(...sqs.map((q) => q.rank)) };
        const hi = { file: Math.max(...sqs.map((q) => q.file)), rank: Math.max(...sqs.map((q) => q.rank)) };
        const a = pos(lo), b = pos(hi);
        const inset = 2 + (i % 3) * 3; // overlapping boxes stay apart
        const colour = LEADER_COLOURS[i % LEADER_COLOURS.length];
        el('rect', {
          x: Math.min(a.x, b.x) + inset, y: Math.min(a.y, b.y) + inset,
          width: Math.abs(a.x - b.x) + S - 2 * inset, height: Math.abs(a.y - b.y) + S - 2 * inset,
          class: 'range', stroke: colour, fill: colour, 'data-leader': leaders[i],
        }, g);
      });
      const colourAt = new Map((view.units || []).map((u) => [u.square, u.colour]));
      for (const [a, b] of info.links || []) {
        const p = pos(a), q = pos(b);
        el('line', { x1: p.cx, y1: p.cy, x2: q.cx, y2: q.cy, class: 'link-casing', 'stroke-width': S * 0.16 }, g);
        el('line', {
          x1: p.cx, y1: p.cy, x2: q.cx, y2: q.cy, class: 'link', 'stroke-width': S * 0.08,
          stroke: colourAt.get(a) || '#2f6fbf',
        }, g);
      }
      leaders.forEach((l, i) => {
        const p = pos(l);
        el('circle', {
          cx: p.cx, cy: p.cy, r: S * 0.47, class: 'leader-mark', 'data-leader-mark': l,
          stroke: info.range ? LEADER_COLOURS[i % LEADER_COLOURS.length] : '#c01f86',
        }, g);
      });
    }

    // Units: the piece drawings of pieces.js, or letters in discs (the option `letters`).
    const letters = opts.letters === undefined ? lettersOn() : opts.letters;
    const grouped = (view.groups || []).length > 0;
    const leaderLetters = new Set(view.leaders || []);
    const royalLetters = new Set(view.royals || []);
    const units = el('g', { class: 'units' }, svg);
    const drawPiece = (g, u, x, y, size, asLetter) => {
      const up = u.letter.toUpperCase();
      const art = !asLetter && typeof CohortPieces !== 'undefined' ? CohortPieces.markup(names[up], u.side) : null;
      if (art) {
        const inner = el('svg', {
          x: x + size * 0.06, y: y + size * 0.05, width: size * 0.88, height: size * 0.88, viewBox: '0 0 45 45',
          class: 'piece-art', 'data-piece': (names[up] || up).toLowerCase(),
        }, g);
        inner.innerHTML = art;
        return;
      }
      const cx = x + size / 2, cy = y + size / 2;
      if (view.one_step_turns && GLYPHS[up]) {
        el('text', {
          x: cx, y: cy + size * 0.04, 'text-anchor': 'middle', 'dominant-baseline': 'central',
          class: `glyph ${u.side}`, 'font-size': size * 0.8,
        }, g).textContent = GLYPHS[up];
        return;
      }
      const r = size * 0.37;
      const colour = u.colour || (u.side === 'black' ? '#3a3a3a' : '#f7f5ee');
      if (u.side === 'black') {
        // Black: a dark ring round the group colour.
        el('circle', { cx, cy, r, fill: '#1b1b1b', class: 'disc-ring black' }, g);
        el('circle', { cx, cy, r: r * 0.76, fill: colour, class: 'disc black' }, g);
      } else {
        el('circle', { cx, cy, r, fill: colour, class: 'disc white', 'stroke-width': Math.max(1.2, size * 0.035) }, g);
      }
      el('text', {
        x: cx, y: cy + size * 0.015, 'text-anchor': 'middle', 'dominant-baseline': 'central',
        'font-size': size * (u.side === 'black' ? 0.34 : 0.4), class: 'letter',
        fill: isLight(colour) ? '#1d1d1d' : '#fafafa',
      }, g).textContent = u.letter;
    };
    for (const u of view.units || []) {
      const p = pos(u.square);
      const up = u.letter.toUpperCase();
      const cls = ['unit', u.side];
      if (u.moved) cls.push('moved');
      const g = el('g', {
        class: cls.join(' '), 'data-unit': u.square, 'data-letter': u.letter, 'data-side': u.side,
        'data-group': u.group, 'data-colour': u.colour,
      }, units);
      el('title', {}, g).textContent =
        `${u.side === 'white' ? 'White' : 'Black'} ${names[up] || up} on ${u.square}` +
        (grouped ? `, chesimal ${u.group + 1}` + (view.groups[u.group] ? ` (${view.groups[u.group]})` : '') : '') +
        (leaderLetters.has(up) ? (royalLetters.has(up) ? ' (royal leader)' : ' (leader)') : '') +
        (u.pinned ? `, pinning ${u.pinned.side}'s ${names[u.pinned.letter.toUpperCase()] || u.pinned.letter}` : '');
      if (!letters && grouped) {
        // The chesimal's colour as a plate under the piece.
        el('circle', { cx: p.cx, cy: p.cy, r: S * 0.47, fill: u.colour, class: 'group-plate' }, g);
      }
      drawPiece(g, u, p.x, p.y, S, letters);
      if (!letters && grouped && !opts.small) {
        // The group number, bottom left.
        const bx = p.x + S * 0.14, by = p.y + S * 0.86;
        el('circle', { cx: bx, cy: by, r: S * 0.13, fill: u.colour, class: 'group-badge' }, g);
        el('text', {
          x: bx, y: by + S * 0.005, 'text-anchor': 'middle', 'dominant-baseline': 'central', 'font-size': S * 0.18,
          class: 'group-number', fill: isLight(u.colour) ? '#1d1d1d' : '#fafafa',
        }, g).textContent = String(u.group + 1);
      }
      if (leaderLetters.has(up) && (!letters || !view.one_step_turns)) {
        // Leaders (Chieftains, chiefs, Kings that lead): a gold crown if royal, else a star.
        const bx = p.x + S * 0.84, by = p.y + S * 0.16, k = S / 45;
        const mark = el('g', { class: 'leader-badge', 'data-leader-badge': royalLetters.has(up) ? 'royal' : 'leader' }, g);
        el('circle', { cx: bx, cy: by, r: S * 0.15, class: 'leader-badge-disc' }, mark);
        el('path', {
          d: royalLetters.has(up)
            ? `M${bx - 4 * k} ${by + 2.5 * k}l${-0.6 * k} ${-5 * k} ${2.3 * k} ${2 * k} ${2.3 * k} ${-3.5 * k} ${2.3 * k} ${3.5 * k} ${2.3 * k} ${-2 * k} ${-0.6 * k} ${5 * k}z`
            : starPath(bx, by, 4.2 * k, 1.8 * k),
          class: 'leader-badge-mark',
        }, mark);
      }
      if (u.pinned) {
        // The pinned unit lies under the Hand: a small piece in the square's corner.
        const px = p.x + S * 0.8, py = p.y + S * 0.8;
        el('circle', { cx: px, cy: py, r: S * 0.19, class: `pinned ${u.pinned.side}` }, g);
        const mini = el('g', { class: `pinned-unit ${u.pinned.side}` }, g);
        drawPiece(mini, { letter: u.pinned.letter, side: u.pinned.side }, px - S * 0.19, py - S * 0.19, S * 0.38, letters);
      }
    }

    // Units the rules are about to remove (if the turn ended now): a red cross over each.
    const doomed = opts.doomed || [];
    if (doomed.length) {
      const g = el('g', { class: 'doomed' }, svg);
      for (const sq of doomed) {
        const p = pos(sq);
        const d = S * 0.3;
        const m = el('g', { class: 'doomed-mark', 'data-doomed': sq }, g);
        el('circle', { cx: p.cx, cy: p.cy, r: S * 0.45, class: 'doomed-ring', 'stroke-width': Math.max(2, S * 0.06) }, m);
        el('path', { d: `M${p.cx - d} ${p.cy - d}L${p.cx + d} ${p.cy + d}M${p.cx + d} ${p.cy - d}L${p.cx - d} ${p.cy + d}`, class: 'doomed-cross', 'stroke-width': Math.max(2, S * 0.07) }, m);
      }
    }

    // Units the last step took off the board: drawn where they stood, fading out. The fade
    // plays once per step: a redraw of the same step (`removedKey` unchanged: a click, a
    // clock's tick) goes on with the fade where it was (a negative delay), so a ghost long
    // faded stays so instead of coming back.
    const removed = opts.removed || [];
    let fadedMs = 0;
    if (opts.removedKey !== undefined) {
      if (lastRemoved && lastRemoved.key === opts.removedKey) fadedMs = Date.now() - lastRemoved.t0;
      else lastRemoved = { key: opts.removedKey, t0: Date.now() };
    }
    if (removed.length) {
      const g = el('g', { class: 'removed' }, svg);
      for (const r of removed) {
        const p = pos(r.square);
        // Taken where a unit now stands (a capture on the destination): fades out completely;
        // elsewhere (removals, captures off the destination) a faint trace stays.
        const taken = occupied.has(r.square) ? ' taken' : '';
        const ghost = el('g', { class: `removed-ghost ${r.side}${taken}`, 'data-removed': r.square, 'data-letter': r.letter }, g);
        if (fadedMs) ghost.style.animationDelay = `-${fadedMs}ms`;
        el('title', {}, ghost).textContent = `${r.side === 'white' ? 'White' : 'Black'} ${names[r.letter.toUpperCase()] || r.letter} removed from ${r.square}`;
        drawPiece(ghost, { letter: r.letter, side: r.side, colour: null }, p.x, p.y, S, letters);
      }
    }

    // A set of arrows with their own head: each a line from its step's square to short of
    // its destination; `line(a, i, geometry)` gives the line's own attributes, `after` may
    // add to it.
    const arrowSet = (list, cls, headCls, line, after) => {
      const shown = (list || []).filter((a) => a.from && a.to && a.from !== a.to);
      if (!shown.length) return;
      const id = `arrowhead-${++arrowIds}`;
      const defs = el('defs', {}, svg);
      const marker = el('marker', { id, viewBox: '0 0 10 10', refX: 5, refY: 5, markerWidth: 3.2, markerHeight: 3.2, orient: 'auto-start-reverse' }, defs);
      el('path', { d: 'M0 0L10 5L0 10z', class: headCls }, marker);
      const g = el('g', { class: cls }, svg);
      shown.forEach((a, i) => {
        const p = pos(a.from), q = pos(a.to);
        const dx = q.cx - p.cx, dy = q.cy - p.cy, len = Math.hypot(dx, dy) || 1;
        const back = S * 0.28;
        el('line', {
          x1: p.cx, y1: p.cy, x2: q.cx - (dx / len) * back, y2: q.cy - (dy / len) * back,
          'marker-end': `url(#${id})`, 'data-arrow-index': i, ...line(a),
        }, g);
        if (after) after(g, a, i, shown.length, p, dx, dy);
      });
    };
    // Arrows of the steps shown (the opponent's turn, step by step).
    arrowSet(opts.arrows, 'arrows', 'arrow-head', (a) => ({
      class: `arrow${a.current ? ' current' : ''}`, 'stroke-width': S * (a.current ? 0.13 : 0.09), 'data-arrow': `${a.from}-${a.to}`,
    }));
    // The engine's preferred turn (the analysis board): blue arrows, numbered in order.
    arrowSet(opts.hints, 'arrows hint-arrows', 'hint-arrow-head', (a) => ({
      class: 'hint-arrow', 'stroke-width': S * 0.11, 'data-hint-arrow': `${a.from}-${a.to}`,
    }), (g, a, i, n, p, dx, dy) => {
      if (n > 1) {
        el('text', { x: p.cx + dx * 0.5, y: p.cy + dy * 0.5, class: 'hint-arrow-number', 'text-anchor': 'middle', 'dominant-baseline': 'central', 'font-size': S * 0.28 }, g).textContent = String(i + 1);
      }
    });

    // Lead model: the leader leading the turn, a gold ring and a star with its mode's initial.
    if (leading && occupied.has(leading.square)) {
      const p = pos(leading.square);
      const g = el('g', { class: 'leading', 'data-leading': leading.square }, units);
      el('title', {}, g).textContent = `Leading the turn${leading.mode ? ` (${leading.mode})` : ''}: ${leading.used} of ${leading.budget} activations used`;
      el('circle', { cx: p.cx, cy: p.cy, r: S * 0.45, class: 'leading-ring', 'stroke-width': Math.max(2.5, S * 0.08) }, g);
      const bx = p.x + S * 0.18, by = p.y + S * 0.18;
      el('circle', { cx: bx, cy: by, r: S * 0.16, class: 'leading-badge' }, g);
      el('text', {
        x: bx, y: by + S * 0.01, 'text-anchor': 'middle', 'dominant-baseline': 'central', 'font-size': S * 0.2,
        class: 'leading-badge-text',
      }, g).textContent = leading.mode ? leading.mode.charAt(0).toUpperCase() : '\u2605';
    }

    // The selected unit: a ring on top of its disc.
    if (opts.selected && occupied.has(opts.selected)) {
      const p = pos(opts.selected);
      el('circle', { cx: p.cx, cy: p.cy, r: S * 0.44, class: 'selected-ring', 'stroke-width': Math.max(2, S * 0.07) }, units);
    }

    // Pieces an enemy Immobilizer freezes (Chessma 84): a blue frame.
    for (const sq of view.frozen || []) {
      const p = pos(sq);
      el('rect', {
        x: p.x + S * 0.06, y: p.y + S * 0.06, width: S * 0.88, height: S * 0.88, rx: S * 0.12,
        class: 'frozen', 'data-testid': `frozen-${sq}`,
      }, units);
    }

    // A King in check (chess, Chessma 84): a red glow under it, and a title that says so.
    for (const sq of view.check || []) {
      const p = pos(sq);
      const ring = el('circle', { cx: p.cx, cy: p.cy, r: S * 0.47, class: 'in-check', 'data-testid': `check-${sq}` }, units);
      el('title', {}, ring).textContent = `In check on ${sq}`;
    }
    // The enemy units giving that check (the rules' `checkers`): a dashed red ring, and a
    // title that says how each would take the King.
    for (const c of view.checkers || []) {
      const p = pos(c.square);
      const ring = el('circle', {
        cx: p.cx, cy: p.cy, r: S * 0.45, class: 'checker', 'data-testid': `checker-${c.square}`,
        'stroke-width': Math.max(2, S * 0.06),
      }, units);
      el('title', {}, ring).textContent = `Gives check: the ${c.piece} on ${c.square} ${c.how}`;
    }

    // Destinations of the selected unit: dots, rings for captures and pins.
    if (targets.size) {
      const g = el('g', { class: 'targets' }, svg);
      // What a step would take, wherever it stands (Chessma 84's Ultima captures, on either
      // board): a red cross on each, before the step is made.
      const taken = new Set();
      for (const steps of targets.values()) for (const s of steps) for (const c of s.removes || []) taken.add(c);
      for (const sq of taken) {
        const p = pos(sq);
        const x = el('g', { class: 'preview-capture', 'data-testid': `preview-capture-${sq}` }, g);
        const d = S * 0.3;
        el('line', { x1: p.cx - d, y1: p.cy - d, x2: p.cx + d, y2: p.cy + d, 'stroke-width': S * 0.08 }, x);
        el('line', { x1: p.cx - d, y1: p.cy + d, x2: p.cx + d, y2: p.cy - d, 'stroke-width': S * 0.08 }, x);
      }
      for (const [to, steps] of targets) {
        const p = pos(to);
        // A ring where the step takes or pins the unit standing there.
        const capture = occupied.has(to) || steps.some((s) => s.kind === 'pin' || (s.removes || []).includes(to));
        el('circle', capture
          ? { cx: p.cx, cy: p.cy, r: S * 0.45, class: 'target capture', 'data-target': to, 'stroke-width': S * 0.07 }
          : { cx: p.cx, cy: p.cy, r: S * 0.14, class: 'target', 'data-target': to }, g);
      }
    }
    // A piece diagram's destinations: a dot (move or capture), a hollow ring (move only), a
    // red cross (capture only, or a capture of a unit standing there).
    if (opts.marks && opts.marks.size) {
      const g = el('g', { class: 'marks' }, svg);
      for (const [sq, kind] of opts.marks) {
        const p = pos(sq);
        const a = { 'data-mark': sq, 'data-kind': kind };
        if (kind === 'capture') {
          const d = S * 0.22;
          const x = el('g', { ...a, class: 'mark capture' }, g);
          el('line', { x1: p.cx - d, y1: p.cy - d, x2: p.cx + d, y2: p.cy + d, 'stroke-width': S * 0.09 }, x);
          el('line', { x1: p.cx - d, y1: p.cy + d, x2: p.cx + d, y2: p.cy - d, 'stroke-width': S * 0.09 }, x);
        } else if (kind === 'move') {
          el('circle', { ...a, cx: p.cx, cy: p.cy, r: S * 0.16, class: 'mark move', 'stroke-width': S * 0.06 }, g);
        } else {
          el('circle', { ...a, cx: p.cx, cy: p.cy, r: S * 0.17, class: 'mark both' }, g);
        }
      }
    }
    if (opts.onDrag) dragging(svg, opts.onDrag, S);
    return svg;
  }

  // Drag and drop besides click-click: a unit picked up on one square and let go on another
  // is `onDrag(from, to)`; the unit follows the pointer meanwhile. A press and release on
  // one square stays a click. In a frame that scrolls (frame() below), holding the unit at
  // the frame's left or right edge scrolls the board under it.
  // A unit being dragged: a redraw now would drop it (the board is drawn anew), so the page
  // defers its redraws until the drag ends (`whenNotDragging`).
  let dragMoving = false;
  let afterDrag = null;
  function whenNotDragging(redraw) {
    if (!dragMoving) return false;
    afterDrag = redraw;
    return true;
  }

  function dragging(svg, onDrag, S) {
    const squareAt = (x, y) => {
      const r = document.elementsFromPoint(x, y).find((e) => e.dataset && e.dataset.square && svg.contains(e));
      return r ? r.dataset.square : null;
    };
    const scroller = () => (svg.parentElement && svg.parentElement.classList.contains('board-frame') ? svg.parentElement : null);
    let drag = null;
    // The unit under the pointer: its offset from the press, in board units, scrolling included.
    const follow = () => {
      const box = svg.getBoundingClientRect();
      const k = svg.viewBox.baseVal.width / box.width; // screen px to board units
      const f = scroller();
      const scrolled = f ? f.scrollLeft - drag.scroll : 0;
      const dx = (drag.px - drag.x + scrolled) * k, dy = (drag.py - drag.y) * k;
      return { dx, dy };
    };
    // Held for a moment within EDGE px of the frame's side: the board scrolls under the unit
    // (a unit let go on a square at the side, whose centre is further in, scrolls nothing).
    const EDGE = 16;
    const edgeScroll = () => {
      if (!drag || !drag.moved) return;
      const f = scroller();
      if (!f || f.scrollWidth <= f.clientWidth) return;
      const r = f.getBoundingClientRect();
      const step = drag.px > r.right - EDGE ? 8 : drag.px < r.left + EDGE ? -8 : 0;
      if (!step) { drag.edgeSince = 0; return; }
      const now = performance.now();
      if (!drag.edgeSince) drag.edgeSince = now;
      if (now - drag.edgeSince > 250) {
        const before = f.scrollLeft;
        f.scrollLeft += step;
        if (f.scrollLeft !== before) {
          const { dx, dy } = follow();
          drag.unit.setAttribute('transform', `translate(${dx} ${dy})`);
        }
      }
      drag.timer = requestAnimationFrame(edgeScroll);
    };
    svg.addEventListener('pointerdown', (e) => {
      const from = squareAt(e.clientX, e.clientY);
      const unit = from && svg.querySelector(`g.unit[data-unit="${CSS.escape(from)}"]`);
      if (!unit || e.button !== 0) return;
      const f = scroller();
      const grab = Boolean(svg.querySelector(`rect.grab[data-square="${CSS.escape(from)}"]`));
      drag = { from, unit, grab, x: e.clientX, y: e.clientY, px: e.clientX, py: e.clientY, moved: false, scroll: f ? f.scrollLeft : 0, timer: 0, edgeSince: 0 };
    });
    // A board that scrolls takes swipes (touch-action pan-x pan-y, style.css), but not on a
    // unit that may be dragged: there the finger drags the unit. (Chrome reads touch-action
    // on the <svg> only, not on its squares.)
    svg.addEventListener('touchmove', (e) => { if (drag && drag.grab && e.cancelable) e.preventDefault(); }, { passive: false });
    svg.addEventListener('pointermove', (e) => {
      if (!drag) return;
      drag.px = e.clientX;
      drag.py = e.clientY;
      const { dx, dy } = follow();
      if (!drag.moved && Math.hypot(dx, dy) < S / 4) return;
      if (!drag.moved) {
        drag.moved = true;
        dragMoving = true;
        svg.setPointerCapture(e.pointerId);
        drag.unit.classList.add('dragged');
      }
      drag.unit.setAttribute('transform', `translate(${dx} ${dy})`);
      cancelAnimationFrame(drag.timer);
      edgeScroll();
    });
    const drop = (e) => {
      const d = drag;
      drag = null;
      dragMoving = false;
      // Where it was dropped, read on this board before any redraw replaces it.
      const to = d && d.moved && e.type === 'pointerup' ? squareAt(e.clientX, e.clientY) : null;
      // A redraw that came during the drag (a draw offer, a clock, the opponent) happens now.
      const deferred = afterDrag;
      afterDrag = null;
      if (deferred) deferred();
      if (!d || !d.moved) return;
      cancelAnimationFrame(d.timer);
      d.unit.removeAttribute('transform');
      d.unit.classList.remove('dragged');
      // The click the browser sends after the release is the drag's, not a click of its own.
      svg.addEventListener('click', (c) => { c.stopPropagation(); c.preventDefault(); }, { capture: true, once: true });
      if (to && to !== d.from) onDrag(d.from, to);
    };
    svg.addEventListener('pointerup', drop);
    svg.addEventListener('pointercancel', drop);
  }

  // ---- the board on a narrow screen: a frame that scrolls, and a control to fit it

  // Squares smaller than MIN_TAP CSS px when the board is fitted to the screen are too small to
  // tap: the board is then drawn with TAP px squares in a frame that scrolls sideways, unless
  // the reader chose to fit the whole board (localStorage `cohort-board-fit`).
  const MIN_TAP = 36;
  const TAP = 40;
  function fitOn() {
    try { return localStorage.getItem('cohort-board-fit') === '1'; } catch { return false; }
  }
  function setFit(on) {
    try { localStorage.setItem('cohort-board-fit', on ? '1' : '0'); } catch { /* private mode */ }
  }
  // Where the reader left the frame scrolled, so a redraw (every click redraws the game page)
  // keeps it: one board per page, keyed by the caller (the game, the side at the bottom).
  const kept = { key: null, left: 0 };

  /**
   * `svg` (from render, squares of `size` px) in a frame: the board as before where it fits
   * with squares of at least MIN_TAP px; on a narrower screen, squares of TAP px in a frame
   * that scrolls sideways (the page itself does not), with a button to fit the whole board
   * (and back), kept for next time. opts: { size, key }. Returns the element to insert.
   */
  function frame(svg, opts = {}) {
    const S = opts.size || 44;
    const W = Number(svg.getAttribute('width'));
    const tapWidth = (W * TAP) / S;
    const wrap = document.createElement('div');
    wrap.className = `board-wrap${fitOn() ? ' fit' : ''}`;
    wrap.style.setProperty('--tap-width', `${tapWidth}px`);
    const box = document.createElement('div');
    box.className = 'board-frame';
    box.dataset.testid = 'board-frame';
    box.append(svg);
    const bar = document.createElement('div');
    bar.className = 'board-fit-bar';
    const button = document.createElement('button');
    button.type = 'button';
    button.dataset.testid = 'board-fit';
    const note = document.createElement('span');
    note.className = 'hint';
    const label = () => {
      const fit = wrap.classList.contains('fit');
      button.textContent = fit ? 'Larger squares' : 'Fit whole board';
      button.setAttribute('aria-pressed', String(fit));
      button.title = fit ? `Squares of ${TAP} px, the board scrolling sideways (kept for next time)`
        : 'The whole board on the screen, with small squares (kept for next time)';
      note.textContent = fit ? '' : 'Swipe the board sideways for more.';
    };
    button.addEventListener('click', () => {
      const fit = !wrap.classList.contains('fit');
      setFit(fit);
      wrap.classList.toggle('fit', fit);
      label();
    });
    label();
    bar.append(button, ' ', note);
    wrap.append(box, bar);
    // Narrow: the board fitted to the width it has would have squares under MIN_TAP px. The
    // frame is as wide as the page lets it be in both cases, so the test never flips back.
    let first = true;
    const measure = () => {
      if (!box.isConnected) return;
      const narrow = box.clientWidth > 0 && (box.clientWidth * S) / W < MIN_TAP;
      wrap.classList.toggle('narrow', narrow);
      if (first) {
        first = false;
        if (kept.key === opts.key) box.scrollLeft = kept.left;
        else if (narrow) {
          // A board only a little wider than the screen (Chessma 84's ten files on a phone)
          // opens at its middle: its edge files are cut, not a file of the game's centre.
          const over = box.scrollWidth - box.clientWidth;
          if (over > 0 && over <= 2 * TAP) box.scrollLeft = over / 2;
        }
      }
    };
    // Once the caller has put the frame in the page (the same task), then at every resize.
    queueMicrotask(measure);
    if (typeof ResizeObserver !== 'undefined') new ResizeObserver(measure).observe(box);
    box.addEventListener('scroll', () => { kept.key = opts.key; kept.left = box.scrollLeft; }, { passive: true });
    return wrap;
  }

  // The units giving check as the view names them (`checkers`): "the Rook on e8", "the Rook
  // on e8 and the Bishop on b4"; empty when none.
  function checkedBy(view) {
    const list = (view.checkers || []).map((c) => `the ${c.piece} on ${c.square}`);
    if (list.length < 2) return list.join('');
    return `${list.slice(0, -1).join(', ')} and ${list[list.length - 1]}`;
  }

  return { render, frame, isLight, lettersOn, setLetters, fitOn, whenNotDragging, checkedBy };
})();
