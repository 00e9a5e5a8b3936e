// The engine's Web Worker: loads the module the page compiled, then answers searches.

import initWasm, * as wasm from './wasm/xiangqi_wasm.js';
import { serve } from './engine.js';
import { XiangqiError } from './errors.js';

let handle = null;
const queue = [];

self.onmessage = async (e) => {
  if (e.data.type === 'init') {
    await initWasm({ module_or_path: e.data.module });
    wasm.setErrorClass(XiangqiError);
    handle = serve(wasm, (m) => self.postMessage(m));
    self.postMessage({ type: 'ready' });
    for (const m of queue.splice(0)) handle(m);
  } else if (handle) handle(e.data);
  else queue.push(e.data);
};
