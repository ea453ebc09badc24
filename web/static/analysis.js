// The analysis board (`/analysis?game=<id>`, `/analysis?variant=<id>[&position=<text>]`): a
// finished game's turns with the engine's score over the game as a chart, its preferred turn
// at each point as blue arrows, the turns that lost the most marked (?!, ?, ??), and free
// moves from any point, evaluated on request. The engine runs in the browser by default (the
// WebAssembly module in a Web Worker, docs/wasm.md "Analysis in the browser": no budget, its
// depths shown as they finish), or on the server on request (docs/server.md, "Analysis"). A
// game analysed in the browser is saved with the game (`POST /api/games/<id>/analysis`) and
// shown from there to whoever opens it later. Legal steps and marks come from the rules
// (the module's views, or the server's where the module is missing; the module's `marks`);
// this file only draws them and asks. On the static site `cohort site` writes
// (`analysis.html`, `data-site="static"`) there is no server: views and searches are the
// browser's only.
'use strict';

// The module and its worker are found next to this script's folder (`/static/` on the
// server, `static/` of the static site): `/wasm/` or `wasm/`.
const ANALYSIS_SCRIPT = document.currentScript ? document.currentScript.src : location.href;
const wasmFile = (name) => new URL(`../wasm/${name}`, ANALYSIS_SCRIPT).href;

// How long a position is searched in the browser when evaluated (no budget to spend).
const LOCAL_EVAL_MS = 5000;
// The line kept for a point, in steps (the server's).
const LINE_STEPS = 24;

// The engine in a module Web Worker (/wasm/worker.js), one job at a time: a new job or a
// stop ends the running one at once (the worker is ended and a fresh one made), so the page
// never waits on it. `document.documentElement.dataset.localSearches` counts the jobs
// started (the browser tests read it).
function localEngine() {
  let worker = null;
  let running = 0;
  let next = 0;
  let onMessage = null;
  const fresh = () => {
    worker = new Worker(wasmFile('worker.js'), { type: 'module' });
    worker.onmessage = ({ data }) => {
      if (!data || data.id !== running || !onMessage) return;
      if (['done', 'analysed', 'error'].includes(data.type)) running = 0;
      onMessage(data);
    };
    worker.onerror = (e) => {
      if (running && onMessage) onMessage({ type: 'error', id: running, message: e.message || 'the engine could not start' });
      running = 0;
    };
  };
  return {
    run(job, handler) {
      this.stop();
      if (!worker) fresh();
      running = ++next;
      onMessage = handler;
      const root = document.documentElement;
      root.dataset.localSearches = String(Number(root.dataset.localSearches || 0) + 1);
      worker.postMessage({ ...job, id: running });
    },
    stop() {
      if (running && worker) { worker.terminate(); worker = null; }
      running = 0;
      onMessage = null;
    },
    busy: () => running !== 0,
  };
}

// Expected score for White of a score (the server's `expected`: 400 units give ten to one).
const expectedScore = (s) => 1 / (1 + Math.pow(10, -s / 400));
const MARKS = { inaccuracy: '?!', mistake: '?', blunder: '??' };
const SPEEDS = [['Quick (200 ms a turn)', 200], ['Normal (500 ms)', 500], ['Deep (1.5 s)', 1500]];

function scoreText(p) {
  if (!p) return '';
  if (p.side === null && p.decisive) return p.score > 0 ? 'White has won' : 'Black has won';
  if (p.side === null) return 'Drawn';
  if (p.decisive) return p.score > 0 ? 'White wins by force' : 'Black wins by force';
  const pawns = p.score / 100;
  return `${pawns > 0 ? '+' : ''}${pawns.toFixed(2)} (${pawns >= 0 ? 'White' : 'Black'} better)`;
}

// The score over the game: White's expected score from 1 (top) to 0, marks on the turns that
// lost, the point shown as a line; a click goes to the nearest point.
function scoreChart(points, current, onPoint) {
  const W = 600, H = 140, n = points.length;
  const ns = 'http://www.w3.org/2000/svg';
  const el = (tag, attrs, parent) => {
    const e = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (parent) parent.append(e);
    return e;
  };
  const x = (i) => (n > 1 ? 6 + (i / (n - 1)) * (W - 12) : W / 2);
  // 6 px kept at each edge so a mark at a won or lost point shows whole.
  const y = (p) => 6 + (H - 12) * (1 - expectedScore(p.side === null && !p.decisive ? 0 : p.score));
  const svg = el('svg', { viewBox: `0 0 ${W} ${H}`, class: 'score-chart', 'data-testid': 'score-chart', 'data-points': n, role: 'img' });
  el('title', {}, svg).textContent = 'The engine\'s score over the game (up: White better)';
  el('rect', { x: 0, y: 0, width: W, height: H, class: 'chart-black' }, svg);
  const line = points.map((p, i) => `${x(i).toFixed(1)},${y(p).toFixed(1)}`);
  el('polygon', { points: `0,${H} ${line.join(' ')} ${W},${H}`, class: 'chart-white' }, svg);
  el('line', { x1: 0, y1: H / 2, x2: W, y2: H / 2, class: 'chart-mid' }, svg);
  el('polyline', { points: line.join(' '), class: 'chart-line' }, svg);
  if (current >= 0) el('line', { x1: x(current), y1: 0, x2: x(current), y2: H, class: 'chart-now', 'data-testid': 'chart-now' }, svg);
  points.forEach((p, i) => {
    // A turn's mark is drawn where it led: the point after it.
    if (p.mark && i + 1 < n) {
      const dot = el('circle', { cx: x(i + 1), cy: y(points[i + 1]), r: 5, class: `chart-mark ${p.mark}`, 'data-testid': 'chart-mark', 'data-mark': p.mark }, svg);
      el('title', {}, dot).textContent = `${p.mark}: ${p.played.filter((t) => t !== 'end').join(' ')} (best: ${p.best.filter((t) => t !== 'end').join(' ')})`;
    }
  });
  svg.addEventListener('click', (e) => {
    const r = svg.getBoundingClientRect();
    const i = Math.round((((e.clientX - r.left) / r.width) * W - 6) / (W - 12) * (n - 1));
    onPoint(Math.max(0, Math.min(n - 1, i)));
  });
  return svg;
}

// The rules in the page (docs/wasm.md, "Analysis in the browser"): the WebAssembly module,
// or null where it cannot load (not built, no WebAssembly).
async function loadAnalysisRules() {
  if (!window.WebAssembly) return null;
  try {
    const { Cohort } = await import(wasmFile('cohort.js'));
    return await Cohort.load(wasmFile('cohort.wasm'));
  } catch {
    return null;
  }
}

const STEP_FIELDS = ['from', 'to', 'kind', 'promote', 'drop', 'lead_mode', 'sheet'];

// The view `POST /api/analysis/view` answers, made by the module: the position after the
// game's first `base` steps (`gameTurns`, as the game's view lists them, with each step's
// data and removals) and then `free` played from `start`. The turns are cut as the server
// cuts them (a new turn when the side to move changes); a free step's data and removals come
// from the rules (its listed step, what `make` reports it did). Throws the rules' message
// (with the free step's index) on a step that is not legal.
function localAnalysisView(cohort, variant, start, gameTurns, base, free) {
  const g = cohort.newGame(variant, start || undefined);
  try {
    const turns = [];
    let cur = { side: g.sideToMove(), steps: [], removed: [], moves: [] };
    const record = (text, removed, move, after) => {
      cur.steps.push(text); cur.removed.push(removed); cur.moves.push(move);
      if (after !== cur.side) { turns.push(cur); cur = { side: after, steps: [], removed: [], moves: [] }; }
    };
    let n = 0;
    for (const t of gameTurns) {
      for (const [i, text] of t.steps.entries()) {
        if (n++ >= base) break;
        const made = g.make(text);
        record(made.step, (t.removed && t.removed[i]) || [], (t.moves && t.moves[i]) || null, made.sideToMove);
      }
    }
    free.forEach((text, i) => {
      const listed = g.legalSteps().find((s) => s.text === text);
      let made;
      try { made = g.make(listed ? listed.index : text); } catch (e) { throw new Error(`steps[${i}]: ${e.message}`); }
      const removed = made.effects.filter((e) => e.type === 'removed').map((e) => ({ square: e.square, letter: e.letter, side: e.side }));
      const move = listed ? Object.fromEntries(STEP_FIELDS.map((k) => [k, listed[k]])) : null;
      record(made.step, removed, move, made.sideToMove);
    });
    const board = g.view();
    const outcome = board.outcome;
    delete board.outcome;
    const steps = g.legalSteps();
    const current = outcome ? null : cur;
    if (outcome && cur.steps.length) turns.push(cur);
    return {
      ...board,
      steps,
      can_end: steps.some((s) => s.kind === 'end'),
      turns: turns.filter((t) => t.steps.length),
      turn_steps: current ? current.steps : [],
      turn_removed: current ? current.removed : [],
      turn_moves: current ? current.moves : [],
      can_undo: Boolean(current && current.steps.length),
      result: outcome ? { winner: outcome.winner, reason: outcome.reason, text: outcome.text } : null,
      analysis_steps: free.length,
      local: true,
    };
  } finally {
    g.free();
  }
}

async function analysisPage() {
  const st = {
    game: params.get('game'), variant: params.get('variant'), position: params.get('position'),
    turns: [], ends: [], at: 0, free: [], view: null, name: '',
    analysis: null, evals: new Map(), selected: null, drop: null, choice: null,
    error: '', busy: false, ms: 500, flip: false,
    // Where the engine runs: 'local' (this browser, the default where it can) or 'server'.
    where: window.Worker && window.WebAssembly ? 'local' : 'server',
    start: null, // a game's start position (the local analysis plays its turns from it)
  };
  const localEng = localEngine();
  // A point from a local search's answer (`done`) or report (`info`), for the side to move.
  const localPoint = (side, r, done) => ({
    at: st.at, side, depth: r.depth, decisive: Boolean(r.decisive),
    score: done ? r.white_score : (side === 'white' ? r.score : -r.score),
    best: done ? r.turn : [], moves: done ? r.moves : [],
    line: done ? r.pv.slice(0, LINE_STEPS).join(' ') : (r.made || []).concat(r.line || []).slice(0, LINE_STEPS).join(' '),
    played: [], loss: 0, mark: null,
  });
  const views = new Map();
  const source = (free = st.free) => (st.game ? { game: st.game, at: st.at, steps: free }
    : { variant: st.variant, ...(st.position ? { position: st.position } : {}), steps: free });
  const fail = (msg) => app.replaceChildren(h('p', { class: 'error', 'data-testid': 'error' }, msg), h('p', {}, h('a', { href: STATIC_SITE ? './' : '/' }, 'All games')));

  if (STATIC_SITE && st.game) return fail('This site has no games: it analyses positions (analysis.html?variant=<id>).');
  if (!st.game && !st.variant) return fail('Say what to analyse: /analysis?game=<id>, or /analysis?variant=<id> with a position.');
  if (STATIC_SITE) st.where = 'local';
  let finished = true;
  if (st.game) {
    let g;
    try { g = await api('GET', `/api/games/${encodeURIComponent(st.game)}`); } catch (e) { return fail(e.message); }
    st.name = g.name;
    finished = Boolean(g.result);
    st.turns = allTurns(g);
    let n = 0;
    st.ends = st.turns.map((t) => (n += t.steps.length));
    st.result = g.result;
    st.custom = Boolean(g.custom);
    st.variantId = g.variant;
    if (st.custom) st.where = 'server';
  }
  if (!finished) {
    return fail('This game is in progress: its analysis opens when it ends.');
  }
  // The views from the rules in the page where the module loads (a custom game's variant is
  // the server's only): stepping through the game and trying steps ask the server nothing.
  // `document.documentElement.dataset.localViews` says which (the browser tests read it).
  let rules = null;
  if (!st.custom) {
    try {
      if (st.game) {
        const [cohort, start] = await Promise.all([loadAnalysisRules(), api('GET', `/api/games/${encodeURIComponent(st.game)}?at=0`)]);
        rules = cohort;
        st.start = start.position;
      } else {
        rules = await loadAnalysisRules();
      }
    } catch { rules = null; }
  }
  if (!rules && STATIC_SITE) return fail('The rules module could not be loaded (wasm/cohort.wasm): this page needs WebAssembly.');
  document.documentElement.dataset.localViews = rules ? 'on' : 'off';
  const localView = () => localAnalysisView(rules, st.game ? st.variantId : st.variant,
    st.game ? st.start : st.position, st.turns, st.game ? st.at : 0, st.free);

  const load = async () => {
    const key = JSON.stringify(source());
    let v = views.get(key);
    if (!v) {
      if (rules) {
        try {
          v = localView();
        } catch (e) {
          // The module refuses (a step not legal, a position that does not read): the
          // server's answer says why in its words; the static site has only the module's.
          if (STATIC_SITE) throw e;
        }
      }
      if (!v) v = await api('POST', '/api/analysis/view', source());
      views.set(key, v);
    }
    st.view = v;
    st.name = st.name || v.name;
  };
  const go = async (at, free = []) => {
    if (!(st.analysis && st.analysis.local && st.analysis.state === 'running')) localEng.stop();
    for (const [k, e] of st.evals) if (e.state === 'running' && e.local) st.evals.delete(k);
    st.at = at; st.free = free; st.selected = null; st.drop = null; st.choice = null; st.error = '';
    try { await load(); } catch (e) { st.error = e.message; }
    draw();
  };
  const playFree = async (text) => {
    if (st.busy) return;
    st.busy = true;
    const before = st.free;
    if (!(st.analysis && st.analysis.local && st.analysis.state === 'running')) localEng.stop();
    for (const [k, e] of st.evals) if (e.state === 'running' && e.local) st.evals.delete(k);
    st.free = st.free.concat([text]);
    st.selected = null; st.drop = null; st.choice = null;
    try { await load(); st.error = ''; } catch (e) { st.free = before; st.error = e.message; }
    st.busy = false;
    draw();
  };
  // The analysis of the point shown: the game's (no free moves) or an evaluation asked for.
  const pointNow = () => {
    if (!st.free.length && st.analysis) {
      const p = st.analysis.points.find((q) => q.at === st.at);
      if (p) return p;
    }
    const e = st.evals.get(JSON.stringify(source()));
    return e && e.points.length ? e.points[0] : null;
  };
  const poll = async (id, into) => {
    for (;;) {
      let a;
      try { a = await api('GET', `/api/analysis/${id}`); } catch (e) { st.error = e.message; draw(); return; }
      into(a);
      draw();
      if (a.state !== 'running') return;
      await new Promise((r) => setTimeout(r, 600));
    }
  };
  // The game analysed in this browser, point by point, then saved with the game.
  const analyseLocally = async () => {
    st.error = '';
    try {
      if (!st.start) st.start = (await api('GET', `/api/games/${encodeURIComponent(st.game)}?at=0`)).position;
    } catch (e) { st.error = e.message; return draw(); }
    const turns = st.turns.map((t) => t.steps).filter((t) => t.length);
    st.analysis = { state: 'running', done: 0, total: turns.length + 1, points: [], local: true };
    draw();
    localEng.run({ type: 'analyse', variant: st.view.variant, start: st.start, turns, ms: st.ms }, async (m) => {
      if (m.type === 'point') {
        st.analysis = { ...st.analysis, done: m.done, total: m.total, points: m.points };
      } else if (m.type === 'analysed') {
        st.analysis = { ...st.analysis, state: 'done', done: m.points.length, points: m.points, saving: true };
        draw();
        try {
          const saved = await api('POST', `/api/games/${encodeURIComponent(st.game)}/analysis`, { ms: st.ms, points: m.points });
          st.analysis = { state: 'done', done: saved.points.length, total: saved.points.length, points: saved.points, local: true, saved: true };
        } catch (e) {
          st.analysis = { ...st.analysis, saving: false };
          st.error = `The analysis is shown but was not saved: ${e.message}`;
        }
      } else if (m.type === 'error') {
        st.analysis = { ...st.analysis, state: 'failed', error: `The analysis in this browser failed: ${m.message}` };
      }
      draw();
    });
  };
  // A position searched in this browser: its depths shown as they finish.
  const evaluateLocally = () => {
    st.error = '';
    const key = JSON.stringify(source());
    const v = st.view;
    const side = v.to_move;
    st.evals.set(key, { state: 'running', points: [], local: true });
    draw();
    localEng.run({ type: 'search', variant: v.variant, position: v.position, ms: LOCAL_EVAL_MS }, (m) => {
      if (m.type === 'info') st.evals.set(key, { state: 'running', points: [localPoint(side, m, false)], local: true, updates: (st.evals.get(key).updates || 0) + 1 });
      else if (m.type === 'done') st.evals.set(key, { state: 'done', points: [localPoint(side, m, true)], local: true, updates: (st.evals.get(key) || {}).updates || 0 });
      else if (m.type === 'error') { st.evals.delete(key); st.error = `The engine in this browser failed: ${m.message}`; }
      if (JSON.stringify(source()) === key) draw();
    });
  };
  const analyseGame = async () => {
    if (st.where === 'local') return analyseLocally();
    st.error = '';
    try {
      const r = await api('POST', '/api/analysis', { game: st.game, ms: st.ms });
      const url = new URL(location.href);
      url.searchParams.set('analysis', r.id);
      history.replaceState(null, '', url);
      st.analysis = { state: 'running', done: 0, total: r.total, points: [] };
      draw();
      poll(r.id, (a) => { st.analysis = a; });
    } catch (e) { st.error = e.message; draw(); }
  };
  const evaluate = async () => {
    if (st.where === 'local') return evaluateLocally();
    st.error = '';
    const key = JSON.stringify(source());
    try {
      const r = await api('POST', '/api/analysis', { ...source(), ms: Math.max(st.ms, 500) });
      st.evals.set(key, { state: 'running', points: [] });
      draw();
      poll(r.id, (a) => st.evals.set(key, a));
    } catch (e) { st.error = e.message; draw(); }
  };

  // The steps a unit on `sq` may start, as the rules list their origins (an Ataxx clone
  // from any adjacent stone); a view without origins falls back to `from`.
  const starts = (s, sq) => (s.origins ? s.origins.includes(sq) : s.from === sq);

  const onSquare = (sq) => {
    const v = st.view;
    if (!v || st.busy) return;
    if (v.result) { st.error = 'The game is over in this position.'; return draw(); }
    st.error = '';
    st.choice = null;
    const leads = v.steps.filter((s) => s.kind === 'lead' && s.from === sq);
    if (leads.length === 1) return playFree(leads[0].text);
    if (leads.length > 1) { st.choice = leads; return draw(); }
    const from = st.drop ? null : st.selected;
    if (st.drop || st.selected) {
      const t = v.steps.filter((s) => s.to === sq && s.kind !== 'lead' && s.kind !== 'end'
        && (st.drop ? s.kind === 'drop' && s.drop.toUpperCase() === st.drop.toUpperCase() : starts(s, from)));
      if (t.length === 1) return playFree(t[0].text);
      if (t.length > 1) { st.choice = t; return draw(); }
    }
    if (st.selected !== sq && v.movable.includes(sq) && v.steps.some((s) => starts(s, sq) && s.kind !== 'lead')) {
      st.selected = sq; st.drop = null;
    } else {
      const unit = v.units.find((u) => u.square === sq);
      st.selected = null;
      if (unit && v.why_not && v.why_not[sq]) st.error = `${sq} may not move now: ${v.why_not[sq]}.`;
    }
    draw();
  };

  // A unit dragged from one square to another: the same as clicking the two.
  const onDrag = (from, to) => {
    if (st.selected !== from) { st.selected = null; onSquare(from); }
    if (st.selected === from) onSquare(to);
  };

  const draw = () => {
    const v = st.view;
    if (!v) return;
    // The search's news comes several times a second: a unit in hand waits for its drop.
    if (CohortBoard.whenNotDragging(draw)) return;
    document.title = `Analysis: ${st.name}: Cohort`;
    const point = pointNow();
    const targets = new Map();
    for (const s of v.steps) {
      const hit = st.drop ? s.kind === 'drop' && s.drop.toUpperCase() === st.drop.toUpperCase() : starts(s, st.selected) && s.kind !== 'lead' && s.kind !== 'end';
      if ((st.selected || st.drop) && hit) { if (!targets.has(s.to)) targets.set(s.to, []); targets.get(s.to).push(s); }
    }
    const last = lastStepOf(v);
    const size = v.files > 12 ? 44 : v.files > 8 ? 52 : 64;
    const hints = point && point.moves ? point.moves.filter((m) => m && m.from && m.to).map((m) => ({ from: m.from, to: m.to })) : [];
    const board = h('div', {
      class: 'board', 'data-testid': 'board', 'data-position': v.position, 'data-to-move': v.to_move, 'data-at': st.at,
      'data-free': st.free.join(' '), 'data-hints': hints.map((a) => `${a.from}-${a.to}`).join(' '),
    }, CohortBoard.frame(CohortBoard.render(v, {
      size, flip: st.flip, selected: st.selected, targets, onSquare, onDrag: v.result ? null : onDrag, interactive: !v.result, hints,
      last: last && last.move ? [last.move] : [], removed: last ? last.removed : [],
    }), { size, key: `analysis ${st.game || st.variant} ${st.flip}` }));
    const panel = h('div', { class: 'panel analysis-panel' });
    panel.append(h('h1', {}, `Analysis: ${st.name} `, st.game ? h('a', { class: 'vid', href: `/game/${st.game}` }, st.game) : h('span', { class: 'vid' }, st.variant)));
    const turnIndex = st.ends.findIndex((e) => e === st.at);
    const where = st.at === 0 ? 'Start position' : turnIndex >= 0 ? `After turn ${turnNumbers(st.turns)[turnIndex]}, ${cap(st.turns[turnIndex].side)}` : `After step ${st.at}`;
    panel.append(h('p', { class: 'status', 'data-testid': 'status' }, st.game ? where : 'Position', st.free.length ? `, then your line: ${st.free.join(' ')}` : '',
      v.result ? `; ${v.result.text}` : `; ${cap(v.to_move)} to move`));
    // The engine's view of this point.
    const engine = h('div', { class: 'engine-box', 'data-testid': 'engine-line' });
    const evalNow = st.evals.get(JSON.stringify(source()));
    const live = Boolean(evalNow && evalNow.local && evalNow.state === 'running' && point && evalNow.points[0] === point);
    if (point) {
      engine.append(h('p', {}, h('b', { 'data-testid': 'engine-score', 'data-score': point.score }, scoreText(point)),
        point.side ? h('span', { 'data-testid': 'engine-depth', 'data-depth': point.depth, 'data-updates': evalNow && evalNow.updates ? evalNow.updates : 0, 'data-live': live ? 'yes' : 'no' },
          ` \u00b7 depth ${point.depth}${live ? ' (searching in this browser...)' : ''}`) : ''));
      if (point.best && point.best.length) engine.append(h('p', {}, 'Best turn: ', h('code', { 'data-testid': 'engine-best' }, point.best.join(' '))));
      if (point.line) engine.append(h('p', { class: 'hint' }, 'Line: ', h('code', {}, point.line)));
      if (point.mark) engine.append(h('p', { class: `mark-note ${point.mark}`, 'data-testid': 'mark-note' }, `The turn played here, ${point.played.filter((t) => t !== 'end').join(' ')}, was a ${point.mark} (${Math.round(point.loss * 100)}% of the expected score lost).`));
    } else {
      const pending = (st.analysis && st.analysis.state === 'running' && !st.free.length) || (st.evals.get(JSON.stringify(source())) || {}).state === 'running';
      engine.append(h('p', { class: 'hint' }, pending ? 'The engine is thinking...' : 'No evaluation of this position yet.'));
    }
    panel.append(engine);
    const speed = h('select', { 'data-testid': 'analysis-ms', onchange: (e) => { st.ms = Number(e.target.value); } },
      SPEEDS.map(([label, ms]) => h('option', { value: ms, selected: ms === st.ms }, label)));
    const whereSel = h('select', { 'data-testid': 'analysis-where', onchange: (e) => { st.where = e.target.value; localEng.stop(); draw(); } },
      h('option', { value: 'local', selected: st.where === 'local', disabled: Boolean(st.custom) || !window.Worker }, 'Engine in this browser'),
      h('option', { value: 'server', selected: st.where === 'server' }, 'Analyse on the server (slow devices; hourly budget)'));
    const tools = h('div', { class: 'buttons' },
      st.game && !st.analysis ? h('button', { 'data-testid': 'analyse-game', onclick: analyseGame }, 'Analyse the game') : null,
      st.game && !st.analysis ? speed : null,
      STATIC_SITE ? null : whereSel,
      // (Not while the game is analysed in this browser: one search at a time there.)
      !v.result && !(point && !st.free.length && st.analysis) && !(st.analysis && st.analysis.local && st.analysis.state === 'running')
        ? h('button', { 'data-testid': 'evaluate', onclick: evaluate }, 'Evaluate this position') : null,
      h('button', { 'data-testid': 'flip', onclick: () => { st.flip = !st.flip; draw(); } }, 'Flip'));
    panel.append(tools);
    // Play the position shown against the AI at a level: a new game from here (the server's;
    // not for a custom variant, nor in the middle of a turn).
    if (!STATIC_SITE && !st.custom && !v.result && !v.can_end) {
      if (!st.level) st.level = levelSelect('play-level', v.variant);
      else st.level.follow(v.variant);
      const go = h('button', { 'data-testid': 'play-from-here-go', onclick: async () => {
        const me = v.to_move;
        go.disabled = true;
        try {
          const created = await api('POST', '/api/games', { variant: v.variant, [me]: 'human', [other(me)]: 'ai',
            ai: { agent: st.level.select.value, time_ms: 1000 }, position: v.position });
          try { localStorage.setItem(`cohort-game-${created.id}`, JSON.stringify({ ...created, creator: me })); } catch { /* private mode */ }
          location.href = created.links[me];
        } catch (e) { st.error = e.message; go.disabled = false; draw(); }
      } }, `Play it as ${cap(v.to_move)}`);
      panel.append(h('div', { class: 'buttons play-from-here', 'data-testid': 'play-from-here' },
        h('label', {}, 'Against the AI from here: ', st.level.select), go, st.level.about));
    }
    if (st.analysis && st.analysis.state === 'running') {
      panel.append(h('p', { 'data-testid': 'analysis-progress' }, `Analysing: ${st.analysis.done} of ${st.analysis.total} positions `,
        h('progress', { max: st.analysis.total, value: st.analysis.done })));
    }
    if (st.analysis && st.analysis.saved) panel.append(h('p', { class: 'hint', 'data-testid': 'analysis-saved' }, 'Analysed in a browser and saved with the game.'));
    if (st.analysis && st.analysis.saving) panel.append(h('p', { class: 'hint', 'data-testid': 'analysis-saving' }, 'Saving the analysis with the game...'));
    if (st.analysis && st.analysis.state === 'failed') panel.append(h('p', { class: 'error' }, st.analysis.error || 'The analysis failed.'));
    if (st.analysis && st.analysis.points.length > 1) {
      const idx = st.free.length ? -1 : st.analysis.points.findIndex((p) => p.at === st.at);
      panel.append(scoreChart(st.analysis.points, idx, (i) => go(st.analysis.points[i].at)));
    }
    // Free moves: the steps played from the point, undone one by one or all at once.
    const free = h('div', { class: 'buttons' },
      v.can_end ? h('button', { 'data-testid': 'end-turn', onclick: () => playFree('end') }, 'End turn') : null,
      st.free.length ? h('button', { 'data-testid': 'free-undo', onclick: () => go(st.at, st.free.slice(0, -1)) }, 'Take back a step') : null,
      st.free.length && st.game ? h('button', { 'data-testid': 'free-clear', onclick: () => go(st.at) }, 'Back to the game') : null);
    if (free.childElementCount) panel.append(free);
    const pocket = v.result ? [] : (v.pocket[v.to_move] || []);
    if (pocket.length) {
      panel.append(h('p', { class: 'buttons' }, 'Place: ', [...new Set(pocket)].map((l) => h('button', {
        class: st.drop === l ? 'on' : '', 'data-testid': `free-drop-${l}`, onclick: () => { st.drop = st.drop === l ? null : l; st.selected = null; draw(); },
      }, l))));
    }
    if (st.choice) {
      panel.append(h('p', { class: 'buttons' }, 'Which step? ', st.choice.map((s) => h('button', { 'data-testid': 'free-choice', onclick: () => playFree(s.text) }, s.text))));
    }
    if (st.error) panel.append(h('p', { class: 'error', 'data-testid': 'analysis-error' }, st.error));
    if (!st.game) {
      // Any position of the variant (NOTATION.md position string): the one shown, editable.
      const input = h('input', { type: 'text', value: v.position, 'data-testid': 'position-text', size: 40, 'aria-label': 'Position' });
      panel.append(h('form', { class: 'buttons', onsubmit: (e) => {
        e.preventDefault();
        const url = new URL(location.href);
        url.searchParams.set('position', input.value.trim());
        location.assign(url);
      } }, 'Position: ', input, h('button', { type: 'submit', 'data-testid': 'position-go' }, 'Set up')));
    }
    if (st.game) {
      const i = st.ends.indexOf(st.at);
      const at = (n) => () => go(Math.max(0, Math.min(n, st.ends.length ? st.ends[st.ends.length - 1] : 0)));
      const prev = i > 0 ? st.ends[i - 1] : 0;
      const next = i >= 0 ? st.ends[i + 1] : st.ends[0];
      panel.append(h('div', { class: 'buttons' },
        h('button', { 'data-testid': 'analysis-first', onclick: at(0) }, '\u00ab Start'),
        h('button', { 'data-testid': 'analysis-prev', onclick: st.at === 0 ? null : at(st.free.length ? st.at : prev) }, '\u2039 Back'),
        h('button', { 'data-testid': 'analysis-next', onclick: next === undefined ? null : at(next) }, 'Next \u203a'),
        h('button', { 'data-testid': 'analysis-last', onclick: at(Infinity) }, 'End \u00bb')));
      panel.append(h('h2', {}, 'Moves (click a turn)'));
      const list = moveList(st.turns, { current: st.free.length ? -1 : st.ends.indexOf(st.at), names: namesOf(v), onTurn: (end) => go(end) });
      if (st.analysis) {
        st.analysis.points.forEach((p, k) => {
          const cell = list.querySelector(`[data-turn="${k + 1}"]`);
          if (cell && p.mark) cell.append(h('span', { class: `mark ${p.mark}`, 'data-testid': 'turn-mark', 'data-mark': p.mark, title: `${p.mark}; best: ${p.best.join(' ')}` }, MARKS[p.mark]));
        });
      }
      panel.append(list);
      panel.append(h('p', { class: 'hint' }, 'Click the board to try your own steps from the point shown; the engine evaluates them on request. The engine runs in this browser (no limit); analyses on the server spend your hourly share of its search time.'));
    }
    app.replaceChildren(h('div', { class: 'game analysis' }, board, panel));
  };

  await go(0);
  if (!st.view) return fail(st.error || 'This position cannot be shown.');
  const saved = params.get('analysis');
  if (st.game && !saved) {
    // An analysis saved with the game: shown at once, no search.
    try {
      const a = await api('GET', `/api/games/${encodeURIComponent(st.game)}/analysis`);
      if (!a.saved) throw new Error('none saved');
      st.analysis = { state: 'done', done: a.points.length, total: a.points.length, points: a.points, saved: true };
      document.documentElement.dataset.savedAnalysis = 'shown';
      draw();
    } catch { document.documentElement.dataset.savedAnalysis = 'none'; }
  }
  if (saved) {
    st.analysis = { state: 'running', done: 0, total: 0, points: [] };
    poll(saved, (a) => { st.analysis = a; });
  }
  document.addEventListener('keydown', (e) => {
    if (!st.game || (e.target && ['INPUT', 'SELECT'].includes(e.target.tagName))) return;
    const i = st.ends.indexOf(st.at);
    if (e.key === 'ArrowLeft' && st.at > 0) go(i > 0 ? st.ends[i - 1] : 0);
    if (e.key === 'ArrowRight') {
      const next = i >= 0 ? st.ends[i + 1] : st.ends[0];
      if (next !== undefined) go(next);
    }
    if (e.key === 'Escape' && (st.selected || st.drop || st.choice)) { st.selected = null; st.drop = null; st.choice = null; draw(); }
  });
}
