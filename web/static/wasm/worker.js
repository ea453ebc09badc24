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
//   {type: 'stop', id?}              stop: drops searches still queued; a running search
//                                    stops at its next finished depth when its `stop` buffer
//                                    was given (the page sets it; this message cannot reach a
//                                    worker while it searches), else at its ms/nodes limit
// Messages from the worker:
//   {type: 'ready'}                  the module is loaded
//   {type: 'info', id, depth, score, nodes, line, made}   each finished depth
//   {type: 'done', id, turn, score, pv, depth, nodes, nodes_per_second, ms, stopped}
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

async function pump() {
  if (busy) return;
  busy = true;
  while (queue.length) await run(queue.shift());
  busy = false;
}

port.listen((msg) => {
  if (!msg || typeof msg !== 'object') return;
  switch (msg.type) {
    case 'load':
      load(msg.wasm).catch((e) => port.post({ type: 'error', id: null, message: e.message }));
      break;
    case 'search':
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
