// scripts/wasm-bench: nodes a second of the engine in the WebAssembly build under node.
import { execFileSync } from 'node:child_process';
import { parseArgs, fail, loadCohort } from './args.mjs';

const usage = 'usage: scripts/wasm-bench --variant V --ms 2000 [--position P] [--native BIN]';
const args = parseArgs(process.argv.slice(2), ['variant', 'ms', 'position', 'native'], usage);
if (args.variant === undefined) fail(usage);
const ms = Number(args.ms ?? 2000);
if (!Number.isInteger(ms) || ms < 1) fail(`--ms ${args.ms}: a whole number of milliseconds`);

let native = null;
if (args.native) {
  const argv = ['analyze', '--variant', args.variant, '--time', String(ms)];
  if (args.position !== undefined) argv.push('--position', args.position);
  const out = execFileSync(args.native, argv, { encoding: 'utf8' });
  const m = out.match(/^stats: nodes (\d+) nodes\/s (\d+) depth (\d+)/m);
  if (!m) fail(`no statistics line in the native answer:\n${out}`);
  native = { nodes: Number(m[1]), nps: Number(m[2]), depth: Number(m[3]) };
  console.log(`native: nodes ${native.nodes} depth ${native.depth} nodes/s ${native.nps}`);
}
const cohort = await loadCohort();
try {
  const game = cohort.newGame(args.variant, args.position);
  const r = game.search({ ms });
  console.log(`wasm: turn ${r.turn.join(' ')} score ${r.score} depth ${r.depth} nodes ${r.nodes} time ${Math.round(r.ms)} ms`);
  if (native) console.log(`ratio wasm/native: ${(r.nodes_per_second / native.nps).toFixed(2)}`);
  console.log(`nodes/s ${r.nodes_per_second}`);
} catch (e) {
  fail(`error: ${e.message}`);
}
