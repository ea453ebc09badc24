// Cohort's game clocks and account names on the game page (docs/server.md, "Clocks"). The
// server is the one truth: every GameView carries each side's time left when it was sent
// (`clock.white_ms`, `clock.black_ms`) and which side's time runs; this file only counts the
// running side down between two views, and shows the rating change at the end.
'use strict';

(function () {
  let shown = null; // the clock object of the last view drawn
  let at = 0; // performance.now() when it arrived

  function format(ms, kind) {
    ms = Math.max(0, ms);
    if (kind === 'corr') {
      const m = Math.floor(ms / 60000);
      const d = Math.floor(m / 1440);
      const hrs = Math.floor((m % 1440) / 60);
      return d > 0 ? `${d}d ${hrs}h ${m % 60}m` : `${hrs}h ${m % 60}m`;
    }
    const s = Math.floor(ms / 1000);
    const mm = Math.floor(s / 60);
    const ss = String(s % 60).padStart(2, '0');
    if (ms < 10000) return `${mm}:${ss}.${Math.floor((ms % 1000) / 100)}`;
    return `${mm}:${ss}`;
  }

  // The running side's time starts `starts_in_ms` after the view came: the server credits
  // the replay of the opponent's turn (docs/server.md, "Clocks"); until then it stands.
  function left(side) {
    if (!shown) return 0;
    const base = shown[`${side}_ms`];
    if (shown.running !== side) return base;
    return base - Math.max(0, performance.now() - at - (shown.starts_in_ms || 0));
  }

  // When (performance.now()) the running side's time starts: the replay of the turn before
  // must be over by then (game-state.js).
  function startsAt() {
    return shown ? at + (shown.starts_in_ms || 0) : 0;
  }

  let mine = null; // the seat of the page's player, if any
  let low = false; // the player's own live clock is under 10 s (told once a turn)
  function tick() {
    for (const el of document.querySelectorAll('[data-clock-side]')) {
      const side = el.dataset.clockSide;
      const ms = Math.max(0, Math.round(left(side)));
      if (side === mine && shown && shown.kind === 'live' && shown.running === side) {
        if (ms < 10000 && ms > 0 && !low) CohortAlerts.lowTime();
        low = ms < 10000;
      }
      el.dataset.ms = String(ms);
      const t = el.querySelector('.clock-time');
      if (t) t.textContent = format(ms, shown && shown.kind);
      el.classList.toggle('low', shown && shown.kind === 'live' && ms < 10000);
    }
  }
  setInterval(tick, 100);

  const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);

  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) if (v !== null && v !== undefined) e.setAttribute(k, v);
    for (const c of children) if (c !== null && c !== undefined) e.append(c);
    return e;
  }

  // The clocks (Black's above White's, as on a board seen from White; flipped for Black),
  // the accounts seated, and at the end the rating change.
  function box(v, seat) {
    mine = seat || null;
    const wrap = el('div', { class: 'clocks', 'data-testid': 'clocks' });
    if (v.clock) {
      if (shown !== v.clock) { shown = v.clock; at = performance.now(); }
      const order = seat === 'black' ? ['white', 'black'] : ['black', 'white'];
      for (const side of order) {
        const name = v.accounts && v.accounts[side];
        const running = v.clock.running === side;
        wrap.append(el('div', {
          class: `clock ${side}${running ? ' running' : ''}`, 'data-testid': `clock-${side}`, 'data-clock-side': side,
          'data-running': running ? 'true' : 'false',
        }, el('span', { class: `side-dot ${side}` }), el('span', { class: 'clock-who' }, name ? `${cap(side)}: ${name}` : cap(side)),
        el('span', { class: 'clock-time' }, format(left(side), v.clock.kind))));
      }
      wrap.append(el('p', { class: 'hint', 'data-testid': 'time-control' },
        `${v.clock.kind === 'corr' ? 'Correspondence' : 'Time control'}: ${v.clock.control}${v.rated ? ', rated' : ''}`));
      if (v.clock.kind === 'live' && !v.clock.running && !v.result) {
        wrap.append(el('p', { class: 'hint', 'data-testid': 'clock-waits' },
          'The clocks start with the first step; a game without one soon is aborted.'));
      }
    } else if (v.accounts && (v.accounts.white || v.accounts.black)) {
      wrap.append(el('p', { class: 'hint' }, `White: ${v.accounts.white || 'anonymous'}, Black: ${v.accounts.black || 'anonymous'}${v.rated ? ', rated' : ''}`));
    }
    if (v.result && v.rating_change) {
      const line = (side) => {
        const c = v.rating_change[side];
        const sign = c.delta > 0 ? '+' : c.delta < 0 ? '\u2212' : '\u00b1';
        return el('span', { 'data-testid': `rating-${side}` }, `${c.user}: ${c.before} \u2192 ${c.after} (${sign}${Math.abs(c.delta)})`);
      };
      wrap.append(el('p', { class: 'rating-change', 'data-testid': 'rating-change' }, 'Ratings: ', line('white'), ', ', line('black')));
    } else if (v.result && v.unrated) {
      wrap.append(el('p', { class: 'hint', 'data-testid': 'rating-unrated' }, `Not rated: ${v.unrated}.`));
    } else if (v.result && v.rated) {
      wrap.append(el('p', { class: 'hint', 'data-testid': 'rating-pending' }, 'Ratings are being updated...'));
    }
    if (!wrap.childNodes.length) return null;
    setTimeout(tick, 0);
    return wrap;
  }

  window.CohortClock = { box, format, startsAt };
}());
