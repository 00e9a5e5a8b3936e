// A search worker of the static page (see local.js): loads the module the page compiled,
// then runs one search (an engine move, an analysis or a game review) at a time, posting
// its events as the server streams them.

import initWasm, { serviceReview, serviceSearch } from './wasm/xiangqi_wasm.js';

let ready = null;

self.onmessage = async ({ data }) => {
  if (data.type === 'init') {
    ready = initWasm({ module_or_path: data.module });
    return;
  }
  await ready;
  const onEvent = (name, json) => self.postMessage({ type: 'event', name, data: json });
  const answer = data.path === 'review' ? serviceReview(data.body, onEvent) : serviceSearch(data.path, data.body, onEvent);
  self.postMessage({ type: 'done', answer });
};
