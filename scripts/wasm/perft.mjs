// scripts/wasm-perft: step perft through the WebAssembly build; the count is the last line.
import { parseArgs, fail, loadCohort } from './args.mjs';

const usage = 'usage: scripts/wasm-perft --variant V --depth D [--position P]';
const args = parseArgs(process.argv.slice(2), ['variant', 'depth', 'position'], usage);
if (args.variant === undefined || args.depth === undefined) fail(usage);
const depth = Number(args.depth);
if (!Number.isInteger(depth) || depth < 0) fail(`--depth ${args.depth}: a whole number`);
const cohort = await loadCohort();
try {
  const game = cohort.newGame(args.variant, args.position);
  const started = performance.now();
  const count = game.perftText(depth);
  const secs = (performance.now() - started) / 1000;
  console.error(`${count} steps in ${secs.toFixed(3)} s (wasm)`);
  console.log(count);
} catch (e) {
  fail(`error: ${e.message}`);
}
