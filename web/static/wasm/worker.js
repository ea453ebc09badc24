// A module Web Worker running Cohort's engine off the page's thread (docs/wasm.md):
//
//   const worker = new Worker('/wasm/worker.js', { type: 'module' });
//   worker.postMessage({ type: 'search', id: 1, variant: 'chieftain', position, ms: 2000 });
//   worker.onmessage = ({ data }) => { ... };  // ready, info ..., then done (or error)
//
// Messages to the worker:
//   {type: 'load', wasm?}            load the module now (else on the first search); `wasm`:
//                                    its URL or bytes (default: cohort.wasm next to this file)
//   {type: 'search', id, variant, position?, ms?, nodes?, stop?}
//                                    search a position (variant: an id or a variant file's
//                                    text); `stop`: an optional SharedArrayBuffer (Int32Array
//                                    view, index 0) the page sets to 1 to stop the search
//   {type: 'analyse', id, variant, start?, turns, ms?, nodes?, stop?}
//                                    a whole game, turn by turn (docs/wasm.md, "Analysis in
//                                    the browser"): `turns` the game's turns as step texts
//                                    from `start` (a position; default the variant's); one
//                                    point searched before each turn and one after the last
//                                    step, marked by the server's rule (cohort.marks)
//   {type: 'stop', id?}              stop: drops searches still queued; a running search
//                                    stops at its next finished depth when its `stop` buffer
//                                    was given (the page sets it; this message cannot reach a
//                                    worker while it searches), else at its ms/nodes limit
// Messages from the worker:
//   {type: 'ready'}                  the module is loaded
//   {type: 'info', id, depth, score, nodes, line, made}   each finished depth
//   {type: 'done', id, turn, score, pv, depth, nodes, nodes_per_second, ms, stopped}
//   {type: 'point', id, done, total, points}   each point of an 'analyse' (all so far, marked)
//   {type: 'analysed', id, points}   the 'analyse' is done
//   {type: 'error', id, message}
//
// Also runs under node's worker_threads (the same messages), for tests.

import { Cohort } from './cohort.js';

let port;
if (typeof self !== 'undefined' && typeof self.postMessage === 'function') {
  port = { post: (m) => self.postMessage(m), listen: (f) => self.addEventListener('message', (e) => f(e.data)) };
} else {
  const { parentPort } = await import('node:worker_threads');
  port = { post: (m) => parentPort.postMessage(m), listen: (f) => parentPort.on('message', f) };
}

let cohort = null;
let loading = null;
const queue = [];
let busy = false;

function load(wasm) {
  if (!loading) {
    loading = Cohort.load(wasm).then((c) => {
      cohort = c;
      port.post({ type: 'ready' });
      return c;
    });
  }
  return loading;
}

async function run(job) {
  let game = null;
  try {
    const c = await load();
    game = c.newGame(job.variant, job.position);
    const flag = job.stop ? new Int32Array(job.stop) : null;
    const result = game.search(
      { ms: job.ms, nodes: job.nodes, shouldStop: flag ? () => Atomics.load(flag, 0) !== 0 : undefined },
      (info) => {
        port.post({ type: 'info', id: job.id, ...info });
      },
    );
    port.post({ type: 'done', id: job.id, ...result });
  } catch (e) {
    port.post({ type: 'error', id: job.id, message: e && e.message ? e.message : String(e) });
  } finally {
    if (game) game.free();
  }
}

// The line kept for a point, in steps (the server's LINE_STEPS).
const LINE_STEPS = 24;

// A whole game, point by point: the position before each turn (the game itself, so its
// counters and repetitions count) searched, then the turn played from it.
async function analyse(job) {
  let game = null;
  try {
    const c = await load();
    game = c.newGame(job.variant, job.start);
    const flag = job.stop ? new Int32Array(job.stop) : null;
    const stopped = () => Boolean(flag && Atomics.load(flag, 0) !== 0);
    const turns = (job.turns || []).filter((t) => t.length);
    const points = [];
    let at = 0;
    for (let i = 0; i <= turns.length; i++) {
      if (stopped()) throw new Error('stopped');
      const outcome = game.outcome();
      const played = i < turns.length ? turns[i] : [];
      let p;
      if (outcome) {
        p = { at, side: null, score: outcome.score, decisive: outcome.winner !== null, best: [], moves: [], line: '', depth: 0, played, loss: 0, mark: null };
      } else {
        // A turn played here is judged against the engine's at the same effort, as the
        // server's analyses judge: half the time finds the best turn, the rest judges.
        const judging = played.length > 0 && job.ms;
        const r = game.search({ ms: judging ? Math.max(1, job.ms / 2) : job.ms, nodes: job.nodes, shouldStop: flag ? stopped : undefined });
        p = {
          at, side: r.side, score: r.white_score, decisive: r.decisive, best: r.turn, moves: r.moves,
          line: r.pv.slice(0, LINE_STEPS).join(' '), depth: r.depth, played, loss: 0, mark: null,
        };
        if (judging && played.join(' ') !== r.turn.join(' ')) {
          const j = game.judge(r.turn, played, Math.max(1, job.ms / 4));
          p.best_after = j.best_after;
          p.played_after = j.played_after;
        }
      }
      points.push(p);
      const marked = c.marks(points);
      points.splice(0, points.length, ...marked);
      port.post({ type: 'point', id: job.id, done: points.length, total: turns.length + 1, points: marked });
      for (const s of played) { game.make(s); at++; }
    }
    port.post({ type: 'analysed', id: job.id, points });
  } catch (e) {
    port.post({ type: 'error', id: job.id, message: e && e.message ? e.message : String(e) });
  } finally {
    if (game) game.free();
  }
}

async function pump() {
  if (busy) return;
  busy = true;
  while (queue.length) {
    const job = queue.shift();
    await (job.type === 'analyse' ? analyse(job) : run(job));
  }
  busy = false;
}

port.listen((msg) => {
  if (!msg || typeof msg !== 'object') return;
  switch (msg.type) {
    case 'load':
      load(msg.wasm).catch((e) => port.post({ type: 'error', id: null, message: e.message }));
      break;
    case 'search':
    case 'analyse':
      queue.push(msg);
      pump();
      break;
    case 'stop':
      for (let i = queue.length - 1; i >= 0; i--) {
        if (msg.id === undefined || queue[i].id === msg.id) {
          port.post({ type: 'error', id: queue[i].id, message: 'stopped before it started' });
          queue.splice(i, 1);
        }
      }
      break;
    default:
      port.post({ type: 'error', id: msg.id ?? null, message: `unknown message type ${msg.type}` });
  }
});
