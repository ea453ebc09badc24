// Browser test for game records (docs/records.md): a game is played, its record downloaded
// from the game page with "Download record", opened in "Open a record" from the file,
// replayed step by step (at every step the board as drawn, piece by piece on its square, is
// the position the game reached after that many steps, as the server's stored game reports
// it), continued against the AI; a corrupted record pasted shows the turn and step that is
// illegal. Set-up and scenario runner in harness.mjs.
// Usage (from web/): COHORT_BIN=../target/release/cohort node tests/records.mjs
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SHOTS, check, checkDrawnBoard, runSuite } from './harness.mjs';

const WAIT_MS = 25000;

let base = '';
let dir = '';
async function api(method, path, body) {
  const r = await fetch(`${base}${path}`, { method, headers: body ? { 'content-type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined });
  const json = await r.json();
  check(r.ok, `${method} ${path}: ${r.status} ${JSON.stringify(json)}`);
  return json;
}

async function waitStatus(page, text) {
  await page.waitForFunction((t) => {
    const s = document.querySelector('[data-testid=status]');
    return s && s.textContent.includes(t);
  }, text, { timeout: WAIT_MS });
}

async function records(sc) {
  const page = await sc.page({ acceptDownloads: true });

  // A human-vs-human mini-Chieftain game of four turns through the API: the first legal
  // steps that move a Man forward, each turn closed.
  const created = await api('POST', '/api/games', { variant: 'mini-chieftain', white: 'human', black: 'human' });
  const id = created.id;
  const played = [];
  for (let turn = 0; turn < 4; turn++) {
    const side = turn % 2 ? 'black' : 'white';
    const tok = created.tokens[side];
    let v = await api('GET', `/api/games/${id}`);
    for (let k = 0; k < 2; k++) {
      const step = v.legal.find((s) => s.from && !s.text.includes('x') && v.units.find((u) => u.square === s.from && u.letter.toUpperCase() === 'M'));
      v = await api('POST', `/api/games/${id}/step`, { token: tok, step: step.text });
      played.push(step.text);
    }
    v = await api('POST', `/api/games/${id}/step`, { token: tok, step: 'end' });
    played.push('end');
  }
  const finalView = await api('GET', `/api/games/${id}`);

  // Download the record from the game page.
  await page.goto(`${base}/game/${id}?token=${created.tokens.white}`);
  await page.waitForSelector('[data-testid=download-record]');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=download-record]')]);
  const file = join(dir, download.suggestedFilename());
  await download.saveAs(file);
  const text = readFileSync(file, 'utf8');
  check(download.suggestedFilename() === `cohort-mini-chieftain-${id}.txt`, `file name ${download.suggestedFilename()}`);
  check(text.includes('[Variant "mini-chieftain"]') && text.includes('[White "human"]'), `record tags:\n${text}`);
  check(text.includes(`\n1. ${played[0]},${played[1]} ${played[3]},${played[4]}\n`), `record turns:\n${text}`);
  check(text.trimEnd().endsWith('*'), 'an unfinished game records *');

  // Open it from the home page's link, choosing the downloaded file.
  await page.goto(base);
  await page.click('[data-testid=open-record-link]');
  await page.waitForSelector('[data-testid=record-file]');
  await page.setInputFiles('[data-testid=record-file]', file);
  await waitStatus(page, 'Start position');
  check((await page.inputValue('[data-testid=record-text]')) === text, 'the file is shown in the text box');
  await checkDrawnBoard(page, await api('GET', `/api/games/${id}?at=0`), 'the start position');
  const total = played.length;
  // Step by step with Next: at each step the drawn board is the game's position after that
  // many steps (the stored game replayed by the server, `?at=n`; the page drew the record's
  // own replay, from the file).
  const drawn = [];
  for (let n = 1; n <= total; n++) {
    await page.click('[data-testid=replay-next]');
    await waitStatus(page, `Step ${n} of ${total}: ${played[n - 1]}`);
    const want = await api('GET', `/api/games/${id}?at=${n}`);
    drawn.push(await checkDrawnBoard(page, want, `after step ${n} (${played[n - 1]})`));
  }
  await checkDrawnBoard(page, finalView, 'the last step: the game as it stands');
  check(drawn.some((d, i) => i > 0 && d.join() !== drawn[i - 1].join()), 'the drawn board changes from step to step');
  await page.screenshot({ path: join(SHOTS, 'record-replay.png') });
  // Back and Start, and a turn clicked in the move list.
  await page.click('[data-testid=replay-prev]');
  await waitStatus(page, `Step ${total - 1} of ${total}`);
  await page.click('[data-testid=move-list] [data-turn="2"]');
  await waitStatus(page, `Step 6 of ${total}: end (turn 1, Black)`);
  await page.click('[data-testid=replay-first]');
  await waitStatus(page, 'Start position');

  // Continue from the end against the AI: the new game has the record's turns, then the AI's.
  await page.click('[data-testid=replay-last]');
  await waitStatus(page, `Step ${total} of ${total}`);
  await page.selectOption('[data-testid=continue-strength]', 'level1');
  await page.selectOption('[data-testid=continue-time]', '200');
  await Promise.all([page.waitForURL(/\/game\/[0-9a-f]+\?token=/), page.click('[data-testid=continue]')]);
  const u = new URL(page.url());
  const newId = u.pathname.split('/').pop();
  check(newId !== id, 'a new game');
  const cont = await api('GET', `/api/games/${newId}?token=${u.searchParams.get('token')}`);
  check(cont.seat === 'white' && cont.position === finalView.position, `continued as White from the same position: ${cont.seat} ${cont.position}`);
  check(JSON.stringify(cont.turns) === JSON.stringify(finalView.turns), 'the record\'s turns are the new game\'s');
  check(cont.players.black.startsWith('level1'), `the AI plays Black: ${cont.players.black}`);

  // A corrupted record pasted: the error names the turn and step. The server refuses it:
  // that answer (400) and the console's line about it are expected.
  sc.expect(/POST http:\/\/127\.0\.0\.1:\d+\/api\/records\/replay -> 400 /,
    /console error at http:\/\/127\.0\.0\.1:\d+\/api\/records\/replay: Failed to load resource: .* 400 /);
  await page.goto(`${base}/record`);
  const bad = text.replace(`\n2. ${played[6]},`, `\n2. ${played[6]},${played[6]},`);
  check(bad !== text, 'corrupted');
  await page.fill('[data-testid=record-text]', bad);
  await page.click('[data-testid=record-open]');
  await page.waitForFunction(() => document.querySelector('[data-testid=record-error]').textContent.length > 0);
  const msg = await page.textContent('[data-testid=record-error]');
  check(msg.includes(`turn 2 (White), step 2 '${played[6]}'`), `error shown: ${msg}`);
  check(!(await page.$('[data-testid=board]')), 'no board for a refused record');
  // The viewer's move list notes what a step's text does not show, as the game page does
  // (issue 45: the removal notes were lost in the viewer): en passant takes the pawn on d5.
  await page.goto(`${base}/record`);
  await page.fill('[data-testid=record-text]', '[Variant "chess"]\n\n1. e2-e4 a7-a6 2. e4-e5 d7-d5 3. e5xd6 *\n');
  await page.click('[data-testid=record-open]');
  await page.waitForSelector('[data-testid=removal]');
  const squares = await page.getAttribute('[data-testid=removal]', 'data-squares');
  const note = await page.textContent('[data-testid=removal]');
  check(squares === 'd5' && note === '{\u2212pd5}', `the en passant capture's removal noted: ${note} (${squares})`);
  return `downloaded ${text.length} bytes, replayed ${total} steps in the page (each drawn board checked), continued as game ${newId}, corrupted record refused: ${msg}; en passant's removal noted in the viewer`;
}

await runSuite('records browser tests', [
  ['records: download, open, replay, continue, refuse', 90000, records],
], {
  prefix: 'cohort-records-', waitMs: WAIT_MS,
  ready: (env) => ({ base, dir } = env),
});
