// xiangqi-wasm for Node: the same API as the browser build. The module is loaded when this
// file is imported (`init()` is there for code shared with browsers); the engine searches in
// a worker thread.

import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import * as wasm from './wasm/xiangqi_wasm.js';
import { EngineCore } from './engine.js';
import { helpers } from './common.js';
import { XiangqiError } from './errors.js';

export { XiangqiError } from './errors.js';
export { Search } from './engine.js';
export { Board, GameRecord, levels, moveText, version } from './wasm/xiangqi_wasm.js';

const module = new WebAssembly.Module(readFileSync(new URL('./wasm/xiangqi_wasm_bg.wasm', import.meta.url)));
wasm.initSync({ module });
wasm.setErrorClass(XiangqiError);

/** Already loaded in Node; resolves at once. */
export async function init() {}

const shared = helpers(wasm);
/** Reads a record file (bytes, or text) in any format the library reads: PGN, XQF,
 * DhtmlXQ/UBB, CBF, CBR, CBL or a plain move list. */
export const readRecords = shared.readRecords;
/** Counts the leaf nodes of the legal-move tree (perft) of a FEN. */
export const perft = shared.perft;

/** The engine, searching in a worker thread (see the browser build). */
export class Engine extends EngineCore {
  constructor() {
    super(() => {
      const worker = new Worker(new URL('./node-worker.js', import.meta.url), { workerData: { module } });
      // The protocol of a Web Worker over worker_threads' events; an idle engine does not
      // keep the process alive.
      const port = {
        onmessage: null,
        onerror: null,
        postMessage: (m) => {
          if (m.type === 'search') worker.ref(); // a search keeps the process alive
          worker.postMessage(m);
        },
        terminate: () => worker.terminate(),
      };
      worker.on('message', (data) => {
        if (data.type === 'ready' || data.type === 'done' || data.type === 'error') worker.unref();
        port.onmessage?.({ data });
      });
      worker.on('error', (e) => port.onerror?.(e));
      return port;
    }, wasm);
  }
}
