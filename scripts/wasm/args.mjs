// Command-line flags of the wasm scripts: --name value pairs, checked against a list.
export function parseArgs(argv, known, usage) {
  const out = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '-h' || a === '--help') {
      console.log(usage);
      process.exit(0);
    }
    const name = a.startsWith('--') ? a.slice(2) : null;
    if (!name || !known.includes(name)) fail(`unknown argument ${a}\n${usage}`);
    if (i + 1 >= argv.length) fail(`--${name} needs a value\n${usage}`);
    out[name] = argv[++i];
  }
  return out;
}

export function fail(message) {
  console.error(message);
  process.exit(2);
}

// The built module, or a clear error when scripts/wasm-build has not run.
export async function loadCohort() {
  const { Cohort } = await import('../../web/static/wasm/cohort.js');
  const file = new URL('../../web/static/wasm/cohort.wasm', import.meta.url);
  const fs = await import('node:fs');
  if (!fs.existsSync(file)) fail('web/static/wasm/cohort.wasm is missing: run scripts/wasm-build first');
  return await Cohort.load(file);
}
