// The score graph under the board: each position's score, from the engine's searches met in
// play and from short searches run one after another, and the review's marks on its moves.

import * as api from './api.js';
import { drawGraph } from './graph.js';

const $ = (id) => document.getElementById(id);

/** The graph of the page `page`: { state, review, recordPath, goTo }. */
export function scoreGraph(page) {
  const { state, review, recordPath, goTo } = page;

  function redrawGraph() {
    const scores = Array.from({ length: state.line.length + 1 }, (_, i) => state.scores[i] ?? null);
    const path = recordPath();
    const marks = scores.map((_, i) => (i ? review.classOf(path[i - 1]) : null));
    drawGraph($('graph'), scores, state.cursor, goTo, marks);
  }

  /** The review's verdict on the shown move. */
  function renderReview() {
    review.renderDetail(state.cursor ? recordPath()[state.cursor - 1] : null);
    review.renderSummary(); // in the page's language, which may have changed
    $('review-start').disabled = !!review.controller || !state.line.length;
  }

  async function graph() {
    $('graph-box').hidden = false;
    redrawGraph();
    // Fill in each position's score with a short search, one after another.
    const line = state.line.slice();
    const start = state.startFen;
    for (let ply = 0; ply <= line.length; ply++) {
      if (state.line.length !== line.length || state.startFen !== start) return;
      if (state.scores[ply] != null) continue;
      try {
        const a = await api.engineMove({ fen: start, moves: line.slice(0, ply), limits: { nodes: 100000 }, book: false });
        state.scores[ply] = a.score.red_cp;
      } catch {
        // A finished position has no score to add.
      }
      redrawGraph();
    }
  }

  return { redrawGraph, renderReview, graph };
}
