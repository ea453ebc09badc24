// Cohort's piece graphics: an SVG drawing (45x45 viewBox) for every piece kind of the
// built-in variants, chosen by the piece's name (a GameView's `pieces`). Every drawing,
// the orthodox pieces included, was drawn for Cohort in one style (black outline, 1.5
// strokes, white or black body, a plinth) and is under Cohort's MIT licence (NOTICE.md).
// `CohortPieces.markup(name, side)` returns the inner SVG markup, or null for a name it has
// no drawing of (the board then draws the letter).
'use strict';

const CohortPieces = (() => {

  // A plinth under most of the drawn pieces.
  const plinth = (F) => `<path d="M11 38.5h23c0-2.2-1.2-3.5-3.2-3.5H14.2c-2 0-3.2 1.3-3.2 3.5z" fill="${F}"/>`;
  // A standing figure: a body and a head (the fairy "people").
  const figure = (F) => `<path d="M14 35c0-8 3-13 8.5-13s8.5 5 8.5 13z" fill="${F}"/><circle cx="22.5" cy="16" r="5" fill="${F}"/>`;

  // Each drawing gets F (the body: white or black) and D (details: black on White, light on Black).
  const DRAWN = {
    // The orthodox pieces.
    king: (F, D) => `<path d="M22.5 3.5v7M19 6.5h7"/><path d="M16 17c0-4.5 3-7 6.5-7s6.5 2.5 6.5 7" fill="${F}"/><path d="M12 33c0-7 1.5-12.5 4-16.5 2 2.5 4 3.5 6.5 3.5s4.5-1 6.5-3.5c2.5 4 4 9.5 4 16.5z" fill="${F}"/><path d="M14 27.5h17M22.5 21v6.5" stroke="${D}"/>${plinth(F)}`,
    queen: (F, D) => `<path d="M12.5 33L10 14l6.5 8.5L17 9.5l5.5 11.5 5.5-11.5.5 13L35 14l-2.5 19z" fill="${F}"/><circle cx="10" cy="12.5" r="2.2" fill="${F}"/><circle cx="17" cy="8" r="2.2" fill="${F}"/><circle cx="28" cy="8" r="2.2" fill="${F}"/><circle cx="35" cy="12.5" r="2.2" fill="${F}"/><path d="M14 28h17" stroke="${D}"/>${plinth(F)}`,
    rook: (F, D) => `<path d="M12.5 7.5h4.5v3.5h3.5V7.5h4v3.5H28V7.5h4.5v8l-3.5 3v12.5H16V18.5l-3.5-3z" fill="${F}"/><path d="M16 18.5h13M16 27h13" stroke="${D}"/><path d="M13.5 35.5v-4h18v4z" fill="${F}"/>${plinth(F)}`,
    bishop: (F, D) => `<circle cx="22.5" cy="6" r="2" fill="${F}"/><path d="M22.5 8.5c-5 4-8 8.5-8 13 0 4 3.5 6.5 8 6.5s8-2.5 8-6.5c0-4.5-3-9-8-13z" fill="${F}"/><path d="M25.5 13.5l-4.5 5.5M19 24.5h7" stroke="${D}"/><path d="M14.5 35.5c0-4 3.5-6.5 8-6.5s8 2.5 8 6.5z" fill="${F}"/>${plinth(F)}`,
    knight: (F, D) => `<path d="M31.5 35.5V23c0-8-4.5-14-11-14.5L19 5.5l-2 4c-3 2.5-5.5 6-7 10.5-.6 2 .4 3.5 2.3 3.5h2.2l3.5-2.3c2 0 3.6-.5 5-2-1 4.5-4.5 6.5-5.5 10-.4 1.5-.5 3.5-.5 6.3z" fill="${F}"/><circle cx="17.5" cy="14.5" r="1.2" fill="${D}" stroke="${D}"/><path d="M25 11.5c2.5 3 4 7 4 12" stroke="${D}"/>${plinth(F)}`,
    pawn: (F, D) => `<circle cx="22.5" cy="13" r="5" fill="${F}"/><path d="M18 20.5h9" /><path d="M15.5 35.5c0-8 3-12.5 7-15 4 2.5 7 7 7 15z" fill="${F}"/><path d="M19 30h7" stroke="${D}"/>${plinth(F)}`,
    chief: (F, D) => `${figure(F)}<path d="M17.5 12.5l1-6 2.5 3 1.5-4.5 1.5 4.5 2.5-3 1 6z" fill="${F}"/><path d="M18 28h9" stroke="${D}"/>${plinth(F)}`,
    leader: (F, D) => DRAWN.chief(F, D),
    chieftain: (F, D) => `<path d="M14 35c0-8 3-12 8.5-12s8.5 4 8.5 12z" fill="${F}"/><path d="M18.5 15l-5-10 7 7zM22.5 13.5l-1.5-11h3zM26.5 15l5-10-7 7z" fill="${F}"/><circle cx="22.5" cy="18" r="5" fill="${F}"/><path d="M18 29h9M19.5 32h6" stroke="${D}"/>${plinth(F)}`,
    prince: (F, D) => `${figure(F)}<path d="M17.5 12l.8-4.5 2.4 2.2 1.8-3.2 1.8 3.2 2.4-2.2.8 4.5z" fill="${F}"/><circle cx="22.5" cy="28" r="2" fill="${D}" stroke="none"/>${plinth(F)}`,
    guard: (F, D) => `<path d="M22.5 6c4.5 2 8.5 2.3 11 1.2 0 13-4 21.5-11 26.3-7-4.8-11-13.3-11-26.3 2.5 1.1 6.5.8 11-1.2z" fill="${F}"/><path d="M22.5 12v16M16.5 18h12" stroke="${D}"/>${plinth(F)}`,
    warmachine: (F, D) => `<path d="M15 24L30 8" stroke-width="2.5"/><circle cx="30.5" cy="8" r="3" fill="${F}"/><path d="M9 30h27l-3-8H12z" fill="${F}"/><circle cx="15" cy="32" r="4" fill="${F}"/><circle cx="30" cy="32" r="4" fill="${F}"/><circle cx="15" cy="32" r="1" fill="${D}" stroke="${D}"/><circle cx="30" cy="32" r="1" fill="${D}" stroke="${D}"/>`,
    elephant: (F, D) => `<ellipse cx="13" cy="17" rx="6" ry="8" fill="${F}"/><ellipse cx="32" cy="17" rx="6" ry="8" fill="${F}"/><circle cx="22.5" cy="16" r="8.5" fill="${F}"/><path d="M19.5 22c0 6 0 9 5 12.5l2.5-1.5c-3-3-3-6.5-2.5-11z" fill="${F}"/><path d="M17.5 22.5l-3 4M27.5 22.5l3 4" stroke="${D}"/><circle cx="19" cy="14" r="1" fill="${D}" stroke="${D}"/><circle cx="26" cy="14" r="1" fill="${D}" stroke="${D}"/>${plinth(F)}`,
    ferz: (F, D) => `<path d="M22.5 7l8 9.5-8 9.5-8-9.5z" fill="${F}"/><path d="M18.5 26h8l2 9h-12z" fill="${F}"/><path d="M22.5 11v11" stroke="${D}"/>${plinth(F)}`,
    wazir: (F, D) => `<path d="M19.5 7h6v5.5H31v6h-5.5V24h-6v-5.5H14v-6h5.5z" fill="${F}"/><path d="M18.5 24h8l2 11h-12z" fill="${F}"/><circle cx="22.5" cy="15.5" r="1.3" fill="${D}" stroke="${D}"/>${plinth(F)}`,
    man: (F, D) => `<circle cx="22.5" cy="13" r="5.5" fill="${F}"/><path d="M12.5 35c0-9 4-15.5 10-15.5s10 6.5 10 15.5z" fill="${F}"/><path d="M22.5 24v8" stroke="${D}"/>${plinth(F)}`,
    hero: (F, D) => `${figure(F)}<path d="M32.5 4l1.6 3v15h-3.2V7z" fill="${F}"/><path d="M29 22h7M32.5 22v4" /><path d="M18 28h9" stroke="${D}"/>${plinth(F)}`,
    shaman: (F, D) => `<path d="M22.5 5l9.5 30H13z" fill="${F}"/><circle cx="22.5" cy="18" r="3.2" fill="${D}" stroke="${D}"/><path d="M18 28h9" stroke="${D}"/>${plinth(F)}`,
    gold: (F, D) => `<path d="M22.5 5l10 4.5 3 27H9.5l3-27z" fill="${F}"/><circle cx="22.5" cy="21" r="5" stroke="${D}"/><path d="M14 30.5h17" stroke="${D}"/>`,
    silver: (F, D) => `<path d="M22.5 5l10 4.5 3 27H9.5l3-27z" fill="${F}"/><path d="M17.5 16l10 10M27.5 16l-10 10" stroke="${D}"/><path d="M14 30.5h17" stroke="${D}"/>`,
    // Ataxx: a stone, a disc with a rim.
    stone: (F, D) => `<circle cx="22.5" cy="22.5" r="14" fill="${F}"/><circle cx="22.5" cy="22.5" r="9.5" stroke="${D}"/>`,
    // Lifeform Chess: the parts of a body.
    head: (F, D) => `<circle cx="22.5" cy="19" r="11" fill="${F}"/><circle cx="18.5" cy="17" r="1.4" fill="${D}" stroke="${D}"/><circle cx="26.5" cy="17" r="1.4" fill="${D}" stroke="${D}"/><path d="M18 23.5c3 3 6 3 9 0" stroke="${D}"/><path d="M19 30h7v4h-7z" fill="${F}"/>${plinth(F)}`,
    torso: (F, D) => `<path d="M12 9h21l-3 11 3 15H12l3-15z" fill="${F}"/><path d="M22.5 12v20M16 16c4 2 9 2 13 0" stroke="${D}"/>${plinth(F)}`,
    hand: (F, D) => `<rect x="14" y="9" width="4" height="15" rx="2" fill="${F}"/><rect x="18.3" y="6" width="4" height="17" rx="2" fill="${F}"/><rect x="22.6" y="7" width="4" height="16" rx="2" fill="${F}"/><rect x="26.9" y="10" width="4" height="14" rx="2" fill="${F}"/><path d="M14 20h17v2l3.5-4c2-1.5 3.5 0 2.5 2L31 29c-1 4-4 6-8.5 6S14 33 14 28z" fill="${F}"/><path d="M18 27h9" stroke="${D}"/>`,
    foot: (F, D) => `<path d="M15 6h10v19l9.5 4.5c2.5 1.2 2.5 6.5-1 6.5H13c-1.5 0-1.5-2 0-3l2-2z" fill="${F}"/><path d="M16 12h8M25 25l-4 6" stroke="${D}"/>`,
    hair: (F, D) => `<path d="M11.5 36c-2-9 1-19 9-28 0 8 2.5 10 1 16 4-5 6.5-10 5.5-16 7 8 9 19 6.5 28z" fill="${F}"/><path d="M16 33c-1-5 1-9 3-12M23 33c0-4 1-7 3-10M29 33c0-3 0-6-1-8" stroke="${D}"/>`,
    limb: (F, D) => `<rect x="19" y="9" width="7" height="27" rx="3.5" fill="${F}"/><circle cx="19.5" cy="9.5" r="4" fill="${F}"/><circle cx="25.5" cy="9.5" r="4" fill="${F}"/><circle cx="19.5" cy="35.5" r="4" fill="${F}"/><circle cx="25.5" cy="35.5" r="4" fill="${F}"/><path d="M19 9h7M19 36h7" stroke="${F}" stroke-width="3"/><path d="M22.5 15v15" stroke="${D}"/>`,
    // Chessma 84's Ultima pieces.
    immobilizer: (F, D) => `<path d="M18 6h9l7 7v9l-7 7h-9l-7-7v-9z" fill="${F}"/><path d="M16 17.5h13" stroke="${D}" stroke-width="3"/><path d="M19 29h7l2 6H17z" fill="${F}"/>${plinth(F)}`,
    pusher: (F, D) => `<path d="M22.5 5l11.5 14h-6.5v15h-10V19H11z" fill="${F}"/><path d="M22.5 13v16" stroke="${D}"/>${plinth(F)}`,
    'long leaper': (F, D) => `<path d="M8 33c2-25 27-25 29 0h-5.5c-2-17-16-17-18 0z" fill="${F}"/><path d="M31 25l7 3-2 8" fill="none"/><circle cx="22.5" cy="13" r="2" fill="${D}" stroke="${D}"/>${plinth(F)}`,
    withdrawer: (F, D) => `<path d="M22.5 34L11 20h6.5V6h10v14H34z" fill="${F}"/><path d="M22.5 10v16" stroke="${D}"/>${plinth(F)}`,
    coordinator: (F, D) => `<circle cx="22.5" cy="19" r="12" fill="${F}"/><path d="M22.5 9v20M12.5 19h20" stroke="${D}"/><circle cx="22.5" cy="19" r="5" stroke="${D}"/>${plinth(F)}`,
    encloser: (F, D) => `<path d="M22.5 7a12 12 0 1 0 0 24a12 12 0 1 0 0-24zm0 6a6 6 0 1 1 0 12a6 6 0 1 1 0-12z" fill="${F}" fill-rule="evenodd"/><path d="M22.5 3v4M22.5 31v3M8.5 19h4M32.5 19h4" />${plinth(F)}`,
    swapper: (F, D) => `<path d="M8 12h18V7l10 8-10 8v-5H8z" fill="${F}"/><path d="M37 26H19v-5L9 29l10 8v-5h18z" fill="${F}"/>`,
    chameleon: (F, D) => `<path d="M7 26c0-8 7-13 15-13 6 0 10 3 13 7l4 1-3 3c-2 4-6 6-11 6-4 0-6-2-6-4 0-3 3-4 5-3" fill="${F}"/><circle cx="31" cy="20" r="1.3" fill="${D}" stroke="${D}"/><path d="M12 26c0 6 4 9 9 9" stroke-width="2"/>${plinth(F)}`,
  };

  // Names the variants use for pieces drawn under another name.
  const ALIAS = { 'royal chief': 'chief', general: 'chief' };

  // The key of a piece name ("Long Leaper" -> "long leaper"); null if nothing is drawn for it.
  function keyOf(name) {
    const n = String(name || '').trim().toLowerCase();
    const k = ALIAS[n] || n;
    return DRAWN[k] ? k : null;
  }

  function markup(name, side) {
    const k = keyOf(name);
    if (!k) return null;
    const F = side === 'black' ? '#000' : '#fff';
    const D = side === 'black' ? '#ececec' : '#000';
    return `<g fill="none" stroke="#000" stroke-width="1.5" stroke-linecap="round" stroke-linejoin="round">${DRAWN[k](F, D)}</g>`;
  }

  // Every name with a drawing (for the tests and the rules page).
  const names = () => Object.keys(DRAWN);

  return { markup, keyOf, names };
})();
