// A search worker of the static page (see local.js): loads the module the page compiled,
// then runs one search at a time, posting its events as the server streams them.

import initWasm, { serviceSearch } from './wasm/xiangqi_wasm.js';

let ready = null;

self.onmessage = async ({ data }) => {
  if (data.type === 'init') {
    ready = initWasm({ module_or_path: data.module });
    return;
  }
  await ready;
  const answer = serviceSearch(data.path, data.body, (name, json) => self.postMessage({ type: 'event', name, data: json }));
  self.postMessage({ type: 'done', answer });
};
