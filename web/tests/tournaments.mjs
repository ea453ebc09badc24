// Browser test of tournaments (docs/server.md, "Tournaments" and "Pages"; issue 45): a Swiss
// of 5 created and started in the page, played over 3 rounds through the API, its standings
// on the page checked against the test's own count (points, Buchholz, Sonneborn-Berger,
// shared ranks); an Arena of 6 for 3 minutes whose players are paired again within 2 s of
// each game's end and whose standings change on two open pages without a reload; a Swiss
// whose server is killed mid-round and restarted on the same SQLite file; and every page at
// a phone's width (390 px) without sideways scrolling.
// Usage (from web/): npm ci && COHORT_BIN=../target/release/cohort node tests/tournaments.mjs [filter]
import { check, killServer, runSuite, startServer } from './harness.mjs';

const WAIT_MS = 20000;
// Each game's end must bring both players a new game (Arena) or the page's standings
// within this long.
const LIVE_MS = 2000;
let env = null;

// Accounts shared by the scenarios (sign-ups are limited to 10 per address in 15 minutes):
// the first signed up in the page, the others through the API; each in a browser context
// of its own whose request context carries its session cookie.
const NAMES = ['alexandra_thompson', 'bruno', 'chloe', 'dmitri', 'esther', 'farid'];
let accounts = null;
const password = (name) => `${name}'s secret password`;

async function json(r, what) {
  let body = null;
  try { body = await r.json(); } catch { body = null; }
  check(r.ok(), `${what}: ${r.status()} ${JSON.stringify(body)}`);
  return body;
}

function account(name, ctx) {
  return {
    name, ctx,
    get: async (path) => json(await ctx.request.get(`${env.base}${path}`), `${name} GET ${path}`),
    post: async (path, body = {}) => json(await ctx.request.post(`${env.base}${path}`, { data: body }), `${name} POST ${path}`),
  };
}

async function signUpInPage(page, name, next) {
  await page.goto(`${env.base}/login?next=${encodeURIComponent(next)}`);
  await page.fill('[data-testid=signup-username]', name);
  await page.fill('[data-testid=signup-password]', password(name));
  await page.click('[data-testid=signup-submit]');
  await page.waitForURL(`${env.base}${next}`);
}

async function allAccounts(sc) {
  if (accounts) return accounts;
  const list = [];
  for (const [i, name] of NAMES.entries()) {
    const ctx = await env.browser.newContext({ viewport: { width: 1300, height: 900 } });
    if (i === 0) {
      const p = await sc.page(ctx);
      await signUpInPage(p, name, '/tournaments');
      await p.close();
    } else {
      await json(await ctx.request.post(`${env.base}/api/account/signup`, { data: { username: name, password: password(name) } }), `sign up ${name}`);
    }
    list.push(account(name, ctx));
  }
  accounts = list;
  return list;
}

// Game actions need no cookie: a seat's token moves it.
async function game(path, body) {
  const r = await fetch(`${env.base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const j = await r.json().catch(() => null);
  check(r.ok, `POST ${path} ${JSON.stringify(body)}: ${r.status} ${JSON.stringify(j)}`);
  return j;
}
const tokenOf = (link) => new URL(link, env.base).searchParams.get('token');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Poll `fn` every `every` ms until it gives something truthy; fails after `ms`.
async function until(fn, what, ms = WAIT_MS, every = 100) {
  const t0 = Date.now();
  for (;;) {
    const v = await fn();
    if (v) return v;
    check(Date.now() - t0 < ms, `${what}: not within ${ms} ms`);
    await sleep(every);
  }
}

// Plays a game to `how`: 'white' (Black resigns after 1. e4 e5), 'black' (White resigns
// after 1. e4 e5), 'mate' (Black mates: 1. f3 e5 2. g4 Qh4#), 'draw' (1. e4 e5, White
// offers, Black accepts). `white` and `black`: the seats' tokens. Returns the winner's
// side or 'draw', as the game's result says.
async function play(id, white, black, how) {
  const step = (token, s) => game(`/api/games/${id}/step`, { token, step: s });
  let v;
  if (how === 'mate') {
    await step(white, 'f2-f3');
    await step(black, 'e7-e5');
    await step(white, 'g2-g4');
    v = await step(black, 'd8-h4');
  } else {
    await step(white, 'e2-e4');
    await step(black, 'e7-e5');
    if (how === 'white') v = await game(`/api/games/${id}/resign`, { token: black });
    else if (how === 'black') v = await game(`/api/games/${id}/resign`, { token: white });
    else {
      await game(`/api/games/${id}/draw`, { token: white, action: 'offer' });
      v = await game(`/api/games/${id}/draw`, { token: black, action: 'accept' });
    }
  }
  check(v.result, `game ${id} (${how}) is over: ${JSON.stringify(v.result)}`);
  const got = v.result.winner || 'draw';
  check(got === (how === 'mate' ? 'black' : how), `game ${id} played to ${how} ended ${JSON.stringify(v.result)}`);
  return got;
}

// The seat tokens of a tournament game, each from its player's `me.game`.
async function seats(tid, g, byName) {
  const tokens = {};
  for (const side of ['white', 'black']) {
    const t = await byName[g[side]].get(`/api/tournaments/${tid}`);
    check(t.me && t.me.game && t.me.game.id === g.game, `${g[side]}'s me.game is game ${g.game}: ${JSON.stringify(t.me)}`);
    check(t.me.game.link === `/game/${g.game}?token=${tokenOf(t.me.game.link)}`, `me.game.link is the seat's link: ${t.me.game.link}`);
    tokens[side] = tokenOf(t.me.game.link);
  }
  return tokens;
}

// A Swiss's standings counted by hand from its pairings and results, as docs/server.md
// says: a win 1, a draw 1/2, a bye 1; Buchholz the sum of the points of the opponents met
// over the board; Sonneborn-Berger the points of the opponents beaten plus half those of
// the opponents drawn; the rank 1 + the number of players better on points, then
// Buchholz, then Sonneborn-Berger (players level on all three share it).
// `games`: [{ white, black, result: 'white' | 'black' | 'draw' }], `byes`: [name].
function swissStandings(names, games, byes) {
  const points = Object.fromEntries(names.map((n) => [n, 0]));
  for (const g of games) {
    if (g.result === 'draw') { points[g.white] += 0.5; points[g.black] += 0.5; } else points[g[g.result]] += 1;
  }
  for (const b of byes) points[b] += 1;
  const rows = names.map((n) => {
    let buchholz = 0, sb = 0;
    for (const g of games) {
      if (g.white !== n && g.black !== n) continue;
      const opp = g.white === n ? g.black : g.white;
      const mine = g.white === n ? 'white' : 'black';
      buchholz += points[opp];
      if (g.result === mine) sb += points[opp];
      else if (g.result === 'draw') sb += points[opp] / 2;
    }
    return { name: n, points: points[n], buchholz, sb };
  });
  const better = (a, b) => a.points > b.points || (a.points === b.points && (a.buchholz > b.buchholz || (a.buchholz === b.buchholz && a.sb > b.sb)));
  for (const r of rows) r.rank = 1 + rows.filter((o) => better(o, r)).length;
  return rows;
}

const num = (x) => String(Math.round(x * 4) / 4);

// The standings table as the page shows it: { name: { rank, points, buchholz, sb, sheet } }.
async function shownStandings(page) {
  return page.$$eval('[data-testid=standings] tbody tr', (trs) => Object.fromEntries(trs.map((tr) => {
    const cell = (id) => { const c = tr.querySelector(`[data-testid=${id}]`); return c ? c.textContent.trim() : null; };
    return [tr.dataset.player, {
      rank: cell('rank'), points: cell('points'), buchholz: cell('buchholz'), sb: cell('sonneborn-berger'),
      sheet: [...tr.querySelectorAll('[data-testid=sheet] .score')].map((s) => s.textContent),
      fire: tr.querySelectorAll('[data-testid=sheet] .score.fire').length,
    }];
  })));
}

function compareSwiss(shown, want, what) {
  for (const w of want) {
    const s = shown[w.name];
    check(s, `${what}: ${w.name} is in the standings table: ${JSON.stringify(shown)}`);
    const expect = { rank: String(w.rank), points: num(w.points), buchholz: num(w.buchholz), sb: num(w.sb) };
    for (const k of Object.keys(expect)) {
      check(s[k] === expect[k], `${what}: ${w.name}'s ${k} is ${s[k]} on the page, ${expect[k]} by hand (${JSON.stringify(want)})`);
    }
  }
}

const roundsOf = (t) => t.paired_rounds || [];

// Waits until round `r` of tournament `tid` is paired (as `who` sees it); returns it.
async function pairedRound(who, tid, r) {
  return until(async () => {
    const t = await who.get(`/api/tournaments/${tid}`);
    const round = roundsOf(t).find((x) => x.round === r);
    return round && round.games.length ? round : null;
  }, `round ${r} paired`);
}

let swissId = null;
let swissGame = null;

async function swissOfFive(sc) {
  const all = await allAccounts(sc);
  const five = all.slice(0, 5);
  const byName = Object.fromEntries(all.map((a) => [a.name, a]));
  const creator = five[0];
  // Created and started in the page, by its first player.
  const page = await sc.page(creator.ctx);
  await page.goto(`${env.base}/tournaments`);
  await page.waitForSelector('[data-testid=t-variant] option[value=chess]', { state: 'attached' });
  await page.fill('[data-testid=t-name]', 'Five of us');
  await page.selectOption('[data-testid=t-kind]', 'swiss');
  await page.selectOption('[data-testid=t-variant]', 'chess');
  await page.selectOption('[data-testid=t-pace]', 'live');
  await page.fill('[data-testid=t-clock-minutes]', '5');
  await page.fill('[data-testid=t-clock-increment]', '3');
  await page.fill('[data-testid=t-rounds]', '3');
  await page.uncheck('[data-testid=t-rated]');
  await page.selectOption('[data-testid=t-start]', 'hand');
  // A refused value is said under the form, naming the field; nothing is created.
  sc.expect(/POST http:\/\/127\.0\.0\.1:\d+\/api\/tournaments -> 400 /,
    /console error at http:\/\/127\.0\.0\.1:\d+\/api\/tournaments: Failed to load resource: the server responded with a status of 400/);
  await page.fill('[data-testid=t-rounds]', '16');
  await page.click('[data-testid=t-create]');
  check(!(await page.$eval('[data-testid=t-rounds]', (e) => e.validity.valid)), 'the form itself refuses 16 rounds');
  // Past the form's own bounds, the server's refusal is shown.
  await page.$eval('[data-testid=t-rounds]', (e) => e.removeAttribute('max'));
  await page.click('[data-testid=t-create]');
  await page.waitForFunction(() => document.querySelector('[data-testid=t-error]').textContent.includes('rounds'));
  check(new URL(page.url()).pathname === '/tournaments', 'still on the list after a refusal');
  const refused = await page.textContent('[data-testid=t-error]');
  await page.fill('[data-testid=t-rounds]', '3');
  await Promise.all([page.waitForURL(/\/tournament\/[^/?]+$/), page.click('[data-testid=t-create]')]);
  const tid = decodeURIComponent(new URL(page.url()).pathname.split('/').pop());
  swissId = tid;
  await page.waitForSelector('[data-testid=t-join]');
  const facts = await page.textContent('[data-testid=t-facts]');
  check(facts.includes('Swiss') && facts.includes('5+3') && facts.includes('casual'), `the header says Swiss, 5+3, casual: "${facts}"`);
  await page.click('[data-testid=t-join]');
  await page.waitForSelector('[data-testid=t-withdraw]');
  for (const a of five.slice(1)) await a.post(`/api/tournaments/${tid}/join`);
  // The page hears of the joins over its WebSocket.
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=standings] tbody tr').length === 5);
  await page.click('[data-testid=t-start]');
  await page.waitForSelector('[data-testid=tournament][data-status=running]');

  const names = five.map((a) => a.name);
  const plan = [['white', 'draw'], ['mate', 'white'], ['draw', 'black']];
  const games = [];
  const byes = [];
  const met = new Set();
  const lines = [];
  for (let r = 1; r <= 3; r++) {
    const round = await pairedRound(creator, tid, r);
    // One bye each round, to someone who had none; nobody meets anyone twice.
    check(round.bye && names.includes(round.bye), `round ${r} has a bye: ${JSON.stringify(round)}`);
    check(!byes.includes(round.bye), `round ${r}'s bye goes to ${round.bye}, who had one already (${byes})`);
    check(round.games.length === 2, `round ${r} has 2 games: ${JSON.stringify(round.games)}`);
    const inRound = [round.bye, ...round.games.flatMap((g) => [g.white, g.black])];
    check(new Set(inRound).size === 5, `round ${r}: everyone plays once or has the bye: ${inRound}`);
    for (const g of round.games) {
      const pair = [g.white, g.black].sort().join('-');
      check(!met.has(pair), `round ${r}: ${pair} meet again`);
      met.add(pair);
    }
    byes.push(round.bye);
    // The page shows the round (pushed), and its player's "Your game: play" link.
    await page.waitForSelector(`[data-testid=round-${r}]`);
    const mine = round.games.find((g) => g.white === creator.name || g.black === creator.name);
    if (mine) {
      const link = await page.getAttribute('[data-testid=t-play]', 'href');
      check(link && link.startsWith(`/game/${mine.game}?token=`), `round ${r}: "Your game: play" leads to ${mine.game}: ${link}`);
      swissGame = link;
    }
    for (const [i, g] of round.games.entries()) {
      const tokens = await seats(tid, g, byName);
      const result = await play(g.game, tokens.white, tokens.black, plan[r - 1][i]);
      games.push({ white: g.white, black: g.black, result });
    }
    lines.push(`R${r}: ${round.games.map((g, i) => `${g.white}-${g.black} ${games[games.length - 2 + i].result}`).join(', ')}, bye ${round.bye}`);
  }
  await page.waitForSelector('[data-testid=tournament][data-status=finished]');
  const t = await creator.get(`/api/tournaments/${tid}`);
  check(t.status === 'finished', `finished after 3 rounds: ${t.status}`);
  const want = swissStandings(names, games, byes);
  // Two level on points whom a tie-break parts.
  const parted = want.flatMap((a) => want.filter((b) => a.name < b.name && a.points === b.points && a.rank !== b.rank).map((b) => `${a.name}/${b.name} on ${a.points}`));
  check(parted.length, `the results leave two players level on points parted by a tie-break: ${JSON.stringify(want)}`);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=standings] tbody tr').length === 5);
  const shown = await shownStandings(page);
  compareSwiss(shown, want, 'final standings');
  // The table is in rank order.
  const order = await page.$$eval('[data-testid=standings] tbody tr [data-testid=rank]', (cs) => cs.map((c) => Number(c.textContent)));
  check(order.every((r, i) => !i || r >= order[i - 1]), `ranks in order: ${order}`);
  const cross = await page.$$eval('[data-testid=crosstable] tbody tr', (trs) => trs.length);
  check(cross === 5, `the crosstable has a row per player: ${cross}`);
  await page.close();
  const table = want.slice().sort((a, b) => a.rank - b.rank).map((w) => `${w.rank}. ${w.name} ${num(w.points)} (${num(w.buchholz)}, ${num(w.sb)})`).join('; ');
  return `16 rounds refused by the form, then by the server: "${refused}"; ${lines.join('; ')}; byes to 3 players, no pairing repeated; the page's standings equal the hand count: ${table}; level on points, parted by a tie-break: ${parted.join(', ')}`;
}

// An Arena's points for one player's results in order: a win 2, a draw 1, a loss 0; after
// two wins running, a win 4 and a draw 2, until a game is not won.
function arenaSheet(results) {
  let running = 0;
  return results.map((r) => {
    const fire = running >= 2;
    running = r === 'win' ? running + 1 : 0;
    const base = r === 'win' ? 2 : r === 'draw' ? 1 : 0;
    return fire ? base * 2 : base;
  });
}

async function arenaOfSix(sc) {
  const six = await allAccounts(sc);
  const byName = Object.fromEntries(six.map((a) => [a.name, a]));
  const creator = six[0];
  const made = await creator.post('/api/tournaments', {
    name: 'Three-minute Arena', kind: 'arena', variant: 'chess', clock: { minutes: 1, increment: 0 }, rated: false, minutes: 3,
  });
  const tid = made.id;
  for (const a of six) await a.post(`/api/tournaments/${tid}/join`);
  // Two pages watch it: they must follow every change without a reload.
  const pages = [];
  for (const a of six.slice(0, 2)) {
    const p = await sc.page(a.ctx);
    await p.goto(`${env.base}/tournament/${tid}`);
    await p.waitForFunction(() => document.querySelectorAll('[data-testid=standings] tbody tr').length === 6);
    await p.evaluate(() => { window.notReloaded = true; });
    pages.push(p);
  }
  const started = await creator.post(`/api/tournaments/${tid}/start`);
  check(started.status === 'running' && started.ends_ms, `the Arena runs with an end: ${started.status} ${started.ends_ms}`);
  const endsMs = started.ends_ms;
  const skew = (started.now_ms || Date.now()) - Date.now();
  const serverNow = () => Date.now() + skew;

  const results = Object.fromEntries(six.map((a) => [a.name, []]));
  const lastGame = {}; // name -> { id, endedAt }
  const repair = []; // ms from a game's end to both players' next game
  const pushed = []; // ms from a game's end to the changed points cell on both pages
  let count = 0;
  const star = six[2].name; // wins every game: on fire from its third
  // A player's game that is not `lastGame`'s: null once the Arena has ended with none.
  const nextGame = async (a) => {
    const prev = lastGame[a.name];
    for (;;) {
      const t = await a.get(`/api/tournaments/${tid}`);
      const g = t.me && t.me.game;
      if (g && (!prev || g.id !== prev.id)) {
        if (prev && prev.endedAt < endsMs - skew - LIVE_MS) repair.push(Date.now() - prev.endedAt);
        return { id: g.id, token: tokenOf(g.link) };
      }
      if (t.status === 'finished' || t.now_ms >= t.ends_ms) return null;
      check(!prev || Date.now() - prev.endedAt < 15000, `${a.name} has no new game 15 s after its last ended`);
      await sleep(50);
    }
  };
  // Waves: every player's next game, all played at once, each to a chosen result.
  for (;;) {
    const next = await Promise.all(six.map(nextGame));
    const byGame = new Map();
    next.forEach((g, i) => { if (g) byGame.set(g.id, [...(byGame.get(g.id) || []), { name: six[i].name, token: g.token }]); });
    if (!byGame.size) break;
    const t = await creator.get(`/api/tournaments/${tid}`);
    await Promise.all([...byGame.entries()].map(async ([id, players]) => {
      const listed = (t.games || []).find((g) => g.game === id);
      check(listed && players.length === 2, `game ${id} is listed with both its players: ${JSON.stringify(listed)} ${JSON.stringify(players)}`);
      const tok = Object.fromEntries(players.map((p) => [p.name, p.token]));
      const white = listed.white, black = listed.black;
      const how = white === star ? 'white' : black === star ? 'black' : ['white', 'draw', 'black'][count++ % 3];
      const got = await play(id, tok[white], tok[black], how);
      const endedAt = Date.now();
      for (const [name, side] of [[white, 'white'], [black, 'black']]) {
        results[name].push(got === 'draw' ? 'draw' : got === side ? 'win' : 'loss');
        lastGame[name] = { id, endedAt };
      }
      // The pages show the new points of those whose points changed, pushed.
      const changed = [white, black].filter((n) => arenaSheet(results[n]).at(-1) > 0);
      await Promise.all(changed.flatMap((n) => pages.map(async (p) => {
        const want = String(arenaSheet(results[n]).reduce((a, b) => a + b, 0));
        await p.waitForFunction(([name, pts]) => {
          const c = document.querySelector(`[data-testid="standing-${name}"] [data-testid=points]`);
          return c && c.textContent === pts;
        }, [n, want], { timeout: LIVE_MS * 3 });
        pushed.push(Date.now() - endedAt);
      })));
    }));
    if (serverNow() > endsMs + 60000) break;
  }
  const fin = await until(async () => {
    const t = await creator.get(`/api/tournaments/${tid}`);
    return t.status === 'finished' ? t : null;
  }, 'the Arena finished', 30000);
  const finishedLate = serverNow() - endsMs;
  // Standings: each sheet as the test counts it from the results, the points its sum.
  const games = Object.values(results).reduce((a, r) => a + r.length, 0) / 2;
  for (const s of fin.standings) {
    const sheet = arenaSheet(results[s.username]);
    check(JSON.stringify(s.sheet) === JSON.stringify(sheet), `${s.username}'s sheet is ${JSON.stringify(s.sheet)}, by hand ${JSON.stringify(sheet)} (${results[s.username]})`);
    const sum = sheet.reduce((a, b) => a + b, 0);
    check(s.points === sum && s.sheet.reduce((a, b) => a + b, 0) === s.points, `${s.username}'s points ${s.points} are its sheet's sum ${sum}`);
  }
  const fired = fin.standings.filter((s) => s.sheet.includes(4)).map((s) => s.username);
  check(fired.includes(star), `${star} won on fire: ${JSON.stringify(fin.standings.map((s) => [s.username, s.sheet]))}`);
  for (const p of pages) {
    await p.waitForSelector('[data-testid=tournament][data-status=finished]');
    check(await p.evaluate(() => window.notReloaded === true), 'the page was not reloaded');
    const shown = await shownStandings(p);
    for (const s of fin.standings) {
      check(shown[s.username].points === String(s.points) && JSON.stringify(shown[s.username].sheet) === JSON.stringify(s.sheet.map(String)),
        `the page shows ${s.username}'s points ${s.points} and sheet ${s.sheet}: ${JSON.stringify(shown[s.username])}`);
    }
    const fire = await p.$$eval('[data-testid="standing-' + star + '"] [data-testid=sheet] .score.fire', (es) => es.length);
    check(fire === fin.standings.find((s) => s.username === star).sheet.filter((x) => x === 4).length, `${star}'s games won on fire are marked: ${fire}`);
  }
  const max = (xs) => (xs.length ? Math.max(...xs) : NaN);
  check(repair.length >= 6, `re-pairings measured: ${repair.length}`);
  check(max(repair) <= LIVE_MS, `the slowest re-pairing took ${max(repair)} ms (over ${LIVE_MS}); all: ${repair.join(' ')}`);
  check(max(pushed) <= LIVE_MS, `the slowest pushed standings change took ${max(pushed)} ms (over ${LIVE_MS})`);
  for (const p of pages) await p.close();
  const top = fin.standings.map((s) => `${s.rank}. ${s.username} ${s.points} in ${s.sheet.length} games`).join('; ');
  return `${games} games; re-paired ${repair.length} times, slowest ${max(repair)} ms (mean ${Math.round(repair.reduce((a, b) => a + b, 0) / repair.length)} ms); ` +
    `points cells changed on both pages ${pushed.length} times, slowest ${max(pushed)} ms after the game's end; finished ${finishedLate} ms after ends_ms; ` +
    `on fire: ${fired.join(', ')}; sheets and points equal the hand count (${top})`;
}

async function restartMidRound(sc) {
  const four = (await allAccounts(sc)).slice(0, 4);
  const byName = Object.fromEntries(four.map((a) => [a.name, a]));
  const names = four.map((a) => a.name);
  const creator = four[0];
  const made = await creator.post('/api/tournaments', {
    name: 'Through a crash', kind: 'swiss', variant: 'chess', clock: { minutes: 10, increment: 5 }, rated: false, rounds: 2,
  });
  const tid = made.id;
  for (const a of four) await a.post(`/api/tournaments/${tid}/join`);
  await creator.post(`/api/tournaments/${tid}/start`);
  const r1 = await pairedRound(creator, tid, 1);
  check(r1.games.length === 2 && !r1.bye, `round 1 of 4: 2 games, no bye: ${JSON.stringify(r1)}`);
  const [a, b] = r1.games;
  const ta = await seats(tid, a, byName);
  const tb = await seats(tid, b, byName);
  const games = [{ white: a.white, black: a.black, result: await play(a.game, ta.white, ta.black, 'white') }];
  // Game b under way: one step played.
  await game(`/api/games/${b.game}/step`, { token: tb.white, step: 'e2-e4' });
  const page = await sc.page(creator.ctx);
  await page.goto(`${env.base}/tournament/${tid}`);
  await page.waitForSelector('[data-testid=round-1]');
  const before = swissStandings(names, games, []);
  await page.waitForFunction(([n]) => document.querySelector(`[data-testid="standing-${n}"] [data-testid=points]`)?.textContent === '1', [a.white]);
  compareSwiss(await shownStandings(page), before, 'before the kill');
  // While the server is down the page's socket fails to reconnect (the console says so).
  sc.expect(/WebSocket connection to 'ws:\/\/127\.0\.0\.1:\d+\/api\/tournaments\/[^/]+\/socket' failed/,
    /GET http:\/\/127\.0\.0\.1:\d+\/api\/\S* failed: net::ERR_CONNECTION_(REFUSED|RESET)/,
    /console error at http:\/\/127\.0\.0\.1:\d+\/api\/\S*: Failed to load resource: net::ERR_CONNECTION_(REFUSED|RESET)/);
  await killServer();
  await page.waitForSelector('[data-testid=t-connection]:not([hidden])');
  await startServer(env.port, env.database);
  const t0 = Date.now();
  // Round 1's last game finished after the restart: round 2 is paired.
  await game(`/api/games/${b.game}/step`, { token: tb.black, step: 'e7-e5' });
  games.push({ white: b.white, black: b.black, result: await blackWinsByResignation(b.game, tb) });
  const r2 = await pairedRound(creator, tid, 2);
  const pairedMs = Date.now() - t0;
  check(r2.games.length === 2, `round 2 paired after the restart: ${JSON.stringify(r2)}`);
  await page.waitForSelector('[data-testid=round-2]', { timeout: WAIT_MS });
  await page.waitForSelector('[data-testid=t-connection][hidden]', { state: 'attached' });
  const after = swissStandings(names, games, []);
  await page.waitForFunction(([n]) => document.querySelector(`[data-testid="standing-${n}"] [data-testid=points]`)?.textContent === '1', [b.black]);
  compareSwiss(await shownStandings(page), after, 'after the restart');
  const t = await creator.get(`/api/tournaments/${tid}`);
  check(t.round === 2 && t.status === 'running', `the tournament runs round 2: ${t.status} ${t.round}`);
  await page.close();
  return `killed with ${b.white}-${b.black} under way; after the restart Black won it by resignation, round 2 paired ${pairedMs} ms after the restart ` +
    `(${r2.games.map((g) => `${g.white}-${g.black}`).join(', ')}) and shown on the page after its reconnection; standings as before plus the new result`;
}

// Black wins an opened game by White's resignation.
async function blackWinsByResignation(id, tokens) {
  const v = await game(`/api/games/${id}/resign`, { token: tokens.white });
  check(v.result && v.result.winner === 'black', `Black won ${id}: ${JSON.stringify(v.result)}`);
  return 'black';
}

async function phone(sc) {
  const all = await allAccounts(sc);
  const me = all[0];
  const ctx = await sc.context({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
  // The same session as `me`, so the pages show a logged-in player.
  await ctx.addCookies(await me.ctx.cookies());
  if (!swissId) {
    // Run alone: a tournament with standings, crosstable and a game.
    const made = await me.post('/api/tournaments', { name: 'Phone check', kind: 'swiss', variant: 'chess', clock: { minutes: 5, increment: 3 }, rated: false, rounds: 2 });
    swissId = made.id;
    for (const a of all.slice(0, 3)) await a.post(`/api/tournaments/${swissId}/join`);
    await me.post(`/api/tournaments/${swissId}/start`);
    const r1 = await pairedRound(me, swissId, 1);
    const byName = Object.fromEntries(all.map((a) => [a.name, a]));
    const tok = await seats(swissId, r1.games[0], byName);
    await play(r1.games[0].game, tok.white, tok.black, 'white');
    swissGame = `/game/${r1.games[0].game}`;
  }
  const page = await sc.page(ctx);
  const pages = [
    ['/tournaments', '[data-testid=tournament-form]'],
    [`/tournament/${swissId}`, '[data-testid=crosstable]'],
    ['/lobby', '[data-testid=lobby-tournaments] li, [data-testid=lobby-tournaments] p'],
    [swissGame, '[data-testid=board] svg'],
    [`/player/${me.name}`, '[data-testid=finished] li'],
    ['/', '[data-testid=nav-tournaments]'],
  ];
  const widths = [];
  const wide = [];
  for (const [path, ready] of pages) {
    await page.goto(`${env.base}${path}`);
    await page.waitForSelector(ready);
    await sleep(200);
    const w = await page.evaluate(() => document.documentElement.scrollWidth);
    widths.push(`${path.split('?')[0]} ${w}`);
    if (w > 390) wide.push(`${path} is ${w} px wide`);
  }
  check(!wide.length, `pages wider than the phone's 390 px: ${wide.join(', ')}`);
  // The lobby lists exactly the tournaments not finished, each linking its page.
  const open = (await me.get('/api/tournaments')).tournaments.filter((t) => t.status !== 'finished').map((t) => t.id).sort();
  check(open.length, 'a tournament is running (the one killed mid-round, or this scenario\'s)');
  await page.goto(`${env.base}/lobby`);
  await page.waitForSelector('[data-testid=lobby-tournaments] li');
  const listed = await page.$$eval('[data-testid=lobby-tournaments] li a', (as) => as.map((a) => a.getAttribute('href').split('/').pop()).sort());
  check(JSON.stringify(listed) === JSON.stringify(open), `the lobby lists ${listed}, not finished: ${open}`);
  check(await page.getAttribute('[data-testid=lobby-tournaments-link]', 'href') === '/tournaments', 'the lobby links /tournaments');
  // A tournament address that cannot be an id is the site's 404 page.
  const missing = await fetch(`${env.base}/tournament/no%20such`);
  check(missing.status === 404 && (await missing.text()).includes('data-testid="missing-path"'), `/tournament/no%20such: ${missing.status}`);
  return `scrollWidth at 390x844: ${widths.join(', ')}; the lobby lists the ${open.length} not finished`;
}

// A Swiss in an uploaded variant, by correspondence, created in the page: the form checks
// the file with the server, plays its first variant, unrated.
const TINY = `[tiny-test]
base = mini-chieftain
name = Tiny Test Chieftain
board = 6x6
piece C = Chieftain, K^, leader royal
setup = 1ccm2/6/6/6/6/2CMC1 w
`;
async function uploadedVariant(sc) {
  const all = await allAccounts(sc);
  const who = all[all.length - 1];
  const page = await sc.page(who.ctx);
  await page.goto(`${env.base}/tournaments`);
  await page.waitForSelector('[data-testid=t-variant-file-option]', { state: 'attached' });
  await page.fill('[data-testid=t-name]', 'Tiny by mail');
  await page.selectOption('[data-testid=t-kind]', 'swiss');
  await page.selectOption('[data-testid=t-variant]', '');
  check(await page.isDisabled('[data-testid=t-rated]'), 'an uploaded variant is not rated');
  await page.fill('[data-testid=t-variant-file]', TINY);
  await page.selectOption('[data-testid=t-pace]', 'corr');
  await page.fill('[data-testid=t-clock-days]', '2');
  await page.fill('[data-testid=t-rounds]', '2');
  await Promise.all([page.waitForURL(/\/tournament\/[^/?]+$/), page.click('[data-testid=t-create]')]);
  const tid = decodeURIComponent(new URL(page.url()).pathname.split('/').pop());
  const t = await json(await who.ctx.request.get(`${env.base}/api/tournaments/${tid}`), 'the tournament');
  check(t.variant === 'tiny-test' && t.custom && !t.rated && t.time_control === '2 days per turn', `created: ${JSON.stringify([t.variant, t.custom, t.rated, t.time_control])}`);
  await page.waitForSelector('[data-testid=t-facts]');
  const facts = await page.textContent('[data-testid=t-facts]');
  check(facts.includes('Tiny Test Chieftain') && facts.includes('2 days per turn'), `the header names the variant and the clock: "${facts}"`);
  return `created ${tid}: ${facts}`;
}

const scenarios = [
  ['Swiss of 5 over 3 rounds: byes, pairings, standings and tie-breaks as counted by hand', 120000, swissOfFive],
  ['Arena of 6 for 3 minutes: re-paired within 2 s, standings pushed to two pages, sheets summed', 300000, arenaOfSix],
  ['Swiss through a server kill mid-round: round 2 paired after the restart and shown', 90000, restartMidRound],
  ['phone (390x844): no page wider than the screen', 60000, phone],
  ['an uploaded variant by correspondence, from the form', 60000, uploadedVariant],
];

await runSuite('tournaments browser test', scenarios, {
  prefix: 'cohort-tournaments-',
  viewport: { width: 1300, height: 900 }, waitMs: WAIT_MS,
  ready: (e) => { env = e; },
});
