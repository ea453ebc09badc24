// Cohort's lobby (docs/server.md, "Lobby"): quick pairing (a variant and a clock, one
// click), open challenges listed live, a form to post one (variant, time control, colour,
// rated), and accepting one, which starts the game: each side is sent to the page of its
// own seat.
'use strict';

// The challenges this browser posted (id -> the creator's token) and the seats it was given,
// in localStorage: another tab, the page reopened, or the home page (its Recent games offer
// "continue" for them) knows them.
window.CohortChallenges = (function () {
  const KEY = 'cohort-challenges';
  const mine = () => { try { return JSON.parse(localStorage.getItem(KEY)) || {}; } catch { return {}; } };
  const save = (m) => { try { localStorage.setItem(KEY, JSON.stringify(m)); } catch { /* private mode */ } };
  // Kept as the home page keeps the games it creates (home.js, recentList).
  const keepSeat = (game, link) => {
    try { localStorage.setItem(`cohort-game-${game}`, JSON.stringify({ id: game, creator: 'seat', links: { seat: link } })); } catch { /* private mode */ }
  };
  // Ask about each of ours: an accepted one leaves its seat kept, a closed one is forgotten.
  // The link of the first accepted, if any. Asking keeps an open live challenge open.
  async function settle(call) {
    const m = mine();
    let first = null;
    for (const [id, tok] of Object.entries(m)) {
      try {
        const s = await call('GET', `/api/challenges/${id}?token=${encodeURIComponent(tok)}`);
        if (s.state === 'accepted' && s.link) {
          keepSeat(s.game, s.link);
          first = first || s.link;
          delete m[id];
        } else if (s.state !== 'open') delete m[id];
      } catch { delete m[id]; }
    }
    save(m);
    return first;
  }
  return { mine, save, keepSeat, settle };
}());

(function () {
  if (document.body.dataset.page !== 'lobby') return;
  const app = document.getElementById('app');

  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k.startsWith('on') && typeof v === 'function') e[k] = v;
      else if (v !== null && v !== undefined && v !== false) e.setAttribute(k, v === true ? '' : v);
    }
    for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) e.append(c);
    return e;
  }
  const call = (...a) => window.CohortAccount.call(...a);
  const { mine, save: saveMine, keepSeat } = window.CohortChallenges;

  const CONTROLS = [
    ['1+0', { minutes: 1, increment: 0 }], ['1+1', { minutes: 1, increment: 1 }], ['3+2', { minutes: 3, increment: 2 }], ['5+3', { minutes: 5, increment: 3 }],
    ['10+5', { minutes: 10, increment: 5 }], ['15+10', { minutes: 15, increment: 10 }],
    ['1 day per turn', { days: 1 }], ['3 days per turn', { days: 3 }], ['no clock', null],
    ['custom', 'custom'],
  ];

  async function main() {
    document.title = 'Lobby: Cohort';
    const user = await window.CohortAccount.ready();
    let variants = [];
    try { variants = await call('GET', '/api/variants'); } catch (e) {
      app.append(el('p', { class: 'error', 'data-testid': 'error' }, e.message));
      return;
    }
    const variant = el('select', { 'data-testid': 'challenge-variant' },
      variants.map((v) => el('option', { value: v.id }, `${v.name} (${v.id})`)));
    const control = el('select', { 'data-testid': 'challenge-clock' },
      CONTROLS.map(([label], i) => el('option', { value: String(i) }, label)));
    // A custom live clock: minutes (0.25 to 180) plus seconds added per turn (0 to 180); the
    // server checks the bounds and says which is wrong.
    const customMinutes = el('input', { type: 'number', min: '0.25', max: '180', step: '0.25', value: '5', 'data-testid': 'challenge-minutes', 'aria-label': 'minutes' });
    const customIncrement = el('input', { type: 'number', min: '0', max: '180', step: '1', value: '0', 'data-testid': 'challenge-increment', 'aria-label': 'increment, seconds' });
    const custom = el('span', { class: 'custom-clock', 'data-testid': 'challenge-custom', hidden: true },
      customMinutes, ' min + ', customIncrement, ' s');
    control.onchange = () => { custom.hidden = CONTROLS[Number(control.value)][1] !== 'custom'; };
    const colour = el('select', { 'data-testid': 'challenge-colour' },
      el('option', { value: 'random' }, 'random'), el('option', { value: 'white' }, 'White'), el('option', { value: 'black' }, 'Black'));
    const rated = el('input', { type: 'checkbox', 'data-testid': 'challenge-rated', disabled: !user });
    const err = el('p', { class: 'error', 'data-testid': 'lobby-error', role: 'alert' });
    const post = el('button', { type: 'submit', class: 'primary', 'data-testid': 'challenge-create' }, 'Post challenge');
    const form = el('form', { class: 'new-game lobby-form', 'data-testid': 'challenge-form' },
      el('label', {}, 'Game ', variant), el('label', {}, 'Clock ', control, custom), el('label', {}, 'You play ', colour),
      el('label', { title: user ? '' : 'Log in to play rated games' }, rated, user ? ' rated' : ' rated (log in first)'), post, err);
    form.onsubmit = async (ev) => {
      ev.preventDefault();
      err.textContent = '';
      const body = { variant: variant.value, colour: colour.value, rated: rated.checked };
      let c = CONTROLS[Number(control.value)][1];
      if (c === 'custom') c = { minutes: Number(customMinutes.value), increment: Number(customIncrement.value) };
      if (c) body.clock = c;
      post.disabled = true;
      try {
        const made = await call('POST', '/api/challenges', body);
        const m = mine();
        m[made.id] = made.token;
        saveMine(m);
        await refresh();
      } catch (e) { err.textContent = e.message; }
      post.disabled = false;
    };
    // Quick pairing (docs/server.md, "Quick pairing"): one click on a clock plays the
    // variant chosen at that clock with whoever waits for the same game within the rating
    // range, or waits here for the next one who asks.
    const quickVariant = el('select', { 'data-testid': 'quick-variant', 'aria-label': 'variant' },
      variants.map((v) => el('option', { value: v.id }, v.name)));
    const quickRange = el('select', { 'data-testid': 'quick-range', 'aria-label': 'opponents rated within' },
      [100, 300, 500, 2000].map((r) => el('option', { value: String(r), selected: r === 300 }, r === 2000 ? 'any rating' : `within ${r}`)));
    const quickRated = el('input', { type: 'checkbox', 'data-testid': 'quick-rated', disabled: !user, checked: !!user });
    const quickButtons = CONTROLS.filter(([, c]) => c && c !== 'custom' && c.minutes).map(([label, c]) =>
      el('button', { type: 'button', class: 'quick-clock', 'data-testid': `quick-${label}`, onclick: async (ev) => {
        err.textContent = '';
        const name = quickVariant.selectedOptions[0].textContent;
        const button = ev.currentTarget;
        button.disabled = true;
        try {
          const r = await call('POST', '/api/quick', { variant: quickVariant.value, clock: c, rated: quickRated.checked, range: Number(quickRange.value) });
          if (r.paired) { keepSeat(r.game, r.link); location.href = r.link; return; }
          const m = mine();
          m[r.id] = r.token;
          saveMine(m);
          quickStatus.textContent = `Waiting for an opponent for ${label} ${name}: the game starts when someone asks for the same.`;
          await refresh();
        } catch (e) { err.textContent = e.message; }
        button.disabled = false;
      } }, label));
    const quickStatus = el('p', { class: 'hint', 'data-testid': 'quick-status', role: 'status' });
    const quick = el('section', { class: 'quick-pairing', 'data-testid': 'quick-pairing' },
      el('h2', {}, 'Quick pairing'),
      el('p', { class: 'quick-row' }, el('label', {}, 'Play ', quickVariant), ' ', el('label', {}, quickRange), ' ',
        el('label', { title: user ? '' : 'Log in to play rated games' }, quickRated, user ? ' rated' : ' rated (log in first)')),
      el('p', { class: 'quick-row' }, quickButtons), quickStatus);
    // Play the AI at a level (docs/engine.md, "Levels"): nobody to wait for.
    const aiVariant = el('select', { 'data-testid': 'ai-variant', 'aria-label': 'variant' },
      variants.map((v) => el('option', { value: v.id }, v.name)));
    const { select: aiLevel, about: aiAbout, follow: aiFollow } = levelSelect('ai-level', aiVariant.value);
    aiVariant.addEventListener('change', () => aiFollow(aiVariant.value));
    const aiSide = el('select', { 'data-testid': 'ai-side', 'aria-label': 'your side' },
      el('option', { value: 'white' }, 'as White'), el('option', { value: 'black' }, 'as Black'));
    const aiPlay = el('button', { type: 'button', 'data-testid': 'ai-play', onclick: async () => {
      err.textContent = '';
      const me = aiSide.value;
      aiPlay.disabled = true;
      try {
        const g = await call('POST', '/api/games', { variant: aiVariant.value, [me]: 'human', [me === 'white' ? 'black' : 'white']: 'ai',
          ai: { agent: aiLevel.value, time_ms: 1000 } });
        try { localStorage.setItem(`cohort-game-${g.id}`, JSON.stringify({ ...g, creator: me })); } catch { /* private mode */ }
        location.href = g.links[me];
      } catch (e) { err.textContent = e.message; aiPlay.disabled = false; }
    } }, 'Play');
    const vsAi = el('section', { class: 'quick-pairing', 'data-testid': 'lobby-ai' },
      el('h2', {}, 'Play the AI'),
      el('p', { class: 'quick-row' }, el('label', {}, 'Play ', aiVariant), ' ', el('label', {}, aiLevel), ' ', aiSide, ' ', aiPlay),
      el('p', { class: 'quick-row' }, aiAbout));
    const list = el('div', { 'data-testid': 'challenges' });
    app.append(el('section', { class: 'lobby' },
      el('h1', {}, 'Lobby'),
      el('p', { class: 'hint' }, user ? `Logged in as ${user}.` : 'Playing anonymously: log in to play rated games.',
        ' Pick a clock to play at once, or post a challenge (a live one waits while this page is open, a correspondence one for a week); or accept one below.'),
      quick, vsAi, el('h2', {}, 'Post a challenge'), form, el('h2', {}, 'Open challenges'), list));

    // Our own challenges: an accepted one sends us to our seat. Asking also keeps a live
    // challenge open (the server withdraws one nobody asks about for 30 s).
    async function checkMine() {
      const link = await window.CohortChallenges.settle(call);
      if (link) location.href = link;
      return !!link;
    }

    let shown = [];
    function draw(open) {
      shown = open;
      const own = mine();
      list.replaceChildren(open.length
        ? el('ul', { class: 'challenge-list' }, open.map((c) => el('li', { 'data-challenge': c.id, 'data-testid': `challenge-${c.id}` },
          el('span', { class: 'rg-name' }, c.name || c.variant), ' ',
          el('span', { class: 'rg-players' }, c.time_control === 'none' ? 'no clock' : c.time_control), ' ',
          el('span', { class: 'rg-players' }, c.rated ? 'rated' : 'casual'), ' ',
          el('span', { class: 'rg-players' }, `by ${c.by || 'anonymous'}, plays ${c.colour}`), ' ',
          c.rating_range ? [el('span', { class: 'rg-players', 'data-testid': 'rating-range' }, `for ratings ${c.rating_range[0]} to ${c.rating_range[1]}`), ' '] : null,
          own[c.id]
            ? [el('b', { 'data-testid': 'own-challenge' }, c.clock_kind === 'corr'
              ? 'yours: waiting for an opponent; you may close this page: the game will be under Recent games on the home page'
              : 'yours: waiting for an opponent (keep this page open)'), ' ',
              el('button', { class: 'small', 'data-testid': `cancel-${c.id}`, onclick: async () => {
                try { await call('POST', `/api/challenges/${c.id}/cancel`, { token: own[c.id] }); } catch (e) { err.textContent = e.message; }
                refresh();
              } }, 'Cancel')]
            : el('button', { class: 'small primary', 'data-testid': `accept-${c.id}`, disabled: c.rated && !user,
              title: c.rated && !user ? 'Log in to accept a rated challenge' : '', onclick: async () => {
                try {
                  const g = await call('POST', `/api/challenges/${c.id}/accept`, {});
                  keepSeat(g.game, g.link);
                  location.href = g.link;
                } catch (e) { err.textContent = e.message; refresh(); }
              } }, 'Accept')))
        ) : el('p', { class: 'hint', 'data-testid': 'no-challenges' }, 'No open challenges: post one.'));
    }

    // A refresh by request (after our own action): our challenges, then the list.
    async function refresh() {
      if (await checkMine()) return;
      try { draw(await call('GET', '/api/challenges')); } catch (e) { err.textContent = e.message; }
    }

    // The list follows the server over a WebSocket: sent at every change of the lobby, on
    // any instance. One of ours leaving the list may mean it was accepted: look at once.
    function follow() {
      const proto = location.protocol === 'https:' ? 'wss' : 'ws';
      let ws;
      try { ws = new WebSocket(`${proto}://${location.host}/api/challenges/watch`); } catch { setTimeout(follow, 2000); return; }
      let opened = false;
      ws.onopen = () => { opened = true; };
      ws.onmessage = (m) => {
        let open;
        try { open = JSON.parse(m.data); } catch { return; }
        if (!Array.isArray(open)) return;
        const own = mine();
        const gone = shown.some((c) => own[c.id]) && !open.some((c) => own[c.id]);
        draw(open);
        if (gone) checkMine();
      };
      ws.onclose = () => setTimeout(follow, opened ? 500 : 2000);
    }
    // Who is online: the accounts that asked anything within five minutes, each a link to
    // its player page; asked again every 30 s.
    const online = el('p', { class: 'hint online', 'data-testid': 'online' });
    app.append(online);
    const showOnline = async () => {
      try {
        const o = await call('GET', '/api/players/online');
        online.replaceChildren(o.online.length ? 'Online now: ' : 'Nobody with an account is online.',
          ...o.online.flatMap((n, i) => [i ? ', ' : '', el('a', { href: `/player/${encodeURIComponent(n)}`, 'data-testid': `online-${n}` }, n)]));
      } catch { /* shown again at the next try */ }
    };
    showOnline();
    setInterval(showOnline, 30000);
    // Tournaments not finished, each a link to its page; asked again every 30 s.
    const tournaments = el('div', { 'data-testid': 'lobby-tournaments' });
    app.append(el('section', { class: 'lobby-tournaments' },
      el('h2', {}, 'Tournaments'), tournaments,
      el('p', { class: 'hint' }, el('a', { href: '/tournaments', 'data-testid': 'lobby-tournaments-link' }, 'All tournaments, and create one'))));
    const showTournaments = async () => {
      let list;
      try { list = (await call('GET', '/api/tournaments')).tournaments || []; } catch { return; }
      const open = list.filter((t) => t.status !== 'finished');
      tournaments.replaceChildren(open.length
        ? el('ul', { class: 'challenge-list' }, open.map((t) => el('li', { 'data-testid': `lobby-tournament-${t.id}` },
          el('a', { class: 'rg-name', href: `/tournament/${encodeURIComponent(t.id)}` }, t.name), ' ',
          el('span', { class: 'rg-players' }, `${t.kind === 'arena' ? 'Arena' : 'Swiss'} · ${t.variant_name || t.variant} · ${t.time_control} · ${t.players} players · ${t.status === 'running' ? 'running' : 'not started'}`))))
        : el('p', { class: 'hint' }, 'No tournament is waiting or running.'));
    };
    showTournaments();
    setInterval(showTournaments, 30000);
    const chatBox = el('div', { class: 'chat-box lobby-chat' });
    app.append(chatBox);
    window.CohortChat.mount(chatBox, {
      title: 'Lobby chat', url: '/api/chat/lobby', ws: '/api/chat/lobby/ws', body: {},
      hint: 'Log in to write here.',
    }, user);
    await refresh();
    follow();
    setInterval(checkMine, 5000);
  }
  main();
}());
