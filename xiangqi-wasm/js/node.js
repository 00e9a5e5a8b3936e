// xiangqi-wasm for Node: the same API as the browser build. The module is loaded when this
// file is imported (`init()` is there for code shared with browsers); the engine searches in
// a worker thread.

import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import * as wasm from './wasm/xiangqi_wasm.js';
import { EngineCore } from './engine.js';
import { XiangqiError } from './errors.js';

export { XiangqiError } from './errors.js';
export { Search } from './engine.js';
export { Board, GameRecord, levels, version } from './wasm/xiangqi_wasm.js';

const module = new WebAssembly.Module(readFileSync(new URL('./wasm/xiangqi_wasm_bg.wasm', import.meta.url)));
wasm.initSync({ module });
wasm.setErrorClass(XiangqiError);

/** Already loaded in Node; resolves at once. */
export async function init() {}

/** Reads a record file (a Buffer, bytes, or text) in any format the library reads. */
export function readRecords(data) {
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  return wasm.readRecords(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes));
}

/** Counts the leaf nodes of the legal-move tree (perft) of a FEN. */
export function perft(fen, depth) {
  const board = new wasm.Board(fen);
  try {
    return board.perft(depth);
  } finally {
    board.free();
  }
}

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
        postMessage: (m) => worker.postMessage(m),
        terminate: () => worker.terminate(),
      };
      worker.on('message', (data) => {
        if (data.type === 'ready' || data.type === 'done' || data.type === 'error') worker.unref();
        port.onmessage?.({ data });
      });
      worker.on('error', (e) => port.onerror?.(e));
      const post = worker.postMessage.bind(worker);
      port.postMessage = (m) => {
        if (m.type === 'search') worker.ref();
        post(m);
      };
      return port;
    }, wasm);
  }
}
