// Cohort's pages: helpers shared by every page (DOM building, the API, side and piece names).
// Loaded first of the page scripts (the order is in app.js's header and the shell of pages.rs).
'use strict';

const app = document.getElementById('app');
const page = document.body.dataset.page;
const gameId = document.body.dataset.game;
const params = new URLSearchParams(location.search);
const token = params.get('token') || '';
// A page of the static site `cohort site` writes (`data-site="static"`): no server behind it,
// its addresses relative (docs/wasm.md, "cohort site").
const STATIC_SITE = document.body.dataset.site === 'static';

function h(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k.startsWith('on') && typeof v === 'function') e[k] = v;
    else if (k === 'value') e.value = v;
    else if (v !== null && v !== undefined && v !== false) e.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat(Infinity)) {
    if (c !== null && c !== undefined && c !== false) e.append(c instanceof Node ? c : String(c));
  }
  return e;
}

async function api(method, path, body) {
  let r;
  try {
    r = await fetch(path, {
      method,
      headers: body ? { 'content-type': 'application/json' } : {},
      body: body ? JSON.stringify(body) : undefined,
    });
  } catch (e) {
    throw new Error('The server cannot be reached; check your connection.');
  }
  let data = null;
  try { data = await r.json(); } catch { data = null; }
  if (!r.ok) {
    const err = new Error(data && data.error ? data.error : `The server answered ${r.status}.`);
    err.status = r.status;
    throw err;
  }
  return data;
}

const cap = (s) => (s ? s.charAt(0).toUpperCase() + s.slice(1) : '');
const other = (side) => (side === 'white' ? 'black' : 'white');
const savedGame = (id) => {
  try { return JSON.parse(localStorage.getItem(`cohort-game-${id}`)); } catch { return null; }
};

// Piece names by letter: the server's (`pieces` of a GameView), else the board's table.
function namesOf(v) {
  return (v && v.pieces) || {};
}

function legend(names, letters) {
  const present = new Set(letters.map((l) => l.toUpperCase()));
  const shown = Object.keys(names).filter((l) => present.has(l));
  if (!shown.length) return null;
  return h('p', { class: 'legend' }, shown.map((l) => h('span', {}, h('b', {}, l), ` ${names[l]}`)));
}

// The AI levels of a variant (GET /api/ai/levels?variant=..., the engine's own list: games
// of one-step turns have their own table): a select of "Level 1" to "Level 8" (values
// level1 to level8) and a line saying what the chosen one is there. `variant` is a
// built-in variant's id, or a custom variant's `ai_levels` (POST /api/variants/check).
// Built at once; the words come when the list does. `follow(variant)` says them for
// another variant (the lobby's variant select; the same variant again changes nothing).
const levelLists = new Map();
function levelsOf(variant) {
  if (typeof variant === 'object' && variant) return Promise.resolve(variant);
  const id = variant || 'chesimals-1';
  if (!levelLists.has(id)) {
    const p = api('GET', `/api/ai/levels?variant=${encodeURIComponent(id)}`);
    p.catch(() => levelLists.delete(id));
    levelLists.set(id, p);
  }
  return levelLists.get(id);
}
function levelSelect(testid, variant) {
  const select = h('select', { 'data-testid': testid, name: 'level', 'aria-label': 'AI level' },
    [1, 2, 3, 4, 5, 6, 7, 8].map((n) => h('option', { value: `level${n}`, selected: n === 3 }, `Level ${n}`)));
  const about = h('span', { class: 'hint level-about', 'data-testid': `${testid}-about` });
  let list = null;
  const say = () => {
    const l = list && list.levels.find((x) => x.agent === select.value);
    about.textContent = l ? l.about : '';
  };
  select.addEventListener('change', () => { select.dataset.touched = '1'; say(); });
  let asked = 0;
  let shown;
  const follow = (v) => {
    if (v === shown) return;
    shown = v;
    const mine = ++asked;
    list = null;
    say();
    levelsOf(v).then((got) => {
      if (mine !== asked) return; // a later variant was chosen meanwhile
      list = got;
      for (const o of select.options) {
        const l = got.levels.find((x) => x.agent === o.value);
        o.title = l ? l.about : '';
      }
      if (!select.dataset.touched) select.value = `level${got.default}`;
      say();
    }).catch(() => {});
  };
  follow(variant);
  return { select, about, follow };
}
