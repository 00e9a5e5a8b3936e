// Saving the game as PGN, copying its FEN, and loading record files (any format the server
// reads; a file of several games offers a choice).

import * as api from './api.js';
import { t, errorText } from './i18n.js';
import { fromGame, treeEntries } from './record.js';

const $ = (id) => document.getElementById(id);

/** Saving and loading for the page `page`: { state, message, leaveEditor, refresh, review }. */
export function gameFiles(page) {
  const { state, message, leaveEditor, refresh, review } = page;

  /** The request that saves the game: a loaded record whole (its tags, comments and every
   * line, the player's own included), else the line played with tags filled in. */
  function saveRequest(date) {
    const r = state.record;
    if (r.tags) return { fen: state.startFen, tree: treeEntries(r), start_comment: r.startComment, tags: r.tags };
    const names = { red: state.mode === 'black' ? `xiangqi-web (${state.level})` : 'Player', black: state.mode === 'red' ? `xiangqi-web (${state.level})` : 'Player' };
    if (state.mode === 'both' || state.mode === 'analysis') names.red = names.black = 'Player';
    const tags = [['Event', 'xiangqi-web game'], ['Site', location.host], ['Date', date], ['Red', names.red], ['Black', names.black], ['Format', 'Chinese']];
    return { fen: state.startFen, tree: treeEntries(r), start_comment: r.startComment, tags };
  }

  async function save() {
    const date = new Date().toISOString().slice(0, 10).replaceAll('-', '.');
    try {
      const text = await api.pgn(saveRequest(date));
      const a = document.createElement('a');
      a.href = URL.createObjectURL(new Blob([text], { type: 'application/x-chess-pgn' }));
      a.download = `xiangqi-${date}.pgn`;
      a.click();
      URL.revokeObjectURL(a.href);
    } catch (e) {
      message(errorText(e));
    }
  }

  async function copyFen() {
    const out = $('fen-out');
    out.select();
    try {
      await navigator.clipboard.writeText(out.value);
    } catch {
      document.execCommand?.('copy');
    }
    message('');
    $('status').dataset.note = t('fenCopied');
  }

  let loadedGames = [];

  function loadGame(g) {
    leaveEditor();
    state.trainer = null;
    state.startFen = g.start_fen;
    state.record = fromGame(g);
    review.reset();
    state.line = g.moves.map((m) => m.iccs);
    state.cursor = state.line.length;
    state.scores = [];
    state.resigned = null;
    state.mode = 'both';
    $('mode').value = 'both';
    $('thinking').hidden = true;
    $('graph-box').hidden = true;
    refresh();
  }

  async function load(file) {
    try {
      const answer = await api.records(await file.arrayBuffer());
      loadedGames = answer.games;
      const pick = $('game-pick');
      pick.replaceChildren();
      answer.games.forEach((g, i) => {
        const tag = (n) => g.tags.find(([k]) => k.toLowerCase() === n)?.[1] || '?';
        const o = document.createElement('option');
        o.value = i;
        o.textContent = `${i + 1}. ${tag('red')} – ${tag('black')} ${g.result} (${g.moves.length})`;
        pick.appendChild(o);
      });
      pick.hidden = answer.games.length < 2;
      message(answer.warnings[0] || '');
      loadGame(answer.games[0]);
    } catch (e) {
      message(errorText(e));
    }
  }

  /** Loads game `i` of the file loaded last. */
  const pick = (i) => loadGame(loadedGames[i]);

  return { save, copyFen, load, pick };
}
