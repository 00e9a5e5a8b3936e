// The engine's worker thread in Node: the module comes compiled from the main thread.

import { parentPort, workerData } from 'node:worker_threads';
import * as wasm from './wasm/xiangqi_wasm.js';
import { serve } from './engine.js';
import { XiangqiError } from './errors.js';

wasm.initSync({ module: workerData.module });
wasm.setErrorClass(XiangqiError);
const handle = serve(wasm, (m) => parentPort.postMessage(m));
parentPort.on('message', handle);
parentPort.postMessage({ type: 'ready' });
