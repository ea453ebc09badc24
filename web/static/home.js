// The home page: the variants with their diagrams and new-game forms, game records, recent
// games.
'use strict';

async function home() {
  document.title = 'Cohort';
  app.append(h('section', { class: 'intro' },
    h('h1', {}, 'Cohort'),
    h('p', { 'data-testid': 'intro-families' }, 'Chess variants whose turns are made of several unit moves under command rules: ',
      "Joe Joyce's Chesimals (a turn moves the units of one chesimal, each linked to its leader) and ",
      'Chieftain Chess (one piece per Chieftain a turn, activated within reach), ',
      'Chesimal Fusion (Princes that lead in modes), Daniel MacDuff\'s Lifeform Chess (a body whose ',
      "parts drag each other along), Antoine Fourriere's Chessma 84 (orthodox and Ultima pieces on two ",
      'overlapping boards), and FIDE chess. Every rule is enforced and the AI plays every game. ',
      'Pick a game, then an opponent.')));
  // The index of the games: each links to its card below and to its rules page.
  const index = h('nav', { class: 'game-index', 'data-testid': 'game-index', 'aria-label': 'Games' }, h('b', {}, 'Games: '));
  app.append(index);
  const grid = h('section', { class: 'variants' });
  app.append(grid);
  app.append(CohortCustom.panel()); // custom.js: a variant file of one's own
  let variants;
  try {
    variants = await api('GET', '/api/variants');
  } catch (e) {
    grid.append(h('p', { class: 'error', 'data-testid': 'error' }, e.message));
    return;
  }
  for (const v of variants) grid.append(variantCard(v));
  variants.forEach((v, i) => index.append(i ? ' \u00b7 ' : '',
    h('a', { href: `#variant-${v.id}`, 'data-testid': `index-${v.id}` }, v.name),
    ' ', h('a', { href: `/rules/${v.id}`, class: 'index-rules', title: `Rules of ${v.name}` }, '(rules)')));
  app.append(h('section', { class: 'open-local' }, h('h2', {}, 'Play in your browser'),
    h('p', {}, 'Any variant, or your own variant file, against the AI running on your page (WebAssembly), with no server: ',
      h('a', { href: '/local', class: 'button', 'data-testid': 'local-link' }, 'Play offline'))));
  app.append(h('section', { class: 'open-record' }, h('h2', {}, 'Game records'),
    h('p', {}, 'Replay a game record step by step, or continue it against the AI: ',
      h('a', { href: '/record', class: 'button', 'data-testid': 'open-record-link' }, 'Open a record'))));
  const recent = h('section', { class: 'recent' }, h('h2', {}, 'Recent games'));
  app.append(recent);
  try {
    // Challenges posted from this browser and accepted meanwhile: their seats are kept, so
    // that their games offer "continue" below (lobby.js).
    if (window.CohortChallenges) await window.CohortChallenges.settle(api);
    const games = await api('GET', '/api/games');
    if (!games.length) recent.append(h('p', { class: 'hint' }, 'No games yet.'));
    else recent.append(recentList(games, variants));
  } catch (e) {
    recent.append(h('p', { class: 'error' }, e.message));
  }
}

function variantCard(v) {
  // A free set-up starts on an empty board: the card shows an example set-up instead, and
  // says so.
  const shown = v.sample_setup || v.start;
  const diagram = h('div', { class: 'diagram', 'data-testid': `diagram-${v.id}` },
    CohortBoard.render({ ...shown, variant: v.id, files: v.files, ranks: v.ranks },
      { size: v.files > 8 ? 16 : 24, small: true }),
    v.sample_setup ? h('p', { class: 'hint', 'data-testid': `sample-setup-${v.id}` }, 'An example set-up: each side places its own before the game.') : null);
  const id = v.id;
  const opponent = h('select', { 'data-testid': `opponent-${id}`, name: 'opponent' },
    h('option', { value: 'ai' }, 'the AI'), h('option', { value: 'human' }, 'another person'),
    h('option', { value: 'watch' }, 'nobody: watch AI against AI'));
  const { select: strength, about: levelAbout } = levelSelect(`strength-${id}`, id);
  const time = h('select', { 'data-testid': `time-${id}`, name: 'time' },
    h('option', { value: '200' }, '200 ms'), h('option', { value: '1000', selected: true }, '1 s'),
    h('option', { value: '3000' }, '3 s'));
  const side = h('select', { 'data-testid': `side-${id}`, name: 'side' },
    h('option', { value: 'white' }, 'White'), h('option', { value: 'black' }, 'Black'));
  const aiOnly = h('span', { class: 'ai-only' },
    h('label', {}, 'Strength ', strength), h('label', {}, 'Time per turn ', time), levelAbout);
  // A game against another person may have a clock: live, or days per turn (correspondence).
  const CLOCKS = [['no clock', null], ['5+3', { minutes: 5, increment: 3 }], ['10+5', { minutes: 10, increment: 5 }],
    ['15+10', { minutes: 15, increment: 10 }], ['1 day per turn', { days: 1 }], ['3 days per turn', { days: 3 }]];
  const clock = h('select', { 'data-testid': `clock-${id}`, name: 'clock' },
    CLOCKS.map(([label], i) => h('option', { value: String(i) }, label)));
  const humanOnly = h('span', { class: 'human-only', hidden: true }, h('label', {}, 'Clock ', clock));
  opponent.onchange = () => {
    aiOnly.hidden = opponent.value === 'human';
    humanOnly.hidden = opponent.value !== 'human';
  };
  const err = h('p', { class: 'error', 'data-testid': `error-${id}` });
  const start = h('button', { type: 'submit', class: 'primary', 'data-testid': `start-${id}` }, 'New game');
  const form = h('form', { class: 'new-game', 'data-testid': `new-game-${id}` },
    h('label', {}, 'Play against ', opponent), aiOnly, humanOnly, h('label', {}, 'as ', side), start, err);
  form.onsubmit = async (ev) => {
    ev.preventDefault();
    const me = side.value;
    const human = opponent.value === 'human';
    const watch = opponent.value === 'watch';
    const body = watch ? { variant: id, white: 'ai', black: 'ai' }
      : { variant: id, [me]: 'human', [other(me)]: human ? 'human' : 'ai' };
    if (!human) body.ai = { agent: strength.value, time_ms: Number(time.value) };
    const control = CLOCKS[Number(clock.value)][1];
    if (human && control) body.clock = control;
    start.disabled = true;
    try {
      const created = await api('POST', '/api/games', body);
      if (watch) {
        // The creator token is the key that may stop the game: kept in the page address.
        try { localStorage.setItem(`cohort-game-${created.id}`, JSON.stringify({ ...created, creator: null })); } catch { /* private mode */ }
        location.href = `/game/${created.id}?token=${created.creator_token}`;
        return;
      }
      try { localStorage.setItem(`cohort-game-${created.id}`, JSON.stringify({ ...created, creator: me })); } catch { /* private mode */ }
      location.href = created.links[me];
    } catch (e) {
      err.textContent = e.message;
      start.disabled = false;
    }
  };
  return h('article', { class: 'variant', id: `variant-${id}`, 'data-testid': `variant-${id}` },
    h('h2', {}, v.name, h('span', { class: 'vid' }, id)),
    diagram,
    h('p', { class: 'summary' }, v.summary),
    legend(namesOf({ ...v.start, variant: id }), (v.start.units || []).map((u) => u.letter).concat(v.start.pocket ? v.start.pocket.white : [])),
    v.reconstructed ? h('p', { class: 'reconstructed', 'data-testid': `reconstructed-${id}` },
      'Setup reconstructed: ', v.reconstructed.replace(/^setup:\s*/i, '').replace(/\s*\(RULES\.md[^)]*\)/, ''), '. ',
      h('a', { href: `/rules/${id}`, 'data-testid': `reconstructed-link-${id}` }, 'Rules and setup')) : null,
    h('p', { class: 'hint' }, h('a', { href: `/rules/${id}`, 'data-testid': `rules-${id}` }, `Rules of ${v.name}`)),
    piecesDetails({ variant: id }, id),
    form);
}

// "Pieces and moves": the piece diagrams of custom.js, loaded when first opened.
function piecesDetails(source, key) {
  let made = null;
  const d = h('details', { 'data-testid': `pieces-${key}` }, h('summary', { 'data-testid': `pieces-open-${key}` }, 'Pieces and moves'));
  d.ontoggle = () => {
    if (d.open && !made) { made = CohortDiagram.create(source); d.append(made.el); }
  };
  return d;
}

function recentList(games) {
  const list = h('ul', { 'data-testid': 'recent-games' });
  for (const g of games) {
    const mine = savedGame(g.id);
    const seatLink = mine && mine.creator && mine.links && mine.links[mine.creator];
    list.append(h('li', { 'data-game': g.id },
      h('span', { class: 'rg-name' }, g.name), ' ',
      h('span', { class: 'rg-players' }, `${g.players.white} vs ${g.players.black}`), ' ',
      h('span', { class: 'rg-state' }, g.result ? g.result.text : `${g.turns} turn${g.turns === 1 ? '' : 's'}, ${cap(g.to_move)} to move`), ' ',
      seatLink && !g.result ? h('a', { href: seatLink, class: 'button small' }, 'continue') : null, ' ',
      h('a', { href: `/game/${g.id}`, class: 'button small', 'data-testid': `watch-${g.id}` }, 'watch'), ' ',
      h('a', { href: `/game/${g.id}?replay`, class: 'button small', 'data-testid': `replay-${g.id}` }, 'replay')));
  }
  return list;
}
