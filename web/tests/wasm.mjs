// Browser test of the WebAssembly build (docs/wasm.md): a page of `cohort serve` imports
// /wasm/cohort.js, loads /wasm/cohort.wasm (served as application/wasm, compiled under the
// site's Content-Security-Policy), counts a perft and plays steps; a module Web Worker
// (/wasm/worker.js) searches off the page's thread, sending its depths, then its turn.
// Usage (from web/, after scripts/wasm-build): COHORT_BIN=../target/release/cohort node tests/wasm.mjs
import { join } from 'node:path';
import { check, cleanup, freePort, launchBrowser, startServer, tempDir } from './harness.mjs';

try {
  const dir = tempDir('cohort-wasm-');
  const port = await freePort();
  await startServer(port, `sqlite://${join(dir, 'db.sqlite')}?mode=rwc`);
  const base = `http://127.0.0.1:${port}`;
  const wasm = await fetch(`${base}/wasm/cohort.wasm`);
  check(wasm.ok, `GET /wasm/cohort.wasm: ${wasm.status} ${wasm.ok ? '' : await wasm.text()} (run scripts/wasm-build)`);
  check(wasm.headers.get('content-type') === 'application/wasm', `content type ${wasm.headers.get('content-type')}`);
  const browser = await launchBrowser();
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(`${base}/`);
  const onPage = await page.evaluate(async () => {
    const { Cohort } = await import('/wasm/cohort.js');
    const cohort = await Cohort.load();
    const game = cohort.newGame('chess');
    const perft = game.perft(3);
    const fx = game.make('e2-e4');
    let error = null;
    try { game.make('e7-e2'); } catch (e) { error = e.message; }
    const ataxx = cohort.newGame('ataxx').perft(2);
    // The local view names the pieces giving check as the server's does (`checkers`): a
    // Chessma 84 double check by a Knight on d6 and a Long Leaper on e7.
    const checked = cohort.newGame('chessma-84', '1********1/*8*/*k7*/*4l3*/*3n4*/*8*/*4K3*/*8*/*8*/*8*/*8*/1********1 w - - -').view();
    const checkers = { check: checked.check, by: (checked.checkers || []).map((c) => `${c.square} ${c.piece}: ${c.how}`).sort() };
    return { perft, fx, error, ataxx, side: game.sideToMove(), checkers };
  });
  check(JSON.stringify(onPage.checkers) === JSON.stringify({ check: ['e4'], by: ['d6 Knight: attacks the King', 'e7 Long Leaper: can take the King by leaping over it'] }),
    `the local view's checkers: ${JSON.stringify(onPage.checkers)}`);
  check(onPage.perft === 8902, `chess perft 3 in the page: ${onPage.perft}`);
  check(onPage.ataxx === 256, `ataxx perft 2 in the page: ${onPage.ataxx}`);
  check(onPage.fx.effects[0].type === 'moved' && onPage.side === 'black', JSON.stringify(onPage.fx));
  check(/illegal/.test(onPage.error ?? ''), `an illegal step throws: ${onPage.error}`);
  const fromWorker = await page.evaluate(() => new Promise((resolve, reject) => {
    const worker = new Worker('/wasm/worker.js', { type: 'module' });
    const seen = [];
    worker.onmessage = ({ data }) => {
      seen.push(data);
      if (data.type === 'done') { worker.terminate(); resolve(seen); }
      if (data.type === 'error') { worker.terminate(); reject(new Error(data.message)); }
    };
    worker.onerror = (e) => reject(new Error(`worker: ${e.message}`));
    worker.postMessage({ type: 'search', id: 7, variant: 'chieftain', nodes: 200000 });
  }));
  const infos = fromWorker.filter((m) => m.type === 'info');
  const done = fromWorker.find((m) => m.type === 'done');
  check(infos.length > 0 && infos[0].depth === 1, `info messages: ${infos.length}`);
  check(done.id === 7 && done.turn.join(' ') === 'k1-l2 a4-a5 c1-d2 m1-j4 end' && done.score === 399,
    `the worker's turn is the native engine's: ${JSON.stringify(done)}`);
  check(errors.length === 0, `page errors: ${errors.join('; ')}`);
  console.log(`wasm in the browser: perft, steps and errors in the page; the worker sent ${infos.length} depths and the turn ${done.turn.join(' ')}`);
} catch (e) {
  console.error(e.message);
  process.exitCode = 1;
} finally {
  await cleanup();
}
