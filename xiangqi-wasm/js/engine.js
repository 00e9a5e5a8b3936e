// The engine behind a worker, shared by the browser and Node entry points: a search runs in
// the worker (the WebAssembly search is single-threaded and runs to its end), so the page or
// the process stays free; `stop()` ends the worker and answers with the best line so far.

import { XiangqiError } from './errors.js';

/** The game a search is for: a Board, a FEN, or `{ fen, moves }`. */
function gameOf(game) {
  if (game === undefined || game === null) return { fen: 'startpos', moves: [] };
  if (typeof game === 'string') return { fen: game, moves: [] };
  if (typeof game.startFen === 'function' && typeof game.history === 'function') {
    return { fen: game.startFen(), moves: game.history() };
  }
  if (typeof game === 'object') return { fen: game.fen ?? 'startpos', moves: [...(game.moves ?? [])] };
  throw new XiangqiError('option', 'search: give a Board, a FEN or { fen, moves }');
}

/**
 * A running search: a promise of its result (`await engine.search(...)`) and an async
 * iterator of its progress reports (`for await (const info of engine.search(...))`).
 */
export class Search {
  #infos = [];
  #waiting = [];
  #done = false;
  #promise;

  constructor(promise) {
    this.#promise = promise;
    promise.then(
      () => this.#finish(),
      () => this.#finish(),
    );
  }

  /** @internal */
  push(info) {
    const w = this.#waiting.shift();
    if (w) w({ value: info, done: false });
    else this.#infos.push(info);
  }

  #finish() {
    this.#done = true;
    for (const w of this.#waiting.splice(0)) w({ value: undefined, done: true });
  }

  then(onResult, onError) {
    return this.#promise.then(onResult, onError);
  }

  catch(onError) {
    return this.#promise.catch(onError);
  }

  finally(f) {
    return this.#promise.finally(f);
  }

  [Symbol.asyncIterator]() {
    return {
      next: () => {
        if (this.#infos.length) return Promise.resolve({ value: this.#infos.shift(), done: false });
        if (this.#done) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => this.#waiting.push(resolve));
      },
      return: () => Promise.resolve({ value: undefined, done: true }),
    };
  }
}

/**
 * The engine. `spawn()` makes a worker speaking the package's protocol (`postMessage`,
 * `onmessage`, `terminate`); `wasm` is the module's exports on this thread, used to answer
 * a stop that came before the first report.
 */
export class EngineCore {
  #spawn;
  #wasm;
  #worker = null;
  #ready = null;
  #current = null; // { id, search, resolve, reject, last, game, options }
  #nextId = 1;

  constructor(spawn, wasm) {
    this.#spawn = spawn;
    this.#wasm = wasm;
  }

  #start() {
    if (this.#worker) return this.#ready;
    const worker = this.#spawn();
    this.#worker = worker;
    this.#ready = new Promise((resolve, reject) => {
      worker.onmessage = (msg) => {
        const data = msg.data ?? msg;
        if (data.type === 'ready') resolve();
        else this.#receive(data);
      };
      worker.onerror = (e) => {
        const err = new XiangqiError('engine', `the engine's worker failed: ${e.message ?? e}`);
        reject(err);
        this.#fail(err);
      };
    });
    return this.#ready;
  }

  #receive(data) {
    const cur = this.#current;
    if (!cur || data.id !== cur.id) return;
    if (data.type === 'info') {
      if (data.info.multipv === 1) cur.last = data.info;
      cur.search.push(data.info);
    } else if (data.type === 'done') {
      this.#current = null;
      cur.resolve(data.result);
    } else if (data.type === 'error') {
      this.#current = null;
      cur.reject(XiangqiError.from(data.error));
    }
  }

  #fail(err) {
    const cur = this.#current;
    this.#current = null;
    this.#worker = null;
    if (cur) cur.reject(err);
  }

  /**
   * Searches `game` (a Board, a FEN or `{ fen, moves }`) with `options`
   * (`{ movetime, depth, nodes, multipv, level, hash, rules, seed }`). One search at a time:
   * a new one stops the one running.
   */
  search(game, options = {}) {
    if (this.#current) this.stop();
    const { fen, moves } = gameOf(game);
    const id = this.#nextId++;
    let resolve, reject;
    const promise = new Promise((res, rej) => {
      resolve = res;
      reject = rej;
    });
    const search = new Search(promise);
    this.#current = { id, search, resolve, reject, last: null, fen, moves, options };
    this.#start().then(
      () => {
        if (this.#current?.id === id) {
          this.#worker.postMessage({ type: 'search', id, fen, moves, options: { ...options } });
        }
      },
      (err) => reject(err),
    );
    return search;
  }

  /**
   * Stops the running search: it resolves at once with the best line of its last report
   * (or, before the first one, with a one-ply search's move). The worker is ended and a
   * fresh one starts with the next search, so the hash table starts empty again.
   */
  stop() {
    const cur = this.#current;
    if (!cur) return;
    this.#current = null;
    this.#worker?.terminate();
    this.#worker = null;
    this.#ready = null;
    try {
      cur.resolve(this.#resultSoFar(cur));
    } catch (e) {
      cur.reject(e);
    }
  }

  #resultSoFar(cur) {
    const quick = this.#wasm.search(cur.fen, cur.moves, { depth: 1, hash: 1 }, undefined);
    const last = cur.last;
    if (!last || !last.pv.length) return { ...quick, stopped: true };
    const board = new this.#wasm.Board(cur.fen);
    for (const m of cur.moves) board.play(m);
    const best = board.legalMoves().find((m) => m.iccs === last.pv[0]) ?? quick.bestMove;
    board.free?.();
    return {
      bestMove: best,
      ponder: last.pv[1] ?? null,
      score: last.score,
      pv: last.pv,
      depth: last.depth,
      nodes: last.nodes,
      timeMs: last.timeMs,
      stopped: true,
    };
  }

  /** Forgets what earlier searches learnt (call it between unrelated games). */
  newGame() {
    if (this.#worker) this.#start().then(() => this.#worker?.postMessage({ type: 'newGame' }));
  }

  /** Ends the worker; the engine starts a new one if it is used again. */
  quit() {
    this.stop();
    this.#worker?.terminate();
    this.#worker = null;
    this.#ready = null;
  }
}

/** The worker's side of the protocol: `post` sends a message back, `wasm` is the module. */
export function serve(wasm, post) {
  return (data) => {
    if (data.type === 'newGame') {
      wasm.newGame();
      return;
    }
    if (data.type !== 'search') return;
    const { id, fen, moves, options } = data;
    try {
      const result = wasm.search(fen, moves, options, (info) => post({ type: 'info', id, info }));
      post({ type: 'done', id, result });
    } catch (e) {
      const error = e && e.kind ? { kind: e.kind, message: e.message, reason: e.reason, index: e.index }
        : { kind: 'engine', message: String(e?.message ?? e) };
      post({ type: 'error', id, error });
    }
  };
}
