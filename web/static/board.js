// Cohort's board: our own SVG drawing of any rectangular board up to 16x16, from a
// GameView (docs/server.md). No framework; `CohortBoard.render` returns an <svg> element.
'use strict';

const CohortBoard = (() => {
  const NS = 'http://www.w3.org/2000/svg';
  const FILES = 'abcdefghijklmnop';
  const GLYPHS = { K: '\u265A', Q: '\u265B', R: '\u265C', B: '\u265D', N: '\u265E', P: '\u265F' };

  function el(name, attrs, parent) {
    const e = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    if (parent) parent.appendChild(e);
    return e;
  }

  function squareName(file, rank) {
    return FILES[file] + (rank + 1);
  }

  function parseSquare(name) {
    return { file: FILES.indexOf(name[0]), rank: parseInt(name.slice(1), 10) - 1 };
  }

  // Perceived brightness of a #rrggbb colour, to pick a readable letter colour.
  function light(hex) {
    const n = parseInt(hex.slice(1), 16);
    const r = (n >> 16) & 255, g = (n >> 8) & 255, b = n & 255;
    return 0.299 * r + 0.587 * g + 0.114 * b > 150;
  }

  /**
   * view: a GameView (or the `start` board of a VariantInfo).
   * opts: { size: square size in px, flip, selected, targets: Map(square -> steps),
   *         onSquare(name), showCommand, interactive }
   */
  function render(view, opts = {}) {
    const S = opts.size || 44;
    const M = opts.small ? 0 : Math.round(S * 0.45); // margin for coordinates
    const files = view.files, ranks = view.ranks;
    const W = files * S + M, H = ranks * S + M;
    const svg = el('svg', { viewBox: `0 0 ${W} ${H}`, width: W, height: H, class: 'board-svg', role: 'img',
      'aria-label': `${view.name || view.variant} board` });
    const pos = (sq) => {
      const { file, rank } = typeof sq === 'string' ? parseSquare(sq) : sq;
      const x = (opts.flip ? files - 1 - file : file) * S + M;
      const y = (opts.flip ? rank : ranks - 1 - rank) * S;
      return { x, y, cx: x + S / 2, cy: y + S / 2 };
    };
    const movable = new Set(view.movable || []);
    const moved = new Set((view.units || []).filter((u) => u.moved).map((u) => u.square));
    const targets = opts.targets || new Map();

    // Squares (the click targets).
    const squares = el('g', { class: 'squares' }, svg);
    for (let rank = 0; rank < ranks; rank++) {
      for (let file = 0; file < files; file++) {
        const name = squareName(file, rank);
        const { x, y } = pos({ file, rank });
        const cls = ['sq', (file + rank) % 2 === 0 ? 'dark' : 'light'];
        if (moved.has(name)) cls.push('moved');
        if (opts.selected === name) cls.push('selected');
        if (opts.interactive && movable.has(name)) cls.push('movable');
        const r = el('rect', { x, y, width: S, height: S, class: cls.join(' '),
          'data-testid': `sq-${name}`, 'data-square': name }, squares);
        if (opts.onSquare) r.addEventListener('click', () => opts.onSquare(name));
      }
    }

    // Coordinates.
    if (!opts.small) {
      const coords = el('g', { class: 'coords' }, svg);
      for (let f = 0; f < files; f++) {
        const { cx } = pos({ file: f, rank: 0 });
        el('text', { x: cx, y: ranks * S + M * 0.72, 'text-anchor': 'middle' }, coords).textContent = FILES[f];
      }
      for (let r = 0; r < ranks; r++) {
        const { cy } = pos({ file: 0, rank: r });
        el('text', { x: M * 0.45, y: cy + S * 0.12, 'text-anchor': 'middle' }, coords).textContent = String(r + 1);
      }
    }

    // Command overlay: chains (links between adjacent linked units) or Chieftain ranges.
    if (opts.showCommand && view.command_info) {
      const g = el('g', { class: 'command' }, svg);
      const info = view.command_info;
      if (info.range) {
        for (const l of info.leaders) {
          const { file, rank } = parseSquare(l);
          const lo = { file: Math.max(0, file - info.range), rank: Math.max(0, rank - info.range) };
          const hi = { file: Math.min(files - 1, file + info.range), rank: Math.min(ranks - 1, rank + info.range) };
          const a = pos(lo), b = pos(hi);
          el('rect', { x: Math.min(a.x, b.x) + 2, y: Math.min(a.y, b.y) + 2,
            width: Math.abs(a.x - b.x) + S - 4, height: Math.abs(a.y - b.y) + S - 4, class: 'range' }, g);
        }
      }
      for (const [a, b] of info.links || []) {
        const p = pos(a), q = pos(b);
        el('line', { x1: p.cx, y1: p.cy, x2: q.cx, y2: q.cy, class: 'link' }, g);
      }
      for (const l of info.leaders || []) {
        const p = pos(l);
        el('circle', { cx: p.cx, cy: p.cy, r: S * 0.47, class: 'leader-mark' }, g);
      }
    }

    // Units.
    const units = el('g', { class: 'units' }, svg);
    for (const u of view.units || []) {
      const p = pos(u.square);
      const g = el('g', { class: `unit ${u.side}`, 'data-unit': u.square }, units);
      const chess = view.command === 'single' && GLYPHS[u.letter.toUpperCase()];
      if (chess) {
        const t = el('text', { x: p.cx, y: p.cy + S * 0.3, 'text-anchor': 'middle', class: `glyph ${u.side}`,
          'font-size': S * 0.82 }, g);
        t.textContent = GLYPHS[u.letter.toUpperCase()];
      } else {
        el('circle', { cx: p.cx, cy: p.cy, r: S * 0.38, fill: u.colour,
          class: `disc ${u.side}`, 'stroke-width': u.side === 'black' ? S * 0.09 : S * 0.04 }, g);
        const t = el('text', { x: p.cx, y: p.cy + S * 0.14, 'text-anchor': 'middle',
          'font-size': S * 0.4, class: 'letter', fill: light(u.colour) ? '#1d1d1d' : '#fafafa' }, g);
        t.textContent = u.letter;
      }
      if (u.pinned) {
        const px = p.x + S * 0.8, py = p.y + S * 0.8;
        el('circle', { cx: px, cy: py, r: S * 0.18, class: `pinned ${u.pinned.side}` }, g);
        el('text', { x: px, y: py + S * 0.07, 'text-anchor': 'middle', 'font-size': S * 0.2, class: 'pinned-letter' }, g)
          .textContent = u.pinned.letter;
      }
    }

    // Destinations of the selected unit: dots, rings for captures and pins.
    if (targets.size) {
      const g = el('g', { class: 'targets' }, svg);
      for (const [to, steps] of targets) {
        const p = pos(to);
        const capture = steps.some((s) => s.text.includes('x') || s.text.includes('~'));
        el('circle', capture
          ? { cx: p.cx, cy: p.cy, r: S * 0.44, class: 'target capture', 'data-target': to }
          : { cx: p.cx, cy: p.cy, r: S * 0.14, class: 'target', 'data-target': to }, g);
      }
    }
    return svg;
  }

  return { render, parseSquare, squareName };
})();
