// xiangqi-wasm for browsers and bundlers: the rules, notation, records and the engine, from
// WebAssembly. Call `init()` once (it fetches and compiles the module), then use `Board`,
// `readRecords` and `Engine`; the engine searches in a Web Worker, so the page never blocks.

import initWasm, * as wasm from './wasm/xiangqi_wasm.js';
import { EngineCore } from './engine.js';
import { helpers } from './common.js';
import { XiangqiError } from './errors.js';

export { XiangqiError } from './errors.js';
export { Search } from './engine.js';
export { Board, GameRecord, levels, moveText, version } from './wasm/xiangqi_wasm.js';

let module = null;
let loading = null;

/**
 * Loads the WebAssembly module: from `source` (a URL, a Response, bytes or a compiled
 * `WebAssembly.Module`), by default the `.wasm` file beside this script. Safe to call again.
 */
export function init(source) {
  if (!loading) {
    loading = (async () => {
      let input = source ?? new URL('./wasm/xiangqi_wasm_bg.wasm', import.meta.url);
      if (input instanceof WebAssembly.Module) module = input;
      else {
        if (typeof input === 'string' || input instanceof URL) input = fetch(input);
        const res = await input;
        if (res instanceof Response) {
          if (!res.ok) throw new XiangqiError('engine', `could not load ${res.url}: HTTP ${res.status}`);
          module = await WebAssembly.compileStreaming(res).catch(async () =>
            // A server that does not say application/wasm: compile from the bytes.
            WebAssembly.compile(await res.clone().arrayBuffer()),
          );
        } else module = await WebAssembly.compile(res);
      }
      await initWasm({ module_or_path: module });
      wasm.setErrorClass(XiangqiError);
    })();
  }
  return loading;
}

function ready() {
  if (!module) throw new XiangqiError('engine', 'call `await init()` before using xiangqi-wasm');
}

const shared = helpers(wasm, ready);
/** Reads a record file (bytes, or text) in any format the library reads: PGN, XQF,
 * DhtmlXQ/UBB, CBF, CBR, CBL or a plain move list. */
export const readRecords = shared.readRecords;
/** Counts the leaf nodes of the legal-move tree (perft) of a FEN. */
export const perft = shared.perft;

/**
 * The engine at full strength with its embedded net (or at a level), searching in a Web
 * Worker: `await engine.search(board, { movetime: 1000 })`, or
 * `for await (const info of engine.search(...))` for its progress.
 */
export class Engine extends EngineCore {
  constructor() {
    ready();
    super(() => {
      const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
      worker.postMessage({ type: 'init', module });
      return worker;
    }, wasm);
  }
}
