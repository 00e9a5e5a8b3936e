// The record's lines on the page: following, extending, promoting and deleting the lines of the
// game's tree (record.js holds the tree), and the list of them under the board.

import { pathOf, childrenOf, addMove, lineThrough, promote, remove } from './record.js';

const $ = (id) => document.getElementById(id);

/** The record's lines of the page `page`: { state, moveText, next, refresh, render }. */
export function recordLines(page) {
  const { state, moveText, next, refresh, render } = page;

  /** The record's nodes along the current line (the whole line: every move played is in it). */
  const recordPath = () => pathOf(state.record, state.line);

  /** The record's moves in the position after `ply` moves of the line whose record nodes are
   * `path` (from recordPath). */
  function recordMovesAt(path, ply) {
    if (ply > path.length) return [];
    return childrenOf(state.record, ply ? path[ply - 1] : null);
  }

  /** Adds `iccs`, a legal move of the shown position, to the record there; its new node. In a
   * game played on the page the new move is the main line, the one it replaces a variation. */
  function addToRecord(path, iccs) {
    const parent = state.cursor ? path[state.cursor - 1] : null;
    const view = state.shown.legal_moves.find((m) => m.iccs === iccs) || { iccs, wxf: iccs, chinese: iccs };
    return addMove(state.record, parent, view, state.record.played);
  }

  /** Shows the position after the record's move `id`, with the record's line on from it unless
   * `onwards` is false (against the computer, which then answers afresh). */
  function followRecord(id, onwards = true) {
    const line = lineThrough(state.record, id, onwards);
    // Scores hold for the positions the new line shares with the old.
    state.scores.length = Math.min(state.scores.length, commonPrefix(line, state.line) + 1);
    state.line = line;
    state.cursor = lineThrough(state.record, id, false).length;
    state.resigned = null;
    refresh();
  }

  const commonPrefix = (a, b) => {
    let i = 0;
    while (i < a.length && i < b.length && a[i] === b[i]) i++;
    return i;
  };

  /** Line editing: the shown move's line made the main line, or deleted with all after it. */
  function promoteLine() {
    if (!state.cursor) return;
    promote(state.record, recordPath()[state.cursor - 1]);
    render();
  }

  function deleteLine() {
    if (!state.cursor) return;
    const path = recordPath();
    remove(state.record, path[state.cursor - 1]);
    // Back to the position before it, on whichever line the record now has there.
    if (state.cursor > 1) {
      followRecord(path[state.cursor - 2]);
      return;
    }
    const first = state.record.roots[0];
    state.line = first === undefined ? [] : lineThrough(state.record, first);
    state.cursor = 0;
    state.scores.length = Math.min(state.scores.length, 1);
    refresh();
  }

  /** ↑/↓: the previous or next of the record's moves from the shown position. */
  function chooseBranch(step) {
    const path = recordPath();
    const options = recordMovesAt(path, state.cursor);
    if (options.length < 2) return;
    const at = options.indexOf(path[state.cursor]);
    const id = options[(at + step + options.length) % options.length];
    const line = lineThrough(state.record, id);
    state.scores.length = Math.min(state.scores.length, commonPrefix(line, state.line) + 1);
    state.line = line;
    refresh();
  }

  /** The shown position's comments in the record, and the record's moves from it. */
  function renderRecord() {
    const r = state.record;
    const ply = state.cursor;
    const path = recordPath();
    const notes = [];
    if (ply <= path.length) {
      notes.push(ply === 0 ? r.startComment : r.nodes[path[ply - 1]].comment);
      if (ply < path.length) notes.push(r.nodes[path[ply]].before);
    }
    const text = notes.filter(Boolean).join('\n');
    $('comment').hidden = !text;
    $('comment').textContent = text;
    // Only where the record branches: a single move is already the move list's next move.
    const options = recordMovesAt(path, ply);
    $('variations').hidden = options.length < 2;
    const host = $('variation-list');
    host.replaceChildren();
    if (options.length < 2) return;
    for (const id of options) {
      const b = document.createElement('button');
      b.textContent = moveText(r.nodes[id].view);
      b.dataset.iccs = r.nodes[id].iccs;
      if (path[ply] === id) b.classList.add('on-line');
      b.addEventListener('click', () => followRecord(id));
      host.appendChild(b);
    }
  }

  return { recordPath, recordMovesAt, addToRecord, followRecord, commonPrefix, promoteLine, deleteLine, chooseBranch, renderRecord };
}
