// Cohort's rules and engine in WebAssembly (docs/wasm.md): an ES module for node >= 18 and
// browsers (a page or a Web Worker). The module cohort.wasm is built by scripts/wasm-build
// from crates/wasm; it has plain exports, strings passing through its memory as UTF-8.
//
//   import { Cohort } from './cohort.js';
//   const cohort = await Cohort.load();            // or bytes, a URL, a path (node)
//   const game = cohort.newGame('chieftain');      // a variant id or a variant file's text
//   game.legalSteps(); game.make('c1-d2'); game.unmake(); game.perft(2);
//   const best = game.search({ ms: 1000 }, (info) => console.log(info.depth, info.line));
//
// Every error (an unknown variant, a bad position, an illegal step, an internal error) is
// thrown as a CohortError with the rules' message.

export class CohortError extends Error {
  constructor(message) {
    super(message);
    this.name = 'CohortError';
  }
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const isNode = typeof process !== 'undefined' && !!(process.versions && process.versions.node);

// The wasm bytes (or a compiled module) from what `load` was given.
async function wasmSource(source) {
  if (source === undefined || source === null) source = new URL('./cohort.wasm', import.meta.url);
  if (source instanceof WebAssembly.Module) return source;
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) return source;
  const url = source instanceof URL ? source : null;
  const text = url ? url.href : String(source);
  if (isNode && (text.startsWith('file:') || !/^[a-z]+:/i.test(text))) {
    const fs = await import('node:fs/promises');
    const { fileURLToPath } = await import('node:url');
    const path = text.startsWith('file:') ? fileURLToPath(text) : text;
    try {
      return await fs.readFile(path);
    } catch (e) {
      throw new CohortError(`cannot read ${path} (run scripts/wasm-build): ${e.message}`);
    }
  }
  const answer = await fetch(text);
  if (!answer.ok) {
    throw new CohortError(`cannot load ${text}: ${answer.status} ${await answer.text()}`);
  }
  return await answer.arrayBuffer();
}

export class Cohort {
  /** Load and start the module: `source` is its bytes, a compiled WebAssembly.Module, a URL
   * or (node) a file path; by default cohort.wasm next to this file. */
  static async load(source) {
    const cohort = new Cohort();
    const what = await wasmSource(source);
    const imports = {
      env: {
        cohort_now_ms: () => performance.now(),
        cohort_info: (ptr, len) => cohort._info(ptr, len),
        cohort_panic: (ptr, len) => {
          throw new CohortError(cohort._text(ptr, len));
        },
      },
    };
    const instance =
      what instanceof WebAssembly.Module
        ? await WebAssembly.instantiate(what, imports)
        : (await WebAssembly.instantiate(what, imports)).instance;
    cohort._x = instance.exports;
    cohort._onInfo = null;
    cohort._call('init');
    return cohort;
  }

  _text(ptr, len) {
    return decoder.decode(new Uint8Array(this._x.memory.buffer, ptr, len));
  }

  // A search's report: the callback's true (or a stop check's) stops the search.
  _info(ptr, len) {
    const on = this._onInfo;
    if (!on) return 0;
    const info = JSON.parse(this._text(ptr, len));
    return on(info) === true ? 1 : 0;
  }

  // Call an export; strings are written into the module's memory for the call. Answers the
  // call's text, or throws its error message.
  _call(name, ...args) {
    const x = this._x;
    const held = [];
    const flat = [];
    for (const a of args) {
      if (typeof a === 'string') {
        const bytes = encoder.encode(a);
        const ptr = bytes.length ? x.alloc(bytes.length) : 0;
        if (bytes.length) new Uint8Array(x.memory.buffer, ptr, bytes.length).set(bytes);
        held.push([ptr, bytes.length]);
        flat.push(ptr, bytes.length);
      } else {
        flat.push(a);
      }
    }
    let status;
    try {
      status = x[name](...flat);
    } catch (e) {
      if (e instanceof CohortError) throw e;
      if (e instanceof WebAssembly.RuntimeError) {
        throw new CohortError(`cohort: internal error (${e.message})`);
      }
      throw e;
    } finally {
      for (const [ptr, len] of held) if (len) x.dealloc(ptr, len);
    }
    if (status === undefined) return undefined;
    const text = this._text(x.result_ptr(), x.result_len());
    if (status !== 0) throw new CohortError(text);
    return text;
  }

  /** The built-in variants (the outside families' too): [{id, name}]. */
  variants() {
    return JSON.parse(this._call('variants'));
  }
  /**
   * Marks on an analysis's points, by the server's rule (docs/server.md, "Marks"): `points`
   * in order, each with `side`, `score` (for White), `best` and `played`; answers them with
   * `loss` and `mark` ("inaccuracy", "mistake", "blunder" or null) filled in.
   */
  marks(points) {
    return JSON.parse(this._call('marks', JSON.stringify(points)));
  }

  /** A new game of a variant (its id, or a variant file's text: its first variant), from
   * its start or from `position`. */
  newGame(variant, position) {
    const info = JSON.parse(this._call('game_new', String(variant), position == null ? '' : String(position)));
    return new CohortGame(this, info.handle, info.variant, info.name);
  }
}

export class CohortGame {
  constructor(cohort, handle, variant, name) {
    this.cohort = cohort;
    this.handle = handle;
    this.variant = variant;
    this.name = name;
  }
  _call(name, ...args) {
    return this.cohort._call(name, this.handle, ...args);
  }
  /** The position string (NOTATION.md). */
  position() {
    return this._call('game_position');
  }
  /** Start again from a position string (the game is unchanged if it does not read). */
  setPosition(text) {
    this._call('game_set_position', String(text));
  }
  /** 'white' or 'black'. */
  sideToMove() {
    return this._call('game_side_to_move');
  }
  /** The legal steps as data: [{index, text, from, to, kind, promote, drop, lead_mode,
   * sheet, origins, removes}] (the server's names); empty when the game is over. */
  legalSteps() {
    return JSON.parse(this._call('game_legal_steps'));
  }
  /** Make a step, by its index in legalSteps() or its text. Answers {step, effects,
   * sideToMove, outcome}; effects: [{type: moved|removed|added|kind-changed|pocketed|
   * side-changed|pinned, side, letter, ...squares}]. */
  make(step) {
    const text =
      typeof step === 'number'
        ? Number.isInteger(step) && step >= 0 && step <= 0xffffffff
          ? this._call('game_make_index', step)
          : (() => {
              throw new CohortError(`no legal step ${step}`);
            })()
        : this._call('game_make_text', String(step));
    return JSON.parse(text);
  }
  /** Take back the last step (across turns). False when none was made. */
  unmake() {
    return this._call('game_unmake') === 'true';
  }
  /** null while the game goes on, else {result, winner, reason, text}. */
  outcome() {
    return JSON.parse(this._call('game_outcome'));
  }
  /** The board: {units: [{square, letter, side, group, moved, pinned}], movable, pocket,
   * check, frozen, command, command_info, position, to_move, at_turn_start, outcome, ...}. */
  view() {
    return JSON.parse(this._call('game_view'));
  }
  /** Step perft (NOTATION.md) to `depth`, as a Number (perftText: exact decimal text). */
  perft(depth) {
    return Number(this.perftText(depth));
  }
  perftText(depth) {
    if (!Number.isInteger(depth) || depth < 0 || depth > 64) {
      throw new CohortError(`perft: depth ${depth}: a whole number from 0 to 64`);
    }
    return this._call('game_perft', depth);
  }
  /** The engine's turn within {ms, nodes} (either or both; neither: a second), on this
   * thread (use worker.js to keep a page responsive). `onInfo({depth, score, nodes, line,
   * made})` hears each finished depth of each step's search (`made`: the steps of the turn
   * chosen before it); it may return true to stop, as may `limits.shouldStop()`, checked at
   * the same moments. Answers {turn, score, pv, depth, nodes, nodes_per_second, ms,
   * stopped}; the game is unchanged. */
  search(limits = {}, onInfo) {
    const ms = limits.ms == null ? 0 : Number(limits.ms);
    const nodes = limits.nodes == null ? 0 : Number(limits.nodes);
    if (!(ms >= 0) || !(nodes >= 0)) throw new CohortError('search: ms and nodes must be positive numbers');
    const shouldStop = limits.shouldStop;
    const c = this.cohort;
    const before = c._onInfo;
    // A callback that throws stops the search, and its exception is thrown after it (an
    // exception through the module's frames would lose the game).
    let thrown = null;
    c._onInfo = (info) => {
      try {
        const stop = onInfo ? onInfo(info) === true : false;
        return stop || (shouldStop ? shouldStop() === true : false);
      } catch (e) {
        thrown = thrown ?? { e };
        return true;
      }
    };
    let result;
    try {
      result = JSON.parse(this._call('game_search', ms, nodes));
    } finally {
      c._onInfo = before;
    }
    if (thrown) throw thrown.e;
    return result;
  }
  /** The turn `played` (step texts) judged against the engine's `best` turn here: the
   * positions after each searched to the same depth, the one after `best` for `ms`
   * (docs/server.md, "Marks"). Answers {best_after, played_after, depth}, scores for
   * White; the game is unchanged. */
  judge(best, played, ms) {
    return JSON.parse(this._call('game_judge', JSON.stringify({ best, played, ms: Math.max(1, Math.round(ms || 1000)) })));
  }
  /** Free the game's memory; its handle answers an error after. */
  free() {
    this.cohort._x.game_free(this.handle);
  }
}

export default Cohort;
