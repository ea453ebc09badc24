// Cohort's optional accounts (docs/server.md, "Accounts"): the account line in every page's
// header (log in, sign up, the player page, log out), the log-in / sign-up page and the player
// page (ratings with a chart per variant, games in progress with "your turn", finished games
// with their dates and rating changes, filtered by variant and result).
'use strict';

(function () {
  const page = document.body.dataset.page;

  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k.startsWith('on') && typeof v === 'function') e[k] = v;
      else if (v !== null && v !== undefined && v !== false) e.setAttribute(k, v === true ? '' : v);
    }
    for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) e.append(c);
    return e;
  }

  async function call(method, path, body) {
    let r;
    try {
      r = await fetch(path, {
        method, credentials: 'same-origin',
        headers: body ? { 'content-type': 'application/json' } : {},
        body: body ? JSON.stringify(body) : undefined,
      });
    } catch {
      throw new Error('The server cannot be reached; check your connection.');
    }
    let data = null;
    try { data = await r.json(); } catch { data = null; }
    if (!r.ok) throw new Error(data && data.error ? data.error : `The server answered ${r.status}.`);
    return data;
  }

  let me = null;
  const ready = call('GET', '/api/account').then((a) => { me = a.username; return me; }).catch(() => null);

  async function header() {
    const nav = document.getElementById('account');
    if (!nav) return;
    const name = await ready;
    nav.replaceChildren(...[
      el('a', { href: '/lobby', 'data-testid': 'nav-lobby' }, 'Lobby'),
      el('a', { href: '/tournaments', 'data-testid': 'nav-tournaments' }, 'Tournaments'),
      name
        ? [el('a', { href: `/player/${encodeURIComponent(name)}`, 'data-testid': 'nav-me' }, name),
          el('button', { class: 'small', 'data-testid': 'logout', onclick: async () => {
            try { await call('POST', '/api/account/logout'); } catch { /* shown by the next page */ }
            location.href = '/';
          } }, 'Log out')]
        : el('a', { href: `/login?next=${encodeURIComponent(location.pathname + location.search)}`, 'data-testid': 'nav-login' }, 'Log in / sign up'),
    ].flat());
  }

  function loginPage() {
    document.title = 'Log in: Cohort';
    const app = document.getElementById('app');
    // The server checked `next` (pages.rs, safe_next) and gives it in data-next; checked
    // again here: one leading '/', no '//', no backslash, control character or space, also
    // once percent-decoded.
    const next = document.body.dataset.next || '/lobby';
    const plain = (p) => p.startsWith('/') && !p.startsWith('//') && !/[\\\s\u0000-\u001f\u007f]/.test(p);
    let decoded = next;
    try { decoded = decodeURIComponent(next); } catch { decoded = '//'; }
    const safeNext = plain(next) && plain(decoded) ? next : '/';
    const form = (kind) => {
      const user = el('input', { name: 'username', autocomplete: 'username', required: true, 'data-testid': `${kind}-username` });
      const pass = el('input', { name: 'password', type: 'password', required: true,
        autocomplete: kind === 'signup' ? 'new-password' : 'current-password', 'data-testid': `${kind}-password` });
      const err = el('p', { class: 'error', 'data-testid': `${kind}-error`, role: 'alert' });
      const f = el('form', { class: 'account-form', 'data-testid': `${kind}-form` },
        el('h2', {}, kind === 'signup' ? 'Sign up' : 'Log in'),
        el('label', {}, 'Username ', user), el('label', {}, 'Password ', pass),
        kind === 'signup' ? el('p', { class: 'hint' }, '3 to 20 letters, digits, _ or -; a password of at least 8 characters.') : null,
        el('button', { type: 'submit', class: 'primary', 'data-testid': `${kind}-submit` }, kind === 'signup' ? 'Create account' : 'Log in'), err);
      f.onsubmit = async (ev) => {
        ev.preventDefault();
        err.textContent = '';
        try {
          await call('POST', `/api/account/${kind}`, { username: user.value, password: pass.value });
          location.href = safeNext;
        } catch (e) { err.textContent = e.message; }
      };
      return f;
    };
    app.append(el('section', { class: 'intro' }, el('h1', {}, 'Your account'),
      el('p', {}, 'An account is optional: anyone can play without one. With one, your games are listed on your ',
        'player page and games between two accounts can be rated (Glicko-2, per variant).')),
    el('div', { class: 'account-forms' }, form('login'), form('signup')));
  }

  // A finished game's outcome for the player: win, loss, draw or aborted.
  function outcomeOf(g) {
    if (!g.result) return null;
    if (g.result.winner) return g.result.winner === g.seat ? 'win' : 'loss';
    return g.result.reason === 'aborted' ? 'aborted' : 'draw';
  }

  const SVG = 'http://www.w3.org/2000/svg';
  function svg(tag, attrs, ...children) {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    for (const c of children) e.append(c);
    return e;
  }

  // A variant's rating over its rated games: a line from the rating before the first to
  // the rating after the last, dated below, the lowest and highest at the left.
  function ratingChart(variant, name, points) {
    const W = 360, H = 140, L = 44, R = 8, T = 10, B = 24;
    const ratings = points.map((p) => p[1]);
    let lo = Math.min(...ratings), hi = Math.max(...ratings);
    if (hi - lo < 40) { lo -= 20; hi += 20; }
    const x = (i) => L + (points.length > 1 ? (i * (W - L - R)) / (points.length - 1) : (W - L - R) / 2);
    const y = (r) => T + ((hi - r) * (H - T - B)) / (hi - lo);
    const line = points.map((p, i) => `${x(i).toFixed(1)},${y(p[1]).toFixed(1)}`).join(' ');
    const day = (ms) => new Date(ms).toISOString().slice(0, 10);
    return el('figure', { class: 'rating-chart', 'data-testid': `rating-chart-${variant}`, 'data-points': String(points.length) },
      svg('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': `${name}: rating from ${ratings[0]} to ${ratings[ratings.length - 1]} over ${points.length - 1} rated games` },
        svg('line', { x1: L, y1: T, x2: L, y2: H - B, class: 'axis' }),
        svg('line', { x1: L, y1: H - B, x2: W - R, y2: H - B, class: 'axis' }),
        Object.assign(svg('text', { x: L - 4, y: y(hi) + 4, 'text-anchor': 'end' }), { textContent: String(Math.round(hi)) }),
        Object.assign(svg('text', { x: L - 4, y: y(lo) + 4, 'text-anchor': 'end' }), { textContent: String(Math.round(lo)) }),
        Object.assign(svg('text', { x: L, y: H - 6 }), { textContent: day(points[0][0]) }),
        Object.assign(svg('text', { x: W - R, y: H - 6, 'text-anchor': 'end' }), { textContent: day(points[points.length - 1][0]) }),
        svg('polyline', { points: line, class: 'rating-line' }),
        ...points.map((p, i) => svg('circle', { cx: x(i).toFixed(1), cy: y(p[1]).toFixed(1), r: 2.5, class: 'rating-point' },
          Object.assign(svg('title'), { textContent: `${day(p[0])}: ${p[1]}` })))),
      el('figcaption', {}, `${name}: ${ratings[ratings.length - 1]}`));
  }

  function gameLine(g, mine) {
    const opp = g.opponent ? g.opponent : 'anonymous';
    const outcome = outcomeOf(g);
    return el('li', { 'data-game': g.id, 'data-testid': `player-game-${g.id}`, 'data-variant': g.variant, 'data-outcome': outcome },
      el('span', { class: 'rg-date' }, new Date(g.created_ms).toISOString().slice(0, 10)), ' ',
      el('span', { class: 'rg-name' }, g.name), ' ',
      el('span', { class: 'rg-players' }, `as ${g.seat} against ${opp}`), ' ',
      el('span', { class: 'rg-players' }, g.time_control === 'none' ? '' : g.time_control), ' ',
      g.rated ? el('span', { class: 'rg-players' }, 'rated') : null, ' ',
      g.result ? el('span', { class: 'rg-state' }, g.result.text) : null,
      g.rating_change && g.rating_change.delta !== undefined
        ? el('span', { class: 'rg-state', 'data-testid': 'player-rating-change' }, ` ${g.rating_change.delta >= 0 ? '+' : ''}${g.rating_change.delta}`) : null,
      !g.result && g.your_turn ? el('b', { class: 'your-turn', 'data-testid': 'your-turn' }, mine ? 'your turn' : 'to move') : null, ' ',
      el('a', { class: 'button small', href: g.link || `/game/${g.id}` }, g.link && !g.result ? 'play' : 'view'));
  }

  async function playerPage() {
    const app = document.getElementById('app');
    const name = decodeURIComponent(location.pathname.split('/').pop());
    let p;
    try { p = await call('GET', `/api/players/${encodeURIComponent(name)}`); } catch (e) {
      app.append(el('p', { class: 'error', 'data-testid': 'error' }, e.message));
      return;
    }
    document.title = `${p.username}: Cohort`;
    const ratings = p.ratings.length
      ? el('table', { class: 'ratings', 'data-testid': 'ratings' },
        el('tr', {}, el('th', {}, 'Variant'), el('th', {}, 'Rating'), el('th', {}, 'RD'), el('th', {}, 'Games')),
        p.ratings.map((r) => el('tr', { 'data-variant': r.variant }, el('td', {}, r.name || r.variant), el('td', {}, String(r.rating)),
          el('td', {}, String(r.rd)), el('td', {}, String(r.games)))))
      : el('p', { class: 'hint' }, 'No rated games yet.');
    const list = (games, empty, testid) => games.length
      ? el('ul', { class: 'player-games', 'data-testid': testid }, games.map((g) => gameLine(g, p.me)))
      : el('p', { class: 'hint', 'data-testid': testid }, empty);
    const names = Object.fromEntries(p.ratings.map((r) => [r.variant, r.name || r.variant]));
    const charts = el('div', { class: 'rating-charts', 'data-testid': 'rating-charts' },
      Object.entries(p.history || {}).map(([v, points]) => ratingChart(v, names[v] || v, points)));
    // Finished games, filtered by variant and outcome in the page.
    const finished = list(p.finished, 'None yet.', 'finished');
    const variants = [...new Map(p.finished.map((g) => [g.variant, g.name])).entries()];
    const byVariant = el('select', { 'data-testid': 'filter-variant', 'aria-label': 'variant' },
      el('option', { value: '' }, 'every variant'), variants.map(([v, n]) => el('option', { value: v }, n)));
    const byOutcome = el('select', { 'data-testid': 'filter-outcome', 'aria-label': 'result' },
      [['', 'every result'], ['win', 'won'], ['loss', 'lost'], ['draw', 'drawn'], ['aborted', 'aborted']].map(([v, t]) => el('option', { value: v }, t)));
    const shown = el('span', { class: 'hint', 'data-testid': 'filter-count' });
    const filter = () => {
      let n = 0;
      for (const li of finished.querySelectorAll('li')) {
        const show = (!byVariant.value || li.dataset.variant === byVariant.value) && (!byOutcome.value || li.dataset.outcome === byOutcome.value);
        li.hidden = !show;
        if (show) n++;
      }
      shown.textContent = `${n} of ${p.finished.length}`;
    };
    byVariant.onchange = filter;
    byOutcome.onchange = filter;
    filter();
    const seen = p.online ? el('p', { class: 'note', 'data-testid': 'player-online' }, 'Online now')
      : p.seen_ms ? el('p', { class: 'hint', 'data-testid': 'player-online' }, `Last seen ${new Date(p.seen_ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`) : null;
    app.append(el('section', { class: 'player recent' },
      el('h1', { 'data-testid': 'player-name' }, p.username), seen,
      el('h2', {}, 'Ratings'), ratings, charts,
      el('h2', {}, 'Games in progress'), list(p.playing, 'None.', 'playing'),
      el('h2', {}, 'Finished games'),
      p.finished.length ? el('p', { class: 'filters' }, byVariant, ' ', byOutcome, ' ', shown) : null,
      finished));
  }

  header();
  if (page === 'login') loginPage();
  if (page === 'player') playerPage();
  window.CohortAccount = { ready: () => ready, call };
}());
