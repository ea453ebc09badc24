// scripts/wasm-perft-all: every row of the testdata perft files through the WebAssembly
// build, compared with the row's count (and, with --native BIN, with `BIN perft`).
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs, fail, loadCohort } from './args.mjs';

const usage = 'usage: scripts/wasm-perft-all [--testdata DIR] [--native BIN]';
const args = parseArgs(process.argv.slice(2), ['testdata', 'native'], usage);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dir = args.testdata ?? path.resolve(root, '../shared/testdata');
if (!fs.existsSync(dir)) fail(`no testdata folder ${dir} (--testdata DIR)`);
const files = fs.readdirSync(dir).filter((f) => f.endsWith('.tsv') && f.includes('perft')).sort();
if (files.length === 0) fail(`no *perft*.tsv file in ${dir}`);

const cohort = await loadCohort();
const started = performance.now();
let passed = 0;
const failures = [];
for (const file of files) {
  const rows = fs
    .readFileSync(path.join(dir, file), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.startsWith('#'))
    .map((l) => l.split('\t'));
  let ok = 0;
  const t0 = performance.now();
  for (const [variant, depthText, expected, position] of rows) {
    const where = `${file}: ${variant} depth ${depthText} ${position ?? 'start'}`;
    try {
      const game = cohort.newGame(variant, position);
      const got = game.perftText(Number(depthText));
      game.free();
      let native = null;
      if (args.native) {
        const argv = ['perft', '--variant', variant, '--depth', depthText];
        if (position !== undefined) argv.push('--position', position);
        const out = execFileSync(args.native, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
        native = out.trim().split('\n').pop();
      }
      if (got !== expected.trim() || (native !== null && native !== got)) {
        failures.push(`${where}: expected ${expected.trim()}, wasm ${got}${native !== null ? `, native ${native}` : ''}`);
      } else {
        ok++;
      }
    } catch (e) {
      failures.push(`${where}: ${e.message}`);
    }
  }
  passed += ok;
  console.log(`${file}: ${ok}/${rows.length} rows (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
}
for (const f of failures) console.log(`MISMATCH ${f}`);
const total = passed + failures.length;
const secs = ((performance.now() - started) / 1000).toFixed(1);
console.log(`wasm perft: ${passed}/${total} rows passed${args.native ? ' (and equal to native)' : ''} in ${secs} s`);
process.exit(failures.length === 0 && total > 0 ? 0 : 1);
