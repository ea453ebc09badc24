// Cohort's optional accounts (docs/server.md, "Accounts"): the account line in every page's
// header (log in, sign up, the player page, log out), the log-in / sign-up page and the player
// page (ratings, games in progress with "your turn", finished games with rating changes).
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

  function gameLine(g, mine) {
    const opp = g.opponent ? g.opponent : 'anonymous';
    return el('li', { 'data-game': g.id, 'data-testid': `player-game-${g.id}` },
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
        p.ratings.map((r) => el('tr', { 'data-variant': r.variant }, el('td', {}, r.variant), el('td', {}, String(r.rating)),
          el('td', {}, String(r.rd)), el('td', {}, String(r.games)))))
      : el('p', { class: 'hint' }, 'No rated games yet.');
    const list = (games, empty, testid) => games.length
      ? el('ul', { class: 'player-games', 'data-testid': testid }, games.map((g) => gameLine(g, p.me)))
      : el('p', { class: 'hint', 'data-testid': testid }, empty);
    app.append(el('section', { class: 'player recent' },
      el('h1', { 'data-testid': 'player-name' }, p.username),
      el('h2', {}, 'Ratings'), ratings,
      el('h2', {}, 'Games in progress'), list(p.playing, 'None.', 'playing'),
      el('h2', {}, 'Finished games'), list(p.finished, 'None yet.', 'finished')));
  }

  header();
  if (page === 'login') loginPage();
  if (page === 'player') playerPage();
  window.CohortAccount = { ready: () => ready, call };
}());
