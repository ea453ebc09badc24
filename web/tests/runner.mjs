// Test of the scenario runner itself (harness.mjs: runSuite, Scenario): scenarios that do
// what a broken page does (log a console error, request a missing resource without declaring
// it, hit a network failure, open a dialog, throw) must be reported as failed, and clean
// scenarios (one that declares the 404 it causes) as passed. Exits non-zero if any verdict is
// not the one expected, that is if the runner would let a broken page pass.
// Usage (from web/): COHORT_BIN=../target/release/cohort node tests/runner.mjs
import { check, runSuite } from './harness.mjs';

let base = '';

// The home page, loaded and drawn.
async function home(sc) {
  const page = await sc.page();
  await page.goto(`${base}/`);
  await page.waitForSelector('[data-testid^=diagram-]');
  return page;
}

// [name, verdict the runner must give, what its message must mention, scenario entry...]
const cases = [
  ['clean page', true, null, async (sc) => { await home(sc); return 'clean'; }],
  ['console error', false, /console error .*deliberate console error/, async (sc) => {
    const page = await home(sc);
    await page.evaluate(() => console.error('deliberate console error'));
    return 'passed although the page logged a console error';
  }],
  ['undeclared 404', false, /GET .*\/api\/games\/no-such-game -> 404/, async (sc) => {
    const page = await home(sc);
    const status = await page.evaluate(async () => (await fetch('/api/games/no-such-game')).status);
    check(status === 404, `the request is answered 404 (${status})`);
    return 'passed although a request failed with 404';
  }],
  ['declared 404', true, null, { expect: [/\/api\/games\/no-such-game.*404/] }, async (sc) => {
    const page = await home(sc);
    const status = await page.evaluate(async () => (await fetch('/api/games/no-such-game')).status);
    check(status === 404, `the request is answered 404 (${status})`);
    return 'a declared 404';
  }],
  ['declared at run time, another 404 not', false, /no-such-variant/, async (sc) => {
    sc.expect(/\/api\/games\/no-such-game.*404/);
    const page = await home(sc);
    await page.evaluate(async () => { await fetch('/api/games/no-such-game'); await fetch('/rules/no-such-variant'); });
    return 'passed although an undeclared 404 came with a declared one';
  }],
  ['HTTP 4xx answer', false, /POST .*\/api\/games -> 4\d\d/, async (sc) => {
    const page = await home(sc);
    await page.evaluate(async () => fetch('/api/games', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"variant":"no-such"}' }));
    return 'passed although a request was refused';
  }],
  ['network failure', false, /failed: net::ERR_CONNECTION_REFUSED/, async (sc) => {
    const page = await home(sc);
    // A request that finds no server. Same origin, as the pages' security policy
    // (connect-src 'self') blocks any other before it leaves; the network layer refuses it.
    await page.route('**/no-server-here', (r) => r.abort('connectionrefused'));
    await page.evaluate(async () => { try { await fetch('/no-server-here'); } catch { /* the page ignores it */ } });
    return 'passed although a request found no server';
  }],
  ['dialog', false, /unexpected dialog \(alert\): deliberate dialog/, async (sc) => {
    const page = await home(sc);
    await page.evaluate(() => alert('deliberate dialog'));
    return 'passed although the page opened a dialog';
  }],
  ['confirm dialog', false, /unexpected dialog \(confirm\)/, async (sc) => {
    const page = await home(sc);
    const answer = await page.evaluate(() => confirm('deliberate confirm'));
    check(answer === false, 'the dialog was dismissed');
    return 'passed although the page asked a question';
  }],
  ['page error', false, /page error .*deliberate exception/, async (sc) => {
    const page = await home(sc);
    await page.evaluate(() => { setTimeout(() => { throw new Error('deliberate exception'); }, 0); });
    await page.waitForTimeout(200);
    return 'passed although the page threw';
  }],
  ['a failed check', false, /check failed: deliberate/, async (sc) => {
    await home(sc);
    check(false, 'deliberate');
  }],
  ['clean page after the others', true, null, async (sc) => { await home(sc); return 'clean'; }],
];

const { results } = await runSuite('runner under test', cases.map((c) => [c[0], ...c.slice(3)]), {
  prefix: 'cohort-runner-', timeoutMs: 30000, exit: false,
  ready: (env) => ({ base } = env),
  log: (line) => console.log(`  | ${line.split('\n')[0]}`),
});

let wrong = 0;
for (const [name, ok, mention] of cases) {
  const r = results.find((x) => x.name === name);
  let verdict = r ? null : 'not run';
  if (r && r.ok !== ok) verdict = `the runner said ${r.ok ? 'passed' : 'failed'}, expected ${ok ? 'passed' : 'failed'}: ${r.message}`;
  else if (r && mention && !mention.test(r.message)) verdict = `failed, but the message does not name the cause (${mention}): ${r.message}`;
  if (verdict) { wrong++; console.log(`FAIL ${name}: ${verdict}`); } else console.log(`ok   ${name}: ${ok ? 'passed' : 'failed'} as it must`);
}
const stray = results.filter((r) => !cases.some((c) => c[0] === r.name));
for (const r of stray) { wrong++; console.log(`FAIL ${r.name}: ${r.message}`); }
console.log(`runner test: ${cases.length - wrong} of ${cases.length} verdicts right`);
process.exit(wrong ? 1 : 0);
