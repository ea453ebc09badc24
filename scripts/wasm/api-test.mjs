// The JavaScript API of the WebAssembly build (web/static/wasm/cohort.js) and its worker
// (worker.js, under node's worker_threads), against the same rules as the native build.
// Usage: node scripts/wasm/api-test.mjs (after scripts/wasm-build). Exit status 1 on a failure.
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { loadCohort } from './args.mjs';
import { CohortError } from '../../web/static/wasm/cohort.js';

const cohort = await loadCohort();
let checks = 0;
function check(name, f) {
  f();
  checks++;
  console.log(`ok ${name}`);
}

check('the outside families load', () => {
  const ids = cohort.variants().map((v) => v.id);
  for (const id of ['chess', 'chieftain', 'ataxx', 'breakthrough']) assert.ok(ids.includes(id), id);
  assert.equal(cohort.newGame('ataxx').perft(2), 256);
  assert.ok(cohort.newGame('breakthrough').perft(1) > 0);
});

check('bad input throws the rules message, never a trap', () => {
  assert.throws(() => cohort.newGame('no-such'), (e) => e instanceof CohortError && /unknown variant 'no-such'/.test(e.message));
  assert.throws(() => cohort.newGame('chess', 'not a position'), /^CohortError: position:/);
  assert.throws(() => cohort.newGame('[v]\nname = x\nboard = 0x0\n'), CohortError);
  const g = cohort.newGame('chess');
  assert.throws(() => g.make('e2-e5'), /e2-e5 is illegal/);
  assert.throws(() => g.make(9999), /no legal step 9999/);
  assert.throws(() => g.make(-1), CohortError);
  assert.throws(() => g.setPosition('junk'), /^CohortError: position:/);
  assert.throws(() => g.perft(-1), CohortError);
  g.free();
  assert.throws(() => g.position(), /no game/);
  // Still usable after every error.
  assert.equal(cohort.newGame('chess').perft(3), 8902);
});

check('a variant file text makes a game', () => {
  const text = '[tiny]\nname = Tiny chess\nbase = chess\n';
  const g = cohort.newGame(text);
  assert.equal(g.variant, 'tiny');
  assert.equal(g.perft(1), 20);
});

check('steps, effects, unmake across turns, view, outcome', () => {
  const g = cohort.newGame('chess');
  const start = g.position();
  const steps = g.legalSteps();
  assert.equal(steps.length, 20);
  for (const f of ['index', 'text', 'from', 'to', 'kind']) assert.ok(f in steps[0], f);
  const e4 = steps.find((s) => s.text === 'e2-e4');
  const fx = g.make(e4.index);
  assert.deepEqual(fx.effects, [{ type: 'moved', side: 'white', letter: 'P', from: 'e2', to: 'e4' }]);
  assert.equal(g.sideToMove(), 'black');
  g.make('d7-d5');
  const take = g.legalSteps().find((s) => s.from === 'e4' && s.to === 'd5');
  const fx2 = g.make(take.text);
  assert.ok(fx2.effects.some((e) => e.type === 'removed' && e.square === 'd5' && e.capture));
  const v = g.view();
  assert.equal(v.units.length, 31);
  assert.ok(v.movable.length > 0);
  assert.equal(g.unmake(), true);
  assert.equal(g.unmake(), true);
  assert.equal(g.unmake(), true);
  assert.equal(g.unmake(), false);
  assert.equal(g.position(), start);
  assert.equal(g.outcome(), null);
  // Fool's mate: the result and its reason.
  for (const s of ['f2-f3', 'e7-e5', 'g2-g4', 'd8-h4']) g.make(s);
  const o = g.outcome();
  assert.equal(o.winner, 'black');
  assert.ok(o.reason.length > 0);
  assert.deepEqual(g.legalSteps(), []);
  assert.throws(() => g.make('a2-a3'), CohortError);
  assert.throws(() => g.search({ nodes: 1000 }), /already over/);
  assert.equal(g.unmake(), true);
  assert.equal(g.outcome(), null);
});

check('a search reports its depths and answers the native turn', () => {
  const g = cohort.newGame('chieftain');
  const infos = [];
  const r = g.search({ nodes: 200000 }, (i) => {
    infos.push(i);
  });
  assert.ok(infos.length > 0 && infos[0].depth === 1);
  for (const i of infos) for (const f of ['depth', 'score', 'nodes', 'line']) assert.ok(f in i, f);
  // cohort analyze --variant chieftain --nodes 200000 answers the same (one thread).
  assert.deepEqual(r.turn, ['k1-l2', 'a4-a5', 'c1-d2', 'm1-j4', 'end']);
  assert.equal(r.score, 399);
  for (const s of r.turn) g.make(s);
  assert.equal(g.sideToMove(), 'black');
  // A callback that throws stops the search; the game goes on working.
  assert.throws(() => g.search({ ms: 20000 }, () => { throw new Error('from the callback'); }), /from the callback/);
  assert.equal(g.sideToMove(), 'black');
  const huge = g.search({ ms: 1e300, nodes: 5000 });
  assert.ok(huge.turn.length > 0);
  const stopped = g.search({ ms: 20000 }, () => true);
  assert.equal(stopped.stopped, true);
  assert.ok(stopped.turn.length > 0 && stopped.ms < 5000, `${stopped.ms} ms`);
});

// The worker: info messages, then the answer; a SharedArrayBuffer stops it.
const worker = new Worker(new URL('../../web/static/wasm/worker.js', import.meta.url), { type: 'module' });
const messages = [];
const done = new Promise((resolve, reject) => {
  worker.on('message', (m) => {
    messages.push(m);
    if (m.type === 'done' && m.id === 2) resolve();
    if (m.type === 'error' && m.id !== 3) reject(new Error(m.message));
  });
  worker.on('error', reject);
});
const stop = new SharedArrayBuffer(4);
worker.postMessage({ type: 'search', id: 1, variant: 'chess', nodes: 50000 });
worker.postMessage({ type: 'search', id: 3, variant: 'nope' });
worker.postMessage({ type: 'search', id: 2, variant: 'chieftain', ms: 30000, stop });
setTimeout(() => Atomics.store(new Int32Array(stop), 0, 1), 1500);
await done;
await worker.terminate();
check('the worker searches and stops', () => {
  assert.ok(messages.some((m) => m.type === 'ready'));
  const first = messages.find((m) => m.type === 'done' && m.id === 1);
  assert.ok(first && first.turn.length === 1);
  assert.ok(messages.filter((m) => m.type === 'info' && m.id === 1).length > 0);
  const bad = messages.find((m) => m.type === 'error' && m.id === 3);
  assert.ok(bad && /unknown variant/.test(bad.message));
  const second = messages.find((m) => m.type === 'done' && m.id === 2);
  assert.equal(second.stopped, true);
  assert.ok(second.ms < 20000, `${second.ms} ms`);
});
// A whole game analysed in the worker (docs/wasm.md, "Analysis in the browser"): 1. e4 f6
// 2. d4 g5 3. Qh5#, a point before each turn and one after, g5 marked by the server's rule.
const analyser = new Worker(new URL('../../web/static/wasm/worker.js', import.meta.url), { type: 'module' });
const got = [];
await new Promise((resolve, reject) => {
  analyser.on('message', (m) => { got.push(m); if (m.type === 'analysed' || m.type === 'error') resolve(); });
  analyser.on('error', reject);
  analyser.postMessage({ type: 'analyse', id: 7, variant: 'chess', turns: [['e2-e4'], ['f7-f6'], ['d2-d4'], ['g7-g5'], ['d1-h5']], nodes: 20000 });
});
await analyser.terminate();
check('the worker analyses a game, marked as the server marks', () => {
  const end = got.find((m) => m.type === 'analysed');
  assert.ok(end, JSON.stringify(got.find((m) => m.type === 'error')));
  assert.equal(got.filter((m) => m.type === 'point').length, 6);
  const p = end.points;
  assert.deepEqual(p.map((q) => q.at), [0, 1, 2, 3, 4, 5]);
  assert.equal(p[5].side, null);
  assert.ok(p[5].score > 0 && p[5].decisive, JSON.stringify(p[5]));
  assert.equal(p[3].mark, 'blunder', JSON.stringify(p[3]));
  assert.deepEqual(p[4].best, ['d1-h5']);
  assert.equal(p[4].moves[0].to, 'h5');
  // The same rule on points given by hand.
  const marked = cohort.marks([{ side: 'white', score: 30, best: ['e2-e4'], played: ['e2-e4'] }, { side: 'black', score: -300, best: [], played: [] }]);
  assert.equal(marked[0].mark, null);
  assert.throws(() => cohort.marks([{ score: 'x' }]), /points\[0\]\.score/);
});
// With a time per position (as the analysis page asks), a played turn other than the best
// is judged at the best turn's depth (docs/server.md, "Marks"), as the server judges it.
const judged = [];
const judger = new Worker(new URL('../../web/static/wasm/worker.js', import.meta.url), { type: 'module' });
await new Promise((resolve, reject) => {
  judger.on('message', (m) => { judged.push(m); if (m.type === 'analysed' || m.type === 'error') resolve(); });
  judger.on('error', reject);
  judger.postMessage({ type: 'analyse', id: 8, variant: 'chess', turns: [['e2-e4'], ['f7-f6'], ['d2-d4'], ['g7-g5'], ['d1-h5']], ms: 120 });
});
await judger.terminate();
check('a played turn is judged at the best turn\'s depth', () => {
  const end = judged.find((m) => m.type === 'analysed');
  assert.ok(end, JSON.stringify(judged.find((m) => m.type === 'error')));
  const g5 = end.points[3];
  assert.ok(Number.isInteger(g5.best_after) && g5.played_after > 100000, JSON.stringify(g5));
  assert.equal(g5.mark, 'blunder', JSON.stringify(g5));
  const g = cohort.newGame('chess');
  g.make('e2-e4'); g.make('d7-d5');
  const j = g.judge(['e4xd5'], ['d1-g4'], 100);
  assert.ok(j.best_after - j.played_after > 500, JSON.stringify(j));
  assert.throws(() => g.judge(['e4xd5'], ['e7-e5'], 100), /played/);
  g.free();
});
console.log(`wasm api: ${checks} checks passed`);
