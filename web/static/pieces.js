// Cohort's piece graphics: an SVG drawing (45x45 viewBox) for every piece kind of the
// built-in variants, chosen by the piece's name (a GameView's `pieces`). The orthodox
// pieces (King, Queen, Rook, Bishop, Knight, Pawn) are Colin M.L. Burnett's set ("cburnett",
// as shipped in the chessground npm package; GPL-3.0-or-later there; see web/static/NOTICE.md);
// the fairy, Lifeform and Ultima pieces are drawn here in the same style (black outline,
// 1.5 strokes, white or black body). `CohortPieces.markup(name, side)` returns the inner
// SVG markup, or null for a name it has no drawing of (the board then draws the letter).
'use strict';

const CohortPieces = (() => {
  const CBURNETT = {
 "wking": "<g fill=\"none\" fill-rule=\"evenodd\" stroke=\"#000\" stroke-width=\"1.5\" stroke-linecap=\"round\" stroke-linejoin=\"round\"><path d=\"M22.5 11.63V6M20 8h5\" stroke-linejoin=\"miter\"/><path d=\"M22.5 25s4.5-7.5 3-10.5c0 0-1-2.5-3-2.5s-3 2.5-3 2.5c-1.5 3 3 10.5 3 10.5\" fill=\"#fff\" stroke-linecap=\"butt\" stroke-linejoin=\"miter\"/><path d=\"M11.5 37c5.5 3.5 15.5 3.5 21 0v-7s9-4.5 6-10.5c-4-6.5-13.5-3.5-16 4V27v-3.5c-3.5-7.5-13-10.5-16-4-3 6 5 10 5 10V37z\" fill=\"#fff\"/><path d=\"M11.5 30c5.5-3 15.5-3 21 0m-21 3.5c5.5-3 15.5-3 21 0m-21 3.5c5.5-3 15.5-3 21 0\"/></g>",
 "wqueen": "<g fill=\"#fff\" fill-rule=\"evenodd\" stroke=\"#000\" stroke-width=\"1.5\" stroke-linecap=\"round\" stroke-linejoin=\"round\"><path d=\"M8 12a2 2 0 1 1-4 0 2 2 0 1 1 4 0zm16.5-4.5a2 2 0 1 1-4 0 2 2 0 1 1 4 0zM41 12a2 2 0 1 1-4 0 2 2 0 1 1 4 0zM16 8.5a2 2 0 1 1-4 0 2 2 0 1 1 4 0zM33 9a2 2 0 1 1-4 0 2 2 0 1 1 4 0z\"/><path d=\"M9 26c8.5-1.5 21-1.5 27 0l2-12-7 11V11l-5.5 13.5-3-15-3 15-5.5-14V25L7 14l2 12z\" stroke-linecap=\"butt\"/><path d=\"M9 26c0 2 1.5 2 2.5 4 1 1.5 1 1 .5 3.5-1.5 1-1.5 2.5-1.5 2.5-1.5 1.5.5 2.5.5 2.5 6.5 1 16.5 1 23 0 0 0 1.5-1 0-2.5 0 0 .5-1.5-1-2.5-.5-2.5-.5-2 .5-3.5 1-2 2.5-2 2.5-4-8.5-1.5-18.5-1.5-27 0z\" stroke-linecap=\"butt\"/><path d=\"M11.5 30c3.5-1 18.5-1 22 0M12 33.5c6-1 15-1 21 0\" fill=\"none\"/></g>",
 "wrook": "<g fill=\"#fff\" fill-rule=\"evenodd\" stroke=\"#000\" stroke-width=\"1.5\" stroke-linecap=\"round\" stroke-linejoin=\"round\"><path d=\"M9 39h27v-3H9v3zm3-3v-4h21v4H12zm-1-22V9h4v2h5V9h5v2h5V9h4v5\" stroke-linecap=\"butt\"/><path d=\"M34 14l-3 3H14l-3-3\"/><path d=\"M31 17v12.5H14V17\" stroke-linecap=\"butt\" stroke-linejoin=\"miter\"/><path d=\"M31 29.5l1.5 2.5h-20l1.5-2.5\"/><path d=\"M11 14h23\" fill=\"none\" stroke-linejoin=\"miter\"/></g>",
 "wbishop": "<g fill=\"none\" fill-rule=\"evenodd\" stroke=\"#000\" stroke-width=\"1.5\" stroke-linecap=\"round\" stroke-linejoin=\"round\"><g fill=\"#fff\" stroke-linecap=\"butt\"><path d=\"M9 36c3.39-.97 10.11.43 13.5-2 3.39 2.43 10.11 1.03 13.5 2 0 0 1.65.54 3 2-.68.97-1.65.99-3 .5-3.39-.97-10.11.46-13.5-1-3.39 1.46-10.11.03-13.5 1-1.354.49-2.323.47-3-.5 1.354-1.94 3-2 3-2z\"/><path d=\"M15 32c2.5 2.5 12.5 2.5 15 0 .5-1.5 0-2 0-2 0-2.5-2.5-4-2.5-4 5.5-1.5 6-11.5-5-15.5-11 4-10.5 14-5 15.5 0 0-2.5 1.5-2.5 4 0 0-.5.5 0 2z\"/><path d=\"M25 8a2.5 2.5 0 1 1-5 0 2.5 2.5 0 1 1 5 0z\"/></g><path d=\"M17.5 26h10M15 30h15m-7.5-14.5v5M20 18h5\" stroke-linejoin=\"miter\"/></g>",
 "wknight": "<g fill=\"none\" fill-rule=\"evenodd\" stroke=\"#000\" stroke-width=\"1.5\" stroke-linecap=\"round\" stroke-linejoin=\"round\"><path d=\"M22 10c10.5 1 16.5 8 16 29H15c0-9 10-6.5 8-21\" fill=\"#fff\"/><path d=\"M24 18c.38 2.91-5.55 7.37-8 9-3 2-2.82 4.34-5 4-1.042-.94 1.41-3.04 0-3-1 0 .19 1.23-1 2-1 0-4.003 1-4-4 0-2 6-12 6-12s1.89-1.9 2-3.5c-.73-.994-.5-2-.5-3 1-1 3 2.5 3 2.5h2s.78-1.992 2.5-3c1 0 1 3 1 3\" fill=\"#fff\"/><path d=\"M9.5 25.5a.5.5 0 1 1-1 0 .5.5 0 1 1 1 0zm5.433-9.75a.5 1.5 30 1 1-.866-.5.5 1.5 30 1 1 .866.5z\" fill=\"#000\"/></g>",
 "wpawn": "<path d=\"M22.5 9c-2.21 0-4 1.79-4 4 0 .89.29 1.71.78 2.38C17.33 16.5 16 18.59 16 21c0 2.03.94 3.84 2.41 5.03-3 1.06-7.41 5.55-7.41 13.47h23c0-7.92-4.41-12.41-7.41-13.47 1.47-1.19 2.41-3 2.41-5.03 0-2.41-1.33-4.5-3.28-5.62.49-.67.78-1.49.78-2.38 0-2.21-1.79-4-4-4z\" fill=\"#fff\" stroke=\"#000\" stroke-width=\"1.5\" stroke-linecap=\"round\"/>",
 "bking": "<g fill=\"none\" fill-rule=\"evenodd\" stroke=\"#000\" stroke-width=\"1.5\" stroke-linecap=\"round\" stroke-linejoin=\"round\"><path d=\"M22.5 11.63V6\" stroke-linejoin=\"miter\"/><path d=\"M22.5 25s4.5-7.5 3-10.5c0 0-1-2.5-3-2.5s-3 2.5-3 2.5c-1.5 3 3 10.5 3 10.5\" fill=\"#000\" stroke-linecap=\"butt\" stroke-linejoin=\"miter\"/><path d=\"M11.5 37c5.5 3.5 15.5 3.5 21 0v-7s9-4.5 6-10.5c-4-6.5-13.5-3.5-16 4V27v-3.5c-3.5-7.5-13-10.5-16-4-3 6 5 10 5 10V37z\" fill=\"#000\"/><path d=\"M20 8h5\" stroke-linejoin=\"miter\"/><path d=\"M32 29.5s8.5-4 6.03-9.65C34.15 14 25 18 22.5 24.5l.01 2.1-.01-2.1C20 18 9.906 14 6.997 19.85c-2.497 5.65 4.853 9 4.853 9\" stroke=\"#ececec\"/><path d=\"M11.5 30c5.5-3 15.5-3 21 0m-21 3.5c5.5-3 15.5-3 21 0m-21 3.5c5.5-3 15.5-3 21 0\" stroke=\"#ececec\"/></g>",
 "bqueen": "<g fill-rule=\"evenodd\" stroke=\"#000\" stroke-width=\"1.5\" stroke-linecap=\"round\" stroke-linejoin=\"round\"><g stroke=\"none\"><circle cx=\"6\" cy=\"12\" r=\"2.75\"/><circle cx=\"14\" cy=\"9\" r=\"2.75\"/><circle cx=\"22.5\" cy=\"8\" r=\"2.75\"/><circle cx=\"31\" cy=\"9\" r=\"2.75\"/><circle cx=\"39\" cy=\"12\" r=\"2.75\"/></g><path d=\"M9 26c8.5-1.5 21-1.5 27 0l2.5-12.5L31 25l-.3-14.1-5.2 13.6-3-14.5-3 14.5-5.2-13.6L14 25 6.5 13.5 9 26z\" stroke-linecap=\"butt\"/><path d=\"M9 26c0 2 1.5 2 2.5 4 1 1.5 1 1 .5 3.5-1.5 1-1.5 2.5-1.5 2.5-1.5 1.5.5 2.5.5 2.5 6.5 1 16.5 1 23 0 0 0 1.5-1 0-2.5 0 0 .5-1.5-1-2.5-.5-2.5-.5-2 .5-3.5 1-2 2.5-2 2.5-4-8.5-1.5-18.5-1.5-27 0z\" stroke-linecap=\"butt\"/><path d=\"M11 38.5a35 35 1 0 0 23 0\" fill=\"none\" stroke-linecap=\"butt\"/><path d=\"M11 29a35 35 1 0 1 23 0m-21.5 2.5h20m-21 3a35 35 1 0 0 22 0m-23 3a35 35 1 0 0 24 0\" fill=\"none\" stroke=\"#ececec\"/></g>",
 "brook": "<g fill-rule=\"evenodd\" stroke=\"#000\" stroke-width=\"1.5\" stroke-linecap=\"round\" stroke-linejoin=\"round\"><path d=\"M9 39h27v-3H9v3zm3.5-7l1.5-2.5h17l1.5 2.5h-20zm-.5 4v-4h21v4H12z\" stroke-linecap=\"butt\"/><path d=\"M14 29.5v-13h17v13H14z\" stroke-linecap=\"butt\" stroke-linejoin=\"miter\"/><path d=\"M14 16.5L11 14h23l-3 2.5H14zM11 14V9h4v2h5V9h5v2h5V9h4v5H11z\" stroke-linecap=\"butt\"/><path d=\"M12 35.5h21m-20-4h19m-18-2h17m-17-13h17M11 14h23\" fill=\"none\" stroke=\"#ececec\" stroke-width=\"1\" stroke-linejoin=\"miter\"/></g>",
 "bbishop": "<g fill=\"none\" fill-rule=\"evenodd\" stroke=\"#000\" stroke-width=\"1.5\" stroke-linecap=\"round\" stroke-linejoin=\"round\"><g fill=\"#000\" stroke-linecap=\"butt\"><path d=\"M9 36c3.39-.97 10.11.43 13.5-2 3.39 2.43 10.11 1.03 13.5 2 0 0 1.65.54 3 2-.68.97-1.65.99-3 .5-3.39-.97-10.11.46-13.5-1-3.39 1.46-10.11.03-13.5 1-1.354.49-2.323.47-3-.5 1.354-1.94 3-2 3-2z\"/><path d=\"M15 32c2.5 2.5 12.5 2.5 15 0 .5-1.5 0-2 0-2 0-2.5-2.5-4-2.5-4 5.5-1.5 6-11.5-5-15.5-11 4-10.5 14-5 15.5 0 0-2.5 1.5-2.5 4 0 0-.5.5 0 2z\"/><path d=\"M25 8a2.5 2.5 0 1 1-5 0 2.5 2.5 0 1 1 5 0z\"/></g><path d=\"M17.5 26h10M15 30h15m-7.5-14.5v5M20 18h5\" stroke=\"#ececec\" stroke-linejoin=\"miter\"/></g>",
 "bknight": "<g fill=\"none\" fill-rule=\"evenodd\" stroke=\"#000\" stroke-width=\"1.5\" stroke-linecap=\"round\" stroke-linejoin=\"round\"><path d=\"M22 10c10.5 1 16.5 8 16 29H15c0-9 10-6.5 8-21\" fill=\"#000\"/><path d=\"M24 18c.38 2.91-5.55 7.37-8 9-3 2-2.82 4.34-5 4-1.042-.94 1.41-3.04 0-3-1 0 .19 1.23-1 2-1 0-4.003 1-4-4 0-2 6-12 6-12s1.89-1.9 2-3.5c-.73-.994-.5-2-.5-3 1-1 3 2.5 3 2.5h2s.78-1.992 2.5-3c1 0 1 3 1 3\" fill=\"#000\"/><path d=\"M9.5 25.5a.5.5 0 1 1-1 0 .5.5 0 1 1 1 0zm5.433-9.75a.5 1.5 30 1 1-.866-.5.5 1.5 30 1 1 .866.5z\" fill=\"#ececec\" stroke=\"#ececec\"/><path d=\"M24.55 10.4l-.45 1.45.5.15c3.15 1 5.65 2.49 7.9 6.75S35.75 29.06 35.25 39l-.05.5h2.25l.05-.5c.5-10.06-.88-16.85-3.25-21.34-2.37-4.49-5.79-6.64-9.19-7.16l-.51-.1z\" fill=\"#ececec\" stroke=\"none\"/></g>",
 "bpawn": "<path d=\"M22.5 9c-2.21 0-4 1.79-4 4 0 .89.29 1.71.78 2.38C17.33 16.5 16 18.59 16 21c0 2.03.94 3.84 2.41 5.03-3 1.06-7.41 5.55-7.41 13.47h23c0-7.92-4.41-12.41-7.41-13.47 1.47-1.19 2.41-3 2.41-5.03 0-2.41-1.33-4.5-3.28-5.62.49-.67.78-1.49.78-2.38 0-2.21-1.79-4-4-4z\" stroke=\"#000\" stroke-width=\"1.5\" stroke-linecap=\"round\"/>"
};

  // A plinth under most of the drawn pieces.
  const plinth = (F) => `<path d="M11 38.5h23c0-2.2-1.2-3.5-3.2-3.5H14.2c-2 0-3.2 1.3-3.2 3.5z" fill="${F}"/>`;
  // A standing figure: a body and a head (the fairy "people").
  const figure = (F) => `<path d="M14 35c0-8 3-13 8.5-13s8.5 5 8.5 13z" fill="${F}"/><circle cx="22.5" cy="16" r="5" fill="${F}"/>`;

  // Each drawing gets F (the body: white or black) and D (details: black on White, light on Black).
  const DRAWN = {
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

  // Names of the orthodox drawings, and the names the variants use for the same pieces.
  const ORTHODOX = { king: 'king', queen: 'queen', rook: 'rook', bishop: 'bishop', knight: 'knight', pawn: 'pawn' };
  const ALIAS = { 'royal chief': 'chief', general: 'chief' };

  // The key of a piece name ("Long Leaper" -> "long leaper"); null if nothing is drawn for it.
  function keyOf(name) {
    const n = String(name || '').trim().toLowerCase();
    const k = ALIAS[n] || n;
    return ORTHODOX[k] || DRAWN[k] ? k : null;
  }

  function markup(name, side) {
    const k = keyOf(name);
    if (!k) return null;
    if (ORTHODOX[k]) return CBURNETT[(side === 'black' ? 'b' : 'w') + ORTHODOX[k]];
    const F = side === 'black' ? '#000' : '#fff';
    const D = side === 'black' ? '#ececec' : '#000';
    return `<g fill="none" stroke="#000" stroke-width="1.5" stroke-linecap="round" stroke-linejoin="round">${DRAWN[k](F, D)}</g>`;
  }

  // Every name with a drawing (for the tests and the rules page).
  const names = () => Object.keys(ORTHODOX).concat(Object.keys(DRAWN));

  return { markup, keyOf, names };
})();
