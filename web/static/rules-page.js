// A variant's rules page (`/rules/<id>`; on the static site `rules.html?variant=<id>`, its
// data read from the file `api/variants/<id>.json` written next to it): pieces, turns,
// winning, setup.
'use strict';

async function rulesPage() {
  const id = STATIC_SITE ? params.get('variant') || '' : decodeURIComponent(location.pathname.replace(/^\/rules\//, ''));
  let r;
  try {
    r = await api('GET', STATIC_SITE ? `api/variants/${encodeURIComponent(id)}.json` : `/api/variants/${encodeURIComponent(id)}`);
  } catch (e) {
    const message = STATIC_SITE && e.status === 404 ? `unknown variant '${id}'` : e.message;
    app.replaceChildren(h('p', { class: 'error', 'data-testid': 'error' }, message), h('p', {}, h('a', { href: STATIC_SITE ? './' : '/' }, 'All games')));
    return;
  }
  document.title = `Rules of ${r.name}: Cohort`;
  const art = (p, side) => {
    const markup = CohortPieces.markup(p.name, side);
    if (!markup || CohortBoard.lettersOn()) return h('b', {}, side === 'white' ? p.letter : p.letter.toLowerCase());
    const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    svg.setAttribute('viewBox', '0 0 45 45');
    svg.setAttribute('class', 'piece-art');
    svg.setAttribute('data-piece', p.name.toLowerCase());
    svg.innerHTML = markup;
    return svg;
  };
  const draw = () => {
    const rows = r.pieces.map((p) => h('tr', { 'data-testid': `piece-${p.letter}` },
      h('td', { class: 'art' }, art(p, 'white')), h('td', { class: 'art' }, art(p, 'black')),
      h('td', {}, h('b', {}, p.letter)), h('td', {}, p.name,
        p.flags.length ? h('span', { class: 'hint' }, ` (${p.flags.join(', ')})`) : null,
        p.role ? h('span', { class: 'hint' }, ` (${p.role})`) : null),
      h('td', {}, h('code', {}, p.moves)), h('td', { 'data-testid': `words-${p.letter}` }, p.words,
        p.activates ? ` Activates: ${p.activates.join(', ')}.` : '')));
    const start = { ...r.start, variant: r.id };
    app.replaceChildren(h('article', { class: 'rules-page', 'data-testid': 'rules' },
      h('h1', {}, `Rules of ${r.name}`, h('span', { class: 'vid' }, r.id)),
      h('p', { class: 'summary', 'data-testid': 'rules-summary' }, r.summary),
      r.reconstructed ? h('p', { class: 'reconstructed', 'data-testid': 'rules-reconstructed' },
        'Setup reconstructed: ', r.reconstructed.replace(/^setup:\s*/i, '')) : h('p', { class: 'hint', 'data-testid': 'rules-sourced' }, 'The setup is the inventor\'s, not a reconstruction.'),
      h('h2', {}, 'Pieces'),
      h('table', { 'data-testid': 'rules-pieces' },
        h('thead', {}, h('tr', {}, h('th', {}, 'White'), h('th', {}, 'Black'), h('th', {}, 'Letter'), h('th', {}, 'Piece'), h('th', {}, 'Moves (Betza)'), h('th', {}, 'In words'))),
        h('tbody', {}, rows)),
      h('p', { class: 'hint' }, 'Capture is by moving onto an enemy unit, unless said otherwise. Betza notation: docs/variants.md of the project.'),
      h('h2', {}, 'A turn'),
      h('ul', { 'data-testid': 'rules-command' }, r.command_rules.map((t) => h('li', {}, t))),
      h('h2', {}, 'Winning'),
      h('p', { 'data-testid': 'rules-victory' }, r.victory),
      r.draws.length ? h('ul', {}, r.draws.map((t) => h('li', {}, t))) : null,
      ...(r.sections || []).flatMap((sec) => [h('h2', {}, sec.title),
        h('ul', { 'data-testid': 'rules-section' }, sec.items.map((t) => h('li', {}, t)))]),
      r.groups.length ? h('h2', {}, 'Groups') : null,
      r.groups.length ? h('ul', {}, r.groups.map((g) => h('li', {}, `${g.number}: ${g.name} (White ${g.colours.white}, Black ${g.colours.black})`))) : null,
      h('h2', {}, 'Setup'),
      r.placement ? h('p', {}, `Free set-up: each side places ${r.placement.units.map((u) => `${u.count} ${u.name}`).join(', ')} on its first ${r.placement.ranks} ranks.`) : null,
      h('div', { class: 'setup', 'data-testid': 'rules-setup' }, CohortBoard.render(start, { size: r.files > 8 ? 40 : 52 })),
      h('p', {}, h('code', { 'data-testid': 'rules-position' }, r.setup)),
      h('div', { class: 'buttons' },
        h('button', { 'data-testid': 'letters-toggle', onclick: () => { CohortBoard.setLetters(!CohortBoard.lettersOn()); draw(); } },
          CohortBoard.lettersOn() ? 'Pictures' : 'Letters'),
        h('a', { href: STATIC_SITE ? `local.html?variant=${encodeURIComponent(r.id)}` : `/#variant-${r.id}`, class: 'button' }, 'Play it'),
        h('a', { href: `${STATIC_SITE ? 'analysis.html' : '/analysis'}?variant=${encodeURIComponent(r.id)}`, class: 'button', 'data-testid': 'analysis-board-link' }, 'Analysis board'))));
  };
  draw();
}
