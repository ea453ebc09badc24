// Cohort's pages, split by concern (loaded in this order, plain scripts sharing one global
// scope; the API is docs/server.md; no framework, no build step):
//   common.js      helpers: DOM building, the API, names
//   home.js        the home page (variants, new games, recent games)
//   game-state.js  the game page's state and its server connection (WebSocket, replay of others' steps)
//   move-input.js  the move input: clicks, legal steps by square, step and lead-mode choices, pockets
//   move-list.js   the turns, the last step, arrows and the move list
//   panels.js      the side panels of the game page (status, turn, tools, offers, captures)
//   game-page.js   the game page: the board and the panel put together
//   replay.js      the replay (`/game/<id>?replay`)
//   rules-page.js  a variant's rules page
//   analysis.js    the analysis board (`/analysis?game=<id>` or `?variant=<id>`)
//   tournaments.js the tournaments (`/tournaments`) and a tournament's page (`/tournament/<id>`)
//   app.js         (this file) picks the page to draw
'use strict';

if (page === 'home') home();
else if (page === 'rules') rulesPage();
else if (page === 'game' && params.has('replay')) replayPage();
else if (page === 'game') gamePage();
else if (page === 'analysis') analysisPage();
else if (page === 'tournaments') tournamentsPage();
else if (page === 'tournament') tournamentPage();
