// Deploy test (issue 47, item 9): docs/deploy.md followed end to end, as a new operator would.
// Debian's nginx runs the page's `nginx` block as written, with only the names, ports and
// certificate paths replaced (TLS on a port other than 443 with a self-signed certificate,
// the redirect on a port other than 80), in front of two `cohort serve` instances started
// with the page's `ExecStart` line (plus `--ai-workers 0`: they never search) and a
// `cohort worker`, all reading COHORT_DATABASE from a 0600 environment file whose password
// holds the characters a URL reserves. Checked through nginx:
//  - the redirect from plain HTTP;
//  - a browser's POST (its Origin with the port) accepted, another site's refused;
//  - every WebSocket (game, lobby, both chats) upgraded with a browser's Origin;
//  - a game against the AI whose replies come from the worker;
//  - a server analysis, run by the worker;
//  - a client's own X-Forwarded-For ignored: its log-in failures count against its address;
//  - no output of any process shows the password.
// Usage: node scripts/server/deploy-test.mjs postgres://user:password@host:port/db
// (a user who may create roles and databases: the test makes cohort_deploy_test, owned by a
// role of its own, and removes both). Needs nginx and openssl (scripts/test installs nginx).
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import http from 'node:http';
import { BIN, check, freePort, randomStep, rng, stopServer } from './common.mjs';

const base = process.argv[2];
check(base && base.startsWith('postgres'), 'usage: node scripts/server/deploy-test.mjs postgres://user:password@host:port/db');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const psql = (url, sql) => execFileSync('psql', [url, '-v', 'ON_ERROR_STOP=1', '-At', '-c', sql], { env: { ...process.env, PGOPTIONS: '-c client_min_messages=warning' } }).toString().trim();
const PASSWORD = 'p@ss/w:rd#1';
const ROLE = 'cohort_deploy';
const DB = 'cohort_deploy_test';
const children = [];
const outputs = [];
let nginx = null;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cohort-deploy-'));
const doc = fs.readFileSync(new URL('../../docs/deploy.md', import.meta.url), 'utf8');

/** The fenced block of docs/deploy.md whose first line is `# <first>`. */
function docBlock(lang, first) {
  const re = new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g');
  for (const m of doc.matchAll(re)) if (m[1].startsWith(`# ${first}`)) return m[1];
  throw new Error(`docs/deploy.md has no ${lang} block starting "# ${first}"`);
}

async function waitFor(what, cond, ms) {
  const until = Date.now() + ms;
  for (;;) {
    const v = await cond();
    if (v) return v;
    if (Date.now() > until) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(100);
  }
}

/** Start `cohort <args>` with `env`; resolves once its output holds `ready`. */
function startCohort(args, env, ready) {
  return new Promise((resolve, reject) => {
    const child = spawn(BIN, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let out = '';
    outputs.push(() => out);
    const timer = setTimeout(() => reject(new Error(`cohort ${args[0]} did not start: ${out}`)), 20000);
    const onData = (d) => {
      out += d;
      if (out.includes(ready)) { clearTimeout(timer); resolve(child); }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`cohort ${args[0]} exited (${code}): ${out}`)); });
    children.push(child);
  });
}

/** An HTTPS request through nginx (self-signed certificate); resolves {status, headers, body}. */
function request(port, method, p, { body, headers = {} } = {}) {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? null : JSON.stringify(body);
    const s = tls.connect({ host: '127.0.0.1', port, servername: 'localhost', rejectUnauthorized: false }, () => {
      const h = { Host: `localhost:${port}`, Connection: 'close', ...headers };
      if (data !== null) { h['Content-Type'] = 'application/json'; h['Content-Length'] = Buffer.byteLength(data); }
      s.write(`${method} ${p} HTTP/1.1\r\n${Object.entries(h).map(([k, v]) => `${k}: ${v}`).join('\r\n')}\r\n\r\n${data ?? ''}`);
    });
    let raw = Buffer.alloc(0);
    s.on('data', (d) => { raw = Buffer.concat([raw, d]); });
    s.on('error', reject);
    s.on('end', () => {
      const text = raw.toString('utf8');
      const [head, ...rest] = text.split('\r\n\r\n');
      const status = Number(head.split(' ')[1]);
      const hdrs = Object.fromEntries(head.split('\r\n').slice(1).map((l) => { const i = l.indexOf(':'); return [l.slice(0, i).toLowerCase(), l.slice(i + 1).trim()]; }));
      let bodyText = rest.join('\r\n\r\n');
      if (/chunked/i.test(hdrs['transfer-encoding'] || '')) {
        let out = '';
        let t = bodyText;
        for (;;) {
          const i = t.indexOf('\r\n');
          const n = parseInt(t.slice(0, i), 16);
          if (!n) break;
          out += t.slice(i + 2, i + 2 + n);
          t = t.slice(i + 2 + n + 2);
        }
        bodyText = out;
      }
      let json = null;
      try { json = JSON.parse(bodyText); } catch { /* a page */ }
      resolve({ status, headers: hdrs, body: json ?? bodyText });
    });
  });
}

/** A WebSocket upgrade through nginx with a browser's headers: the status, and whether a
 *  frame followed within `waitFrameMs` (0: not waited for). */
function upgrade(port, p, origin, waitFrameMs = 0) {
  return new Promise((resolve, reject) => {
    const s = tls.connect({ host: '127.0.0.1', port, servername: 'localhost', rejectUnauthorized: false }, () => {
      s.write(`GET ${p} HTTP/1.1\r\nHost: localhost:${port}\r\nOrigin: ${origin}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
        `Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`);
    });
    let raw = Buffer.alloc(0);
    let status = 0;
    const done = (frame) => { s.destroy(); resolve({ status, frame }); };
    s.on('data', (d) => {
      raw = Buffer.concat([raw, d]);
      const end = raw.indexOf('\r\n\r\n');
      if (end < 0) return;
      status = Number(raw.subarray(0, end).toString().split(' ')[1]);
      if (status !== 101 || !waitFrameMs) return done(false);
      if (raw.length > end + 4) done(true);
    });
    s.on('error', reject);
    setTimeout(() => done(false), Math.max(waitFrameMs, 5000));
  });
}

/** A plain-HTTP GET (the redirect). */
function plainGet(port, p) {
  return new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path: p, headers: { Host: 'localhost' } }, (r) => { r.resume(); resolve({ status: r.statusCode, location: r.headers.location }); }).on('error', reject);
  });
}

const problems = [];
try {
  // The database: a role whose password holds URL characters, and its own database.
  psql(base, `DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
  psql(base, `DROP ROLE IF EXISTS ${ROLE}`);
  psql(base, `CREATE ROLE ${ROLE} LOGIN PASSWORD '${PASSWORD}'`);
  psql(base, `CREATE DATABASE ${DB} OWNER ${ROLE}`);
  const pg = new URL(base);
  const dbUrl = `postgres://${ROLE}:${PASSWORD}@${pg.hostname}:${pg.port || 5432}/${DB}`;

  // The environment file, as the page writes it (0600, the service user alone reads it).
  const envBlock = docBlock('sh', '/etc/cohort/env');
  check(/^COHORT_DATABASE=/m.test(envBlock), `the environment file's block names no COHORT_DATABASE: ${envBlock}`);
  const envFile = path.join(dir, 'env');
  fs.writeFileSync(envFile, `COHORT_DATABASE=${dbUrl}\n`, { mode: 0o600 });
  check((fs.statSync(envFile).mode & 0o777) === 0o600, 'the environment file is not 0600');
  const env = Object.fromEntries(fs.readFileSync(envFile, 'utf8').split('\n').filter((l) => l.includes('=')).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));

  // Ports: nginx's TLS port (not 443), its plain port (not 80), two instances.
  const [tlsPort, plainPort, p1, p2] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const site = `https://localhost:${tlsPort}`;

  // The instances, started with the unit's ExecStart line (its binary, port and public origin replaced).
  const unit = docBlock('ini', '/etc/systemd/system/cohort@.service');
  const execLine = unit.split('\n').find((l) => l.startsWith('ExecStart='));
  check(execLine, 'the unit has no ExecStart line');
  check(!/postgres:\/\//.test(unit), 'the unit puts the database URL on the command line');
  // The second instance goes without --public-origin: there the Host nginx forwards is what
  // tells the instance its own site, so the page's proxy headers are checked too.
  const argsOf = (port, publicOrigin) => {
    const args = execLine.replace('ExecStart=', '').trim().split(/\s+/).slice(1)
      .map((a) => a.replace('%i', String(port)).replace('https://cohort.example', site));
    const i = args.indexOf('--public-origin');
    if (!publicOrigin && i >= 0) args.splice(i, 2);
    return args.concat(['--ai-workers', '0']);
  };
  const instances = [];
  instances.push(await startCohort(argsOf(p1, true), env, 'open http://'));
  instances.push(await startCohort(argsOf(p2, false), env, 'open http://'));
  const worker = await startCohort(['worker', '--ai-workers', '1'], env, 'cohort worker: taking');
  console.log(`deploy: two instances (${p1}, ${p2}, --ai-workers 0) and a worker on PostgreSQL as ${ROLE} (password ${JSON.stringify(PASSWORD)}), from a 0600 environment file`);

  // nginx: the page's block as written, the names, ports and certificate paths replaced.
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=localhost',
    '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem')], { stdio: 'ignore' });
  let block = docBlock('nginx', '/etc/nginx/sites-available/cohort');
  const upstreams = [...block.matchAll(/^\s*server 127\.0\.0\.1:\d+;$/gm)];
  check(upstreams.length >= 2, `the upstream lists ${upstreams.length} instances`);
  block = block.replace(/^(\s*server )127\.0\.0\.1:\d+;\n/gm, '')
    .replace(/upstream cohort \{\n/, `upstream cohort {\n    server 127.0.0.1:${p1};\n    server 127.0.0.1:${p2};\n`)
    .replace(/listen 443 ssl;/g, `listen ${tlsPort} ssl;`).replace(/listen \[::\]:443 ssl;/g, '')
    .replace(/listen 80;/g, `listen ${plainPort};`).replace(/listen \[::\]:80;/g, '')
    .replace(/ssl_certificate\s+\S+;/, `ssl_certificate ${dir}/cert.pem;`)
    .replace(/ssl_certificate_key\s+\S+;/, `ssl_certificate_key ${dir}/key.pem;`)
    .replace(/server_name cohort\.example;/g, 'server_name localhost;')
    .replace(/root \/var\/www\/html;/g, `root ${dir};`);
  fs.writeFileSync(path.join(dir, 'cohort.conf'), block);
  for (const t of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) fs.mkdirSync(path.join(dir, t));
  fs.writeFileSync(path.join(dir, 'nginx.conf'), `daemon off;
${process.getuid && process.getuid() === 0 ? 'user root;\n' : ''}pid ${dir}/nginx.pid;
error_log ${dir}/error.log;
events { worker_connections 256; }
http {
    access_log off;
    client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy; fastcgi_temp_path ${dir}/fastcgi;
    uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi;
    include ${dir}/cohort.conf;
}
`);
  const nginxBin = fs.existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : 'nginx';
  execFileSync(nginxBin, ['-t', '-q', '-p', dir, '-c', path.join(dir, 'nginx.conf')]);
  nginx = spawn(nginxBin, ['-p', dir, '-c', path.join(dir, 'nginx.conf')], { stdio: 'ignore' });
  await waitFor('nginx listening', async () => (await request(tlsPort, 'GET', '/').catch(() => ({ status: 0 }))).status === 200, 10000);
  console.log(`deploy: nginx (the page's block) on TLS port ${tlsPort}, plain port ${plainPort}`);

  // 1. Plain HTTP sends browsers to HTTPS.
  const redirect = await plainGet(plainPort, '/play');
  check(redirect.status === 301 && redirect.location === 'https://localhost/play', `plain HTTP: ${redirect.status} ${redirect.location}`);

  // 2. A browser's POST, from the page at https://localhost:<port>; another site's refused.
  const browser = { Origin: site, 'Sec-Fetch-Site': 'same-origin' };
  // Four POSTs: nginx sends them to both instances in turn.
  let created = null;
  for (let i = 0; i < 4; i++) {
    created = await request(tlsPort, 'POST', '/api/games', { headers: browser, body: { variant: 'mini-chieftain', white: 'human', black: 'ai', ai: { agent: 'engine', time_ms: 300 } } });
    check(created.status === 200, `a browser's POST on port ${tlsPort} (${i + 1} of 4): ${created.status} ${JSON.stringify(created.body)}`);
  }
  const foreign = await request(tlsPort, 'POST', '/api/games', { headers: { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' }, body: { variant: 'chess', white: 'human', black: 'ai' } });
  check(foreign.status === 403 && foreign.body.code === 'cross_site', `another site's POST: ${foreign.status} ${JSON.stringify(foreign.body)}`);
  console.log(`deploy: a browser's POST from ${site} accepted; another site's refused (${foreign.status} ${foreign.body.code})`);

  // 3. Every WebSocket through nginx, with the page's Origin.
  const id = created.body.id;
  const sockets = [[`/api/games/${id}/ws`, 3000], ['/api/challenges/watch', 0], ['/api/chat/lobby/ws', 0], [`/api/games/${id}/chat/players/ws?token=${created.body.tokens.white}`, 0]];
  for (const [p, wait] of sockets) {
    const u = await upgrade(tlsPort, p, site, wait);
    check(u.status === 101, `WebSocket ${p}: ${u.status}`);
    if (wait) check(u.frame, `WebSocket ${p}: no message after the upgrade`);
    const other = await upgrade(tlsPort, p, 'https://evil.example');
    check(other.status === 403, `WebSocket ${p} from another site: ${other.status}`);
  }
  console.log(`deploy: ${sockets.length} WebSockets upgraded through nginx (a game's sent its view); from another site: 403`);

  // 4. The AI's replies come from the worker (both instances have no workers).
  const rnd = rng(3);
  for (let turn = 1; turn <= 2; turn++) {
    let view = (await request(tlsPort, 'GET', `/api/games/${id}`)).body;
    while (view.to_move === 'white' && !view.result) {
      const step = randomStep(view, rnd);
      const r = await request(tlsPort, 'POST', `/api/games/${id}/step`, { headers: browser, body: { token: created.body.tokens.white, step } });
      check(r.status === 200, `step ${step}: ${r.status} ${JSON.stringify(r.body)}`);
      view = r.body;
    }
    if (view.result) break;
    await waitFor(`the worker's reply (turn ${turn})`, async () => {
      const v = (await request(tlsPort, 'GET', `/api/games/${id}`)).body;
      return v.to_move === 'white' || v.result;
    }, 20000);
  }
  console.log('deploy: two turns against the AI, its replies played by the worker');

  // 5. A server analysis, taken by the worker.
  const analysis = await request(tlsPort, 'POST', '/api/analysis', { headers: browser, body: { variant: 'chesimals-1', ms: 200 } });
  check(analysis.status === 200, `POST /api/analysis with every instance on --ai-workers 0: ${analysis.status} ${JSON.stringify(analysis.body)}`);
  const finished = await waitFor('the analysis done', async () => {
    const a = (await request(tlsPort, 'GET', `/api/analysis/${analysis.body.id}`)).body;
    check(a.state !== 'failed', `the analysis failed: ${JSON.stringify(a)}`);
    return a.state === 'done' ? a : null;
  }, 20000);
  check(finished.points.length === 1 && finished.points[0].best.length > 0, `the analysis: ${JSON.stringify(finished).slice(0, 300)}`);
  console.log(`deploy: a server analysis run by the worker (best turn ${finished.points[0].best.join(' ')})`);

  // 6. A client's own X-Forwarded-For is dropped: log-in failures from one client count
  // against its address, whatever it writes there. Each instance allows 20 failures an address.
  let refusedAt = 0;
  for (let i = 1; i <= 45 && !refusedAt; i++) {
    const r = await request(tlsPort, 'POST', '/api/account/login', { headers: { ...browser, 'X-Forwarded-For': `203.0.113.${i}` }, body: { username: `nobody${i}`, password: 'not-the-password' } });
    check(r.status === 401 || r.status === 429, `log-in ${i}: ${r.status} ${JSON.stringify(r.body)}`);
    if (r.status === 429) refusedAt = i;
  }
  check(refusedAt > 0, 'log-ins with a new X-Forwarded-For each were never refused: the client chose its address');
  console.log(`deploy: a client's own X-Forwarded-For ignored: its failed log-ins refused from attempt ${refusedAt}`);

  // 7. No output shows the password.
  for (const c of [...instances, worker]) await stopServer(c);
  const leaked = outputs.map((o) => o()).filter((o) => o.includes(PASSWORD) || o.includes('rd#1') || o.includes('w:rd'));
  check(leaked.length === 0, `the password printed: ${leaked.join('\n')}`);
  check(outputs.some((o) => o().includes(`postgres://${ROLE}:***@`)), `no masked URL printed: ${outputs.map((o) => o()).join('\n')}`);
  console.log('deploy: no output shows the password (the URL printed masked)');
  console.log('deploy test: passed');
} catch (e) {
  problems.push(e.message);
} finally {
  for (const c of children) await stopServer(c, 'SIGKILL');
  if (nginx) { nginx.kill('SIGQUIT'); await sleep(300); }
  try { psql(base, `DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`); psql(base, `DROP ROLE IF EXISTS ${ROLE}`); } catch (e) { problems.push(`cleaning up: ${e.message}`); }
  fs.rmSync(dir, { recursive: true, force: true });
}
if (problems.length) {
  console.error(`deploy test: FAILED: ${problems.join('; ')}`);
  process.exit(1);
}
