// Cohort's tournament pages (docs/server.md, "Pages" and "Tournaments"): `/tournaments`
// (the list: upcoming, running, finished; and a form to create one) and `/tournament/<id>`
// (the header with a countdown, Join / Withdraw / Start, the player's own game, the
// standings, a Swiss's crosstable and rounds, an Arena's games), which follows the server
// over the tournament's WebSocket and reconnects when it drops.
'use strict';

// Requests go through common.js's `api` (an error answer thrown as its sentence).
// `box`'s children replaced by `kids` (nested lists flattened, null and false left out).
const fillIn = (box, ...kids) => box.replaceChildren(...kids.flat(Infinity).filter((k) => k !== null && k !== undefined && k !== false));

// Points and tie-breaks as the server counts them (halves, and quarters for
// Sonneborn-Berger's half of a drawn opponent's points): 2.5, 1, 1.25.
const tournamentPoints = (p) => (p === null || p === undefined ? '' : String(Math.round(p * 4) / 4));

// "1 h 05 min", "4 min 09 s", "12 s": how long until `ms` from `now`.
function tournamentSpan(ms) {
  const s = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
  if (h) return `${h} h ${String(m).padStart(2, '0')} min`;
  if (m) return `${m} min ${String(sec).padStart(2, '0')} s`;
  return `${sec} s`;
}

// The facts of a tournament summary in a line: kind, variant, clock, rated, players.
function tournamentFacts(t) {
  const kind = t.kind === 'arena' ? `Arena, ${t.minutes} min` : `Swiss, ${t.rounds} rounds`;
  return [kind, t.variant_name || t.variant, t.time_control, t.rated ? 'rated' : 'casual',
    `${t.players} player${t.players === 1 ? '' : 's'}`].join(' · ');
}

// When it starts or ends, from the server's clock (`skew`: server time minus ours).
function tournamentWhen(t, skew) {
  const now = Date.now() + skew;
  if (t.status === 'created') return t.starts_ms ? `starts in ${tournamentSpan(t.starts_ms - now)}` : 'starts when its creator starts it';
  if (t.status === 'running') {
    if (t.kind === 'arena' && t.ends_ms) return t.ends_ms > now ? `ends in ${tournamentSpan(t.ends_ms - now)}` : 'ending: the last games are played';
    if (t.kind !== 'swiss') return 'running';
    return typeof t.rounds === 'number' ? `round ${t.round} of ${t.rounds}` : `round ${t.round}`;
  }
  return 'finished';
}

// `/tournaments`: the tournaments in three lists, asked again every 10 s (their countdowns
// by the browser's clock: the list has no `now_ms`), and the form.
async function tournamentsPage() {
  document.title = 'Tournaments: Cohort';
  const user = await window.CohortAccount.ready();
  const lists = {
    created: h('div', { 'data-testid': 'tournaments-created' }),
    running: h('div', { 'data-testid': 'tournaments-running' }),
    finished: h('div', { 'data-testid': 'tournaments-finished' }),
  };
  const listErr = h('p', { class: 'error', role: 'alert', 'data-testid': 'tournaments-error' });
  let shown = [];
  const draw = () => {
    for (const [status, box] of Object.entries(lists)) {
      const mine = shown.filter((t) => t.status === status);
      box.replaceChildren(mine.length
        ? h('ul', { class: 'tournament-list' }, mine.map((t) => h('li', { 'data-testid': `tournament-${t.id}`, 'data-tournament': t.id },
          h('a', { class: 'rg-name', href: `/tournament/${encodeURIComponent(t.id)}` }, t.name), ' ',
          h('span', { class: 'rg-players' }, tournamentFacts(t)), ' ',
          h('span', { class: 'rg-state' }, `${tournamentWhen(t, 0)}, by ${t.creator}`))))
        : h('p', { class: 'hint' }, status === 'created' ? 'None waiting to start.' : status === 'running' ? 'None running.' : 'None finished yet.'));
    }
  };
  const refresh = async () => {
    try {
      const r = await api('GET', '/api/tournaments');
      shown = r.tournaments || [];
      listErr.textContent = '';
      draw();
    } catch (e) { listErr.textContent = e.message; }
  };
  app.append(h('section', { class: 'tournaments' },
    h('h1', {}, 'Tournaments'),
    h('p', { class: 'hint' }, 'Swiss: a set number of rounds, everyone plays each round, nobody meets the same opponent twice. ',
      'Arena: as many games as fit in the time, a new opponent as soon as a game ends; two wins running put a player on fire (double points). ',
      h('a', { href: '/lobby' }, 'Back to the lobby')),
    user ? createForm() : h('p', { class: 'hint', 'data-testid': 'tournament-login' },
      h('a', { href: `/login?next=${encodeURIComponent('/tournaments')}` }, 'Log in'), ' to create or join a tournament.'),
    listErr,
    h('h2', {}, 'Starting soon'), lists.created,
    h('h2', {}, 'Running'), lists.running,
    h('h2', {}, 'Finished'), lists.finished));
  await refresh();
  setInterval(refresh, 10000);
  setInterval(draw, 1000);
}

// The form that creates a tournament (logged in): the page of the new one opens.
function createForm() {
  const field = (label, input) => h('label', {}, `${label} `, input);
  const name = h('input', { 'data-testid': 't-name', maxlength: '60', required: true, value: 'Friday Swiss' });
  const kind = h('select', { 'data-testid': 't-kind' }, h('option', { value: 'swiss' }, 'Swiss'), h('option', { value: 'arena' }, 'Arena'));
  const variant = h('select', { 'data-testid': 't-variant' });
  api('GET', '/api/variants').then((vs) => {
    variant.replaceChildren(...vs.map((v) => h('option', { value: v.id }, v.name)),
      h('option', { value: '', 'data-testid': 't-variant-file-option' }, 'a variant file of my own...'));
  }).catch((e) => { err.textContent = e.message; });
  // An uploaded variant: its file (docs/variants.md), checked by the server; the first
  // variant it defines is played, unrated.
  const fileText = h('textarea', { rows: '6', cols: '40', 'data-testid': 't-variant-file', 'aria-label': 'variant file', placeholder: '[my-variant:chess]\n...' });
  const fileField = h('label', { hidden: true, class: 'variant-file' }, 'Variant file ', fileText);
  const pace = h('select', { 'data-testid': 't-pace' }, h('option', { value: 'live' }, 'live'), h('option', { value: 'corr' }, 'days per turn'));
  const minutes = h('input', { type: 'number', min: '0.25', max: '180', step: '0.25', value: '5', 'data-testid': 't-clock-minutes', 'aria-label': 'minutes' });
  const increment = h('input', { type: 'number', min: '0', max: '180', step: '1', value: '3', 'data-testid': 't-clock-increment', 'aria-label': 'increment, seconds' });
  const days = h('input', { type: 'number', min: '1', max: '14', step: '1', value: '3', 'data-testid': 't-clock-days', 'aria-label': 'days per turn' });
  const live = h('span', { class: 'inline-fields' }, minutes, ' min + ', increment, ' s');
  const corr = h('span', { class: 'inline-fields', hidden: true }, days, ' days per turn');
  const rated = h('input', { type: 'checkbox', 'data-testid': 't-rated', checked: true });
  const rounds = h('input', { type: 'number', min: '1', max: '15', step: '1', value: '5', 'data-testid': 't-rounds' });
  const duration = h('input', { type: 'number', min: '1', max: '720', step: '1', value: '60', 'data-testid': 't-duration' });
  const roundsField = field('Rounds', rounds);
  const durationField = h('label', { hidden: true }, 'Lasts ', duration, ' min');
  const start = h('select', { 'data-testid': 't-start' }, h('option', { value: 'hand' }, 'when I press Start'), h('option', { value: 'in' }, 'in'));
  const startsIn = h('input', { type: 'number', min: '1', max: '10080', step: '1', value: '10', 'data-testid': 't-starts-in', 'aria-label': 'minutes from now' });
  const startsInField = h('span', { class: 'inline-fields', hidden: true }, startsIn, ' min');
  const err = h('p', { class: 'error', role: 'alert', 'data-testid': 't-error' });
  const submit = h('button', { type: 'submit', class: 'primary', 'data-testid': 't-create' }, 'Create tournament');
  // Correspondence (days per turn) is for a Swiss only: an Arena lasts minutes.
  const fit = () => {
    const arena = kind.value === 'arena';
    if (arena) pace.value = 'live';
    pace.querySelector('option[value=corr]').disabled = arena;
    live.hidden = pace.value !== 'live';
    corr.hidden = pace.value === 'live';
    roundsField.hidden = arena;
    durationField.hidden = !arena;
    startsInField.hidden = start.value !== 'in';
    fileField.hidden = variant.value !== '';
    rated.disabled = variant.value === '';
    if (rated.disabled) rated.checked = false;
  };
  variant.onchange = fit;
  kind.onchange = fit;
  pace.onchange = fit;
  start.onchange = fit;
  const form = h('form', { class: 'new-game lobby-form tournament-form', 'data-testid': 'tournament-form' },
    h('h2', {}, 'Create a tournament'),
    field('Name', name), field('Kind', kind), field('Game', variant), fileField,
    h('label', {}, 'Clock ', pace, ' ', live, corr),
    h('label', {}, rated, ' rated'), roundsField, durationField,
    h('label', {}, 'Starts ', start, ' ', startsInField), submit, err);
  form.onsubmit = async (ev) => {
    ev.preventDefault();
    err.textContent = '';
    const body = {
      name: name.value.trim(), kind: kind.value, variant: variant.value, rated: rated.checked,
      clock: pace.value === 'live' ? { minutes: Number(minutes.value), increment: Number(increment.value) } : { days: Number(days.value) },
    };
    if (kind.value === 'swiss') body.rounds = Number(rounds.value);
    else body.minutes = Number(duration.value);
    if (start.value === 'in') body.starts_in_minutes = Number(startsIn.value);
    submit.disabled = true;
    try {
      if (variant.value === '') {
        const checked = await api('POST', '/api/variants/check', { text: fileText.value });
        body.variant = checked.variants[0].id;
        body.variant_text = fileText.value;
        body.rated = false;
      }
      const t = await api('POST', '/api/tournaments', body);
      location.href = `/tournament/${encodeURIComponent(t.id)}`;
      return;
    } catch (e) { err.textContent = e.message; }
    submit.disabled = false;
  };
  return form;
}

// A table in a box of its own that scrolls sideways on a narrow screen.
const tournamentScroll = (testid, table) => h('div', { class: 'table-scroll', 'data-testid': `${testid}-box` }, table);
const playerLink = (name) => h('a', { href: `/player/${encodeURIComponent(name)}` }, name);

function standingsTable(t) {
  const swiss = t.kind === 'swiss';
  const head = swiss
    ? ['#', 'Player', 'Rating', 'Points', 'Buchholz', 'S-B']
    : ['#', 'Player', 'Rating', 'Points', 'Games'];
  return tournamentScroll('standings', h('table', { class: 'tournament-table', 'data-testid': 'standings' },
    h('thead', {}, h('tr', {}, head.map((c) => h('th', {}, c)))),
    h('tbody', {}, (t.standings || []).map((s) => h('tr', { 'data-testid': `standing-${s.username}`, 'data-player': s.username, class: s.withdrawn ? 'withdrawn' : null },
      h('td', { 'data-testid': 'rank' }, String(s.rank)),
      h('td', { 'data-testid': 'player' }, playerLink(s.username),
        s.withdrawn ? h('span', { class: 'hint' }, ' (withdrawn)') : null,
        s.playing ? [' ', h('a', { class: 'playing', href: `/game/${encodeURIComponent(s.playing)}`, title: 'playing now', 'data-testid': 'playing' }, '▶')] : null,
        !swiss && s.on_fire ? [' ', h('span', { class: 'badge on-fire', title: 'two wins running: a win counts 4, a draw 2', 'data-testid': 'on-fire' }, 'on fire')] : null),
      h('td', { 'data-testid': 'rating' }, String(s.rating)),
      h('td', { 'data-testid': 'points', class: 'num' }, tournamentPoints(s.points)),
      swiss
        ? [h('td', { 'data-testid': 'buchholz', class: 'num' }, tournamentPoints(s.buchholz)),
          h('td', { 'data-testid': 'sonneborn-berger', class: 'num' }, tournamentPoints(s.sonneborn_berger))]
        : h('td', { 'data-testid': 'sheet', class: 'sheet' }, sheetOf(s.sheet || [])))))));
}

// An Arena sheet: each game's points, those won on fire (4, or 2 for a draw while on fire) marked.
function sheetOf(sheet) {
  if (!sheet.length) return '';
  let wins = 0;
  return sheet.map((p) => {
    const fire = wins >= 2;
    wins = (fire ? p === 4 : p === 2) ? wins + 1 : 0;
    return h('span', { class: fire ? 'score fire' : 'score', 'data-fire': fire ? '1' : null }, String(p));
  });
}

const RESULT_CELL = { 1: '1', 0: '0', '1/2': '½', bye: 'bye', '-': '–' };

// `columns`: the rounds paired so far.
function crosstable(t, columns) {
  const rounds = Array.from({ length: columns }, (_, i) => i + 1);
  return tournamentScroll('crosstable', h('table', { class: 'tournament-table crosstable', 'data-testid': 'crosstable' },
    h('thead', {}, h('tr', {}, h('th', {}, 'Player'), rounds.map((r) => h('th', {}, `R${r}`)))),
    h('tbody', {}, (t.crosstable || []).map((row) => h('tr', { 'data-player': row.username },
      h('td', {}, playerLink(row.username)),
      rounds.map((r) => {
        const c = (row.cells || []).find((x) => x.round === r);
        if (!c) return h('td', { 'data-round': r }, '');
        const res = c.result === null ? '…' : RESULT_CELL[c.result] ?? c.result;
        const dot = c.colour ? h('span', { class: `side-dot ${c.colour}`, title: c.colour }) : null;
        return h('td', { 'data-round': r, 'data-result': c.result ?? 'playing', title: c.opponent ? `against ${c.opponent}` : '' },
          dot, c.opponent ? `${c.opponent} ` : '', h('b', {}, res));
      }))))));
}

const RESULT_TEXT = { '1-0': '1–0', '0-1': '0–1', '1/2-1/2': '½–½' };

function gameRow(g) {
  return h('li', { 'data-game': g.game, 'data-testid': 'pairing' },
    h('span', { class: 'side-dot white' }), playerLink(g.white), ' – ', h('span', { class: 'side-dot black' }), playerLink(g.black), ' ',
    h('a', { href: `/game/${encodeURIComponent(g.game)}`, 'data-result': g.result || 'playing' }, g.result ? RESULT_TEXT[g.result] || g.result : 'playing'));
}

function roundsList(list) {
  const rounds = [...list];
  return h('div', { 'data-testid': 'rounds' }, rounds.reverse().map((r) => h('section', { class: 'tournament-round', 'data-testid': `round-${r.round}` },
    h('h3', {}, `Round ${r.round}`),
    h('ul', { class: 'pairings' }, r.games.map(gameRow),
      r.bye ? h('li', { 'data-testid': 'bye' }, playerLink(r.bye), ' has the bye') : null))));
}

// `/tournament/<id>`: drawn from the tournament's JSON, first from GET, then from every
// message of its WebSocket.
async function tournamentPage() {
  const id = document.body.dataset.tournament;
  const url = `/api/tournaments/${encodeURIComponent(id)}`;
  await window.CohortAccount.ready();
  const root = h('section', { class: 'tournament', 'data-testid': 'tournament' });
  const head = h('div');
  const actions = h('div', { class: 'buttons', 'data-testid': 't-actions' });
  const actionErr = h('p', { class: 'error', role: 'alert', 'data-testid': 't-action-error' });
  const connection = h('p', { class: 'connection', 'data-testid': 't-connection', hidden: true }, 'Reconnecting…');
  const body = h('div');
  root.append(head, actions, actionErr, connection, body);
  app.append(root);
  let t = null;
  let skew = 0;
  const countdown = h('span', { 'data-testid': 't-countdown' });
  const tick = () => { if (t) countdown.textContent = tournamentWhen(t, skew); };

  const act = (what) => async () => {
    actionErr.textContent = '';
    try { show(await api('POST', `${url}/${what}`, {})); } catch (e) { actionErr.textContent = e.message; }
  };

  function show(next) {
    t = next;
    // A Swiss's `rounds` is its number of rounds; `paired_rounds` those paired so far.
    const list = t.paired_rounds || [];
    const roundCount = t.kind === 'swiss' && t.rounds ? t.rounds : null;
    if (t.now_ms) skew = t.now_ms - Date.now();
    document.title = `${t.name}: Cohort`;
    root.dataset.status = t.status;
    const me = t.me;
    fillIn(head,
      h('h1', { 'data-testid': 't-title' }, t.name),
      h('p', { class: 'tournament-facts', 'data-testid': 't-facts' },
        t.kind === 'arena' ? `Arena, ${t.minutes} min` : roundCount ? `Swiss, ${roundCount} rounds` : 'Swiss', ' · ',
        h('a', { href: `/rules/${encodeURIComponent(t.variant)}` }, t.variant_name || t.variant), ' · ',
        t.time_control, ' · ', t.rated ? 'rated' : 'casual', ' · ', `by ${t.creator}`),
      h('p', { class: 'status' }, h('span', { 'data-testid': 't-status' }, cap(t.status === 'created' ? 'not started' : t.status)), ': ', countdown),
      // The director's word on an end before the last round (no pairing left), if any.
      t.note ? h('p', { class: 'hint', 'data-testid': 't-note' }, t.note) : null,
      me && me.game ? h('p', { class: 'your-game', 'data-testid': 't-your-game' }, 'Your game: ',
        h('a', { class: 'button primary', href: me.game.link, 'data-testid': 't-play' }, 'play')) : null);
    tick();
    const open = t.status !== 'finished';
    fillIn(actions, [
      !me ? h('a', { href: `/login?next=${encodeURIComponent(location.pathname)}`, 'data-testid': 't-login' }, 'Log in to join') : null,
      me && open && (!me.joined || me.withdrawn) ? h('button', { class: 'primary', 'data-testid': 't-join', onclick: act('join') }, me.withdrawn ? 'Join again' : 'Join') : null,
      me && open && me.joined && !me.withdrawn ? h('button', { 'data-testid': 't-withdraw', onclick: act('withdraw') }, 'Withdraw') : null,
      me && me.creator && t.status === 'created'
        ? h('button', { class: 'primary', 'data-testid': 't-start', onclick: act('start'), disabled: t.players < 2, title: t.players < 2 ? 'Two players are needed' : '' }, 'Start now') : null,
    ]);
    const swiss = t.kind === 'swiss';
    fillIn(body,
      h('h2', {}, 'Standings'),
      (t.standings || []).length ? standingsTable(t) : h('p', { class: 'hint', 'data-testid': 'standings-empty' }, 'Nobody has joined yet.'),
      swiss && list.length ? [h('h2', {}, 'Crosstable'), crosstable(t, list.length)] : null,
      swiss && list.length ? [h('h2', {}, 'Rounds'), roundsList(list)] : null,
      !swiss && (t.games || []).length ? [h('h2', {}, 'Games'),
        h('ul', { class: 'pairings', 'data-testid': 'arena-games' }, t.games.slice(0, 50).map(gameRow))] : null);
  }

  try { show(await api('GET', url)); } catch (e) {
    app.append(h('p', { class: 'error', 'data-testid': 'error' }, e.message));
    return;
  }
  setInterval(tick, 1000);

  // Live: the whole tournament at every change. A dropped socket is opened again (after
  // 0.5 s if it had opened, else every 2 s), and what was missed arrives on opening.
  function follow() {
    const proto = location.protocol === 'https:' ? 'wss' : 'ws';
    let ws;
    try { ws = new WebSocket(`${proto}://${location.host}${url}/socket`); } catch { setTimeout(follow, 2000); return; }
    let opened = false;
    ws.onopen = () => { opened = true; connection.hidden = true; };
    ws.onmessage = (m) => {
      let next;
      try { next = JSON.parse(m.data); } catch { return; }
      if (next && next.id) show(next);
    };
    ws.onclose = () => {
      connection.hidden = false;
      setTimeout(follow, opened ? 500 : 2000);
    };
  }
  follow();
}
