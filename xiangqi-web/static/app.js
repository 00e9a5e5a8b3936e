// The page: game state (a start FEN, the line of moves, the ply shown), the computer's
// moves and hints, analysis, the move list, and the wiring of the page's parts (the tables
// and trainer, the record's lines, saving and loading, the score graph: modules of their
// own, each handed the state and the actions it calls back). The server is stateless: every
// call carries the start FEN and the moves.

import * as api from './api.js';
import { Board } from './board.js';
import { setBar } from './graph.js';
import { t, setLang, getLang, reasonText, errorText, pieceText } from './i18n.js';
import { Editor } from './editor.js';
import { Review } from './review.js';
import { pref, setPref, applyTheme, applyLook } from './prefs.js';
import { playSound, setSound } from './sound.js';
import { emptyRecord, NAG_MARKS } from './record.js';
import { tablesPanel, pieces } from './tables.js';
import { recordLines } from './lines.js';
import { gameFiles } from './files.js';
import { scoreGraph } from './scores.js';

const $ = (id) => document.getElementById(id);

const state = {
  startFen: 'startpos',
  line: [],          // ICCS moves of the current line
  views: [],         // the line's moves in the three notations
  cursor: 0,         // plies shown
  mode: 'red',       // red | black (the human's side), both, analysis
  level: 'club',
  movetime: 3000,
  shown: null,       // the /position answer for the shown ply
  end: null,         // the /position answer for the line's end
  resigned: null,    // the side that resigned
  scores: [],        // ply -> red centipawns (engine scores met)
  gen: 0,            // bumped on every change of what is shown, to drop stale answers
  search: null,      // { controller, kind: 'move' | 'analysis', last }
  hint: null,
  lines: [],         // the analysis lines of the shown position, for its arrows
  threat: null,      // the opponent's best reply if it were their move: { move } or null
  levels: [],
  record: emptyRecord(), // the game's tree of lines (record.js), played or loaded
  egtb: null,        // the /egtb answer for the shown ply, or null
  egtbInfo: null,    // /info's egtb part
  trainer: null,     // the endgame trainer's game: { fen, plies, marks: ply -> verdict, last }
};

const board = new Board($('board-host'), (from, to) => userMove(from + to));

// The review writes its verdicts into the game's record and tells the page to show them.
const review = new Review({
  game: () => ({ fen: state.startFen, moves: state.line.slice(), path: recordPath(), record: state.record }),
  moveText: (view) => moveText(view),
  scores(game, ply, before, after) {
    if (commonPrefix(game.moves, state.line) < ply) return;
    if (before != null) state.scores[ply - 1] = before;
    if (after != null) state.scores[ply] = after;
  },
  follow: (id) => followRecord(id),
  changed() {
    if (editor.active) return;
    renderMoves();
    renderRecord();
    renderReview();
    $('graph-box').hidden = false;
    redrawGraph();
  },
});

// The editor borrows the board while its panel is open; a position it makes starts a game.
const editor = new Editor(board, {
  play(fen, mode) {
    $('fen').value = fen;
    state.trainer = null;
    startGame(fen, mode ?? $('mode').value);
  },
});

// The page's parts in modules of their own, handed what they call back.
const { renderEgtb, renderTrainer, judge, tableMove, watchTables, trainerNew, trainerRetry } = tablesPanel({
  state, message, moveText, human, gameOver, play, refresh, startGame,
});
const { recordPath, recordMovesAt, addToRecord, followRecord, commonPrefix, promoteLine, deleteLine, chooseBranch, renderRecord } =
  recordLines({ state, moveText, next, refresh, render });
const { save, copyFen, load, pick } = gameFiles({ state, message, leaveEditor, refresh, review });
const { redrawGraph, renderReview, graph } = scoreGraph({ state, review, recordPath, goTo });

function message(text) {
  const m = $('message');
  m.hidden = !text;
  m.textContent = text || '';
}

const human = (side) => state.mode === 'both' || state.mode === 'analysis' || state.mode === side;

function moveText(view) {
  const n = $('notation').value;
  let text = view[n];
  if (n === 'chinese' && board.style === 'traditional') {
    text = text.replace(/[车马进后将帅]/g, (c) => ({ 车: '車', 马: '馬', 进: '進', 后: '後', 将: '將', 帅: '帥' })[c]);
  }
  return text;
}

function scoreText(score, sideToMove) {
  // Shown from the human's side in a game against the computer, else from red's.
  const viewer = state.mode === 'black' ? 'black' : 'red';
  const sign = sideToMove === viewer ? 1 : -1;
  if (score.mate != null) {
    const m = sign * score.mate;
    return m > 0 ? `${t('mate')} ${m}` : `${t('mated')} ${-m}`;
  }
  const cp = (sign * score.cp) / 100;
  return (cp > 0 ? '+' : '') + cp.toFixed(2);
}

/** Gives the board back to the game (a new game or record ends the editing). */
function leaveEditor() {
  if (!editor.active) return;
  editor.close();
  $('editor-box').open = false;
}

// ---- Showing a position ----------------------------------------------------------------

async function refresh() {
  const gen = ++state.gen;
  stopSearch();
  if (editor.active) return;
  state.hint = null;
  state.threat = null;
  state.lines = [];
  $('hint-box').hidden = true;
  const game = { fen: state.startFen, moves: state.line.slice(0, state.cursor) };
  let shown, end, egtb;
  try {
    [shown, end, egtb] = await Promise.all([
      api.position(game),
      state.cursor === state.line.length ? null : api.position({ fen: state.startFen, moves: state.line }),
      // The table's verdict where one may have it; without one the rest goes on.
      state.egtbInfo?.enabled ? api.egtb(game).catch(() => null) : null,
    ]);
  } catch (e) {
    message(errorText(e));
    return;
  }
  if (gen !== state.gen) return;
  if (state.moved) moveSound(state.shown, shown);
  state.moved = false;
  state.shown = shown;
  state.egtb = egtb;
  state.end = end || shown;
  state.views = state.end.moves;
  render();
  // After a game against the computer, its score graph.
  const ended = state.end.outcome && state.cursor === state.line.length;
  if (ended && (state.mode === 'red' || state.mode === 'black') && $('graph-box').hidden) graph();
  next();
}

/** The sound of the move that led from `before` to `after`. */
function moveSound(before, after) {
  if (after.outcome) playSound('end');
  else if (after.check) playSound('check');
  else if (before && pieces(after.fen) < pieces(before.fen)) playSound('capture');
  else playSound('move');
}

function gameOver() {
  return state.resigned || state.end?.outcome;
}

function render() {
  if (editor.active) return;
  const pos = state.shown;
  const atEnd = state.cursor === state.line.length;
  const over = pos.outcome || (atEnd && gameOver());
  const humanTurn = human(pos.side_to_move);
  board.set({
    fen: pos.fen,
    legal: pos.legal_moves.map((m) => m.iccs),
    movable: !over && humanTurn,
    lastMove: pos.last_move?.iccs || null,
    checked: pos.checked_general || null,
  });
  showArrows();
  renderStatus();
  renderMoves();
  renderRecord();
  renderReview();
  renderEgtb();
  renderTrainer();
  $('fen-out').value = pos.fen;
  $('undo').disabled = state.cursor === 0;
  $('redo').disabled = atEnd;
  $('promote').disabled = $('delete-line').disabled = state.cursor === 0;
  $('resign').disabled = !!over || state.mode === 'analysis' || state.mode === 'both';
  $('multipv-label').hidden = state.mode !== 'analysis';
  if (!$('graph-box').hidden) redrawGraph();
}

function outcomeText(outcome) {
  const who = outcome.winner ? t(outcome.winner === 'red' ? 'redWins' : 'blackWins') : t('draw');
  let why = t(outcome.reason);
  // A chase names the chased piece (the server gives its colour and role), else its point.
  if (outcome.chased_piece) why += ` — ${t('chasing', { piece: pieceText(outcome.chased_piece, outcome.chased) })}`;
  else if (outcome.chased) why += ` — ${t('chasedPiece')}: ${outcome.chased}`;
  // The rule set's name as the server says it, or in the page's language.
  if (outcome.rules) why += ` (${t(outcome.rules.startsWith('Chinese') ? 'rulesChinese' : outcome.rules.startsWith('Asian') ? 'rulesAsian' : '') || outcome.rules})`;
  return `${t('gameOver')}: ${who}, ${why}`;
}

function renderStatus() {
  const s = $('status');
  const pos = state.shown;
  const atEnd = state.cursor === state.line.length;
  s.classList.remove('over');
  if (atEnd && state.resigned) {
    const winner = state.resigned === 'red' ? 'blackWins' : 'redWins';
    s.textContent = `${t('gameOver')}: ${t(winner)} (${t(state.resigned)} ${t('resigned')})`;
    s.classList.add('over');
    s.dataset.outcome = 'resigned';
    return;
  }
  if (pos.outcome) {
    s.textContent = outcomeText(pos.outcome);
    s.classList.add('over');
    s.dataset.outcome = pos.outcome.reason;
    return;
  }
  delete s.dataset.outcome;
  let text = t(pos.side_to_move === 'red' ? 'redToMove' : 'blackToMove');
  if (pos.check) text += ` — ${t('check')}!`;
  if (state.mode === 'red' || state.mode === 'black') {
    text += ` — ${human(pos.side_to_move) ? t('yourMove') : t('computerThinks')}`;
  }
  s.textContent = text;
}

function renderMoves() {
  const list = $('moves');
  list.replaceChildren();
  // A start position with black to move opens with "1. …".
  const blackFirst = (state.end.start_fen.split(' ')[1] || 'w') === 'b';
  const offset = blackFirst ? 1 : 0;
  const items = [];
  const path = recordPath();
  state.views.forEach((view, i) => {
    const k = Math.floor((i + offset) / 2);
    if (!items[k]) {
      items[k] = document.createElement('li');
      list.appendChild(items[k]);
      if (blackFirst && i === 0) items[k].appendChild(document.createElement('span')).textContent = '…';
    }
    const span = document.createElement('span');
    span.textContent = moveText(view);
    span.dataset.ply = i + 1;
    if (i + 1 === state.cursor) span.classList.add('current');
    if (i + 1 > state.cursor) span.classList.add('future');
    if (recordMovesAt(path, i).length > 1) span.classList.add('branch');
    // NAG marks (the review's ?!, ?, ?? among them) beside the move, not in its text.
    const nags = (state.record.nodes[path[i]]?.nags || []).map((n) => NAG_MARKS[n]).filter(Boolean);
    if (nags.length) span.dataset.nag = nags.join('');
    const mark = state.trainer?.marks[i + 1];
    if (mark && mark !== 'best' && mark !== 'ruleKept') span.classList.add(`tb-${mark}`);
    span.addEventListener('click', () => goTo(i + 1));
    items[k].appendChild(span);
  });
  // The current move into the list's view, scrolling the list alone: scrollIntoView would
  // scroll the page too, and on a phone take the board away from under the finger.
  const cur = list.querySelector('.current');
  if (cur) {
    const r = cur.getBoundingClientRect();
    const lr = list.getBoundingClientRect();
    if (r.top < lr.top || r.bottom > lr.bottom) list.scrollTop += r.top - lr.top - lr.height / 2;
  }
}

function goTo(ply) {
  state.cursor = Math.max(0, Math.min(state.line.length, ply));
  refresh();
}

// ---- Moves -----------------------------------------------------------------------------

async function userMove(iccs) {
  const pos = state.shown;
  if (!pos || !pos.legal_moves.some((m) => m.iccs === iccs)) {
    // Ask the server why: its error names the move and the rule it breaks.
    try {
      await api.position({ fen: state.startFen, moves: [...state.line.slice(0, state.cursor), iccs] });
    } catch (e) {
      message(`${t('illegal')}: ${reasonText(e)}`);
      return;
    }
  }
  message('');
  play(iccs);
}

function play(iccs) {
  if (state.trainer) judge(iccs);
  state.moved = true;
  // A move the record has here follows the record, with its continuation (against the
  // computer without it: the computer answers afresh); any other move becomes a new line of
  // the record, saved with it.
  const path = recordPath();
  const known = recordMovesAt(path, state.cursor).find((id) => state.record.nodes[id].iccs === iccs);
  const vsComputer = state.mode === 'red' || state.mode === 'black';
  followRecord(known ?? addToRecord(path, iccs), !vsComputer);
}

/** What to do after a position is shown: the computer's move, or analysis. */
function next() {
  const pos = state.shown;
  const atEnd = state.cursor === state.line.length;
  if (state.mode === 'analysis') {
    if (pos.legal_moves.length) startAnalysis();
    return;
  }
  if (!atEnd || gameOver() || human(pos.side_to_move)) return;
  if (state.trainer && state.egtb?.moves?.length) tableMove();
  else computerMove();
}

function searchRequest() {
  const req = { fen: state.startFen, moves: state.line.slice(0, state.cursor), level: state.level };
  if (state.level === 'full') req.limits = { movetime_ms: state.movetime };
  return req;
}

function stopSearch() {
  if (state.search) state.search.controller.abort();
  state.search = null;
  $('movenow').disabled = true;
}

function showThinking(info, sideToMove, lines) {
  $('thinking').hidden = false;
  $('think-stats').textContent = `${t('depth')} ${info.depth}/${info.seldepth} · ${t('nodes')} ${info.nodes.toLocaleString()} · ${t('nps')} ${info.nps.toLocaleString()}`;
  const host = $('think-lines');
  host.replaceChildren();
  for (const l of lines) {
    if (!l) continue;
    const div = document.createElement('div');
    div.className = 'think-line';
    const sc = document.createElement('span');
    sc.className = 'sc';
    sc.textContent = scoreText(l.score, sideToMove);
    div.append(sc, l.pv.map(moveText).join(' '));
    host.appendChild(div);
  }
}

async function computerMove() {
  const gen = state.gen;
  const controller = new AbortController();
  const pos = state.shown;
  const search = { controller, kind: 'move', last: null };
  state.search = search;
  $('movenow').disabled = false;
  let best = null;
  try {
    await api.analysis({ ...searchRequest(), book: true }, controller.signal, (name, data) => {
      if (name === 'info') {
        search.last = data;
        setBar($('bar'), data.score.red_cp);
        showThinking(data, pos.side_to_move, [data]);
      } else if (name === 'bestmove') {
        best = data;
      }
    });
  } catch (e) {
    if (e.name !== 'AbortError') message(errorText(e));
  }
  if (gen !== state.gen) return;
  if (!best && search.moveNow && search.last?.pv.length) {
    best = { best_move: search.last.pv[0], source: 'search', score: search.last.score };
  }
  state.search = null;
  $('movenow').disabled = true;
  if (!best) return;
  if (best.source === 'book') {
    $('thinking').hidden = false;
    $('think-stats').textContent = `${t('book')}: ${moveText(best.best_move)}`;
    $('think-lines').textContent = best.book.slice(0, 6).map((b) => `${moveText(b.move)} (${b.games})`).join('  ');
  } else if (best.score) {
    state.scores[state.cursor] = best.score.red_cp;
  }
  play(best.best_move.iccs);
}

function moveNow() {
  if (state.search?.kind === 'move') {
    state.search.moveNow = true;
    state.search.controller.abort();
  }
}

async function startAnalysis() {
  const gen = state.gen;
  const controller = new AbortController();
  const pos = state.shown;
  state.search = { controller, kind: 'analysis' };
  const lines = [];
  const multipv = Number($('multipv').value);
  try {
    await api.analysis({ fen: state.startFen, moves: state.line.slice(0, state.cursor), multipv }, controller.signal, (name, data) => {
      if (name !== 'info' || gen !== state.gen) return;
      lines[data.multipv - 1] = data;
      state.lines = lines;
      showArrows();
      if (data.multipv === 1) {
        setBar($('bar'), data.score.red_cp);
        state.scores[state.cursor] = data.score.red_cp;
      }
      showThinking(data, pos.side_to_move, lines);
    });
  } catch (e) {
    if (e.name !== 'AbortError') message(errorText(e));
  }
}

/** The arrows the switch allows: the analysis lines' first moves, the hint, the threat. */
function showArrows() {
  const list = [];
  if ($('arrows').checked) {
    state.lines.forEach((l, rank) => l?.pv.length && list.push({ move: l.pv[0].iccs, kind: 'line', rank }));
    if (state.hint) list.push({ move: state.hint.best_move.iccs, kind: 'hint' });
  }
  // The threat was asked for: shown whatever the switch says.
  if (state.threat) list.push({ move: state.threat.best_move.iccs, kind: 'threat' });
  board.setArrows(list);
}

/** The threat: the opponent's best move if it were their turn, found by searching the shown
 * position with the side to move swapped. With the side to move in check there is none to
 * show (the swapped position would let a general be taken). */
async function threat() {
  const gen = state.gen;
  const box = $('hint-box');
  box.hidden = false;
  const pos = state.shown;
  if (pos.check || pos.outcome) {
    box.textContent = t('noThreat');
    return;
  }
  box.textContent = t('computerThinks');
  const fields = pos.fen.split(' ');
  fields[1] = fields[1] === 'b' ? 'w' : 'b';
  try {
    const answer = await api.engineMove({ fen: fields.join(' '), moves: [], limits: { movetime_ms: 1000 }, book: false });
    if (gen !== state.gen) return;
    state.threat = answer;
    const other = pos.side_to_move === 'red' ? 'black' : 'red';
    box.textContent = `${t('threat')}: ${moveText(answer.best_move)} (${scoreText(answer.score, other)}) — ${answer.pv.map(moveText).join(' ')}`;
    showArrows();
  } catch {
    if (gen === state.gen) box.textContent = t('noThreat');
  }
}

async function hint() {
  const gen = state.gen;
  const box = $('hint-box');
  box.hidden = false;
  box.textContent = t('computerThinks');
  try {
    const req = { fen: state.startFen, moves: state.line.slice(0, state.cursor), limits: { movetime_ms: 1000 }, book: false };
    const answer = await api.engineMove(req);
    if (gen !== state.gen) return;
    state.hint = answer;
    state.scores[state.cursor] = answer.score?.red_cp;
    box.replaceChildren();
    const text = document.createElement('div');
    text.textContent = `${t('hint')}: ${moveText(answer.best_move)} (${scoreText(answer.score, state.shown.side_to_move)}) — ${answer.pv.map(moveText).join(' ')}`;
    const go = document.createElement('button');
    go.id = 'hint-play';
    go.textContent = t('hintPlay');
    go.addEventListener('click', () => play(answer.best_move.iccs));
    box.append(text, go);
    render();
  } catch (e) {
    box.textContent = errorText(e);
  }
}

function undo() {
  // Against the computer, take back its reply too, so that it is the player's move again.
  let n = 1;
  if ((state.mode === 'red' || state.mode === 'black') && state.cursor >= 2 && human(state.shown.side_to_move)) n = 2;
  else if ((state.mode === 'red' || state.mode === 'black') && !human(state.shown.side_to_move) && state.cursor >= 1) n = 1;
  state.resigned = null;
  if (state.trainer) state.trainer.last = null;
  goTo(state.cursor - n);
}

function redo() {
  goTo(state.cursor + 1);
}

// ---- New game ----------------------------------------------------------------------------

async function newGame() {
  const fen = $('fen').value.trim() || 'startpos';
  try {
    await api.position({ fen });
  } catch (e) {
    message(errorText(e));
    return;
  }
  state.trainer = null;
  startGame(fen, $('mode').value);
}

/** Starts a game from `fen` in `mode` (the trainer's too: as red, against the table). */
function startGame(fen, mode) {
  leaveEditor();
  message('');
  // Games started so far, on <html data-games>: a script driving the page (the browser test)
  // waits for it to change before it moves, since "Play" first checks the FEN with a request.
  const root = document.documentElement;
  root.dataset.games = String(Number(root.dataset.games || 0) + 1);
  state.startFen = fen;
  state.record = emptyRecord();
  review.reset();
  state.line = [];
  state.cursor = 0;
  state.scores = [];
  state.resigned = null;
  state.mode = mode;
  $('mode').value = mode;
  state.level = $('level').value;
  state.movetime = Number($('movetime').value);
  $('thinking').hidden = true;
  $('game-pick').hidden = true;
  $('graph-box').hidden = true;
  board.flipped = state.mode === 'black';
  setBar($('bar'), null);
  refresh();
}

// ---- Wiring ----------------------------------------------------------------------------------

async function init() {
  setLang(pref('lang', getLang()));
  $('lang').value = getLang();
  board.style = $('style').value = pref('style', 'traditional');
  board.coords = $('coords').checked = pref('coords', false);
  applyTheme(($('theme').value = pref('theme', 'wood')));
  applyLook(($('look').value = pref('look', 'engraved')));
  $('look').addEventListener('change', (e) => {
    applyLook(e.target.value);
    setPref('look', e.target.value);
  });
  setSound(($('sound').checked = pref('sound', true)));
  $('arrows').checked = pref('arrows', true);
  $('theme').addEventListener('change', (e) => {
    applyTheme(e.target.value);
    setPref('theme', e.target.value);
  });
  $('sound').addEventListener('change', (e) => {
    setSound(e.target.checked);
    setPref('sound', e.target.checked);
  });
  $('lang').addEventListener('change', (e) => {
    setLang(e.target.value);
    setPref('lang', e.target.value);
    fillLevels();
    showLevel();
    if (editor.active) editor.changed(); // its verdict in the new language
    if (state.shown) render();
  });
  $('style').addEventListener('change', (e) => {
    board.style = e.target.value;
    setPref('style', e.target.value);
    if (editor.active) editor.changed();
    render();
  });
  $('coords').addEventListener('change', (e) => {
    board.coords = e.target.checked;
    setPref('coords', e.target.checked);
    board.draw();
  });
  $('notation').addEventListener('change', () => {
    renderMoves();
    renderRecord();
  });
  $('multipv').addEventListener('change', () => state.mode === 'analysis' && refresh());
  $('undo').addEventListener('click', undo);
  $('promote').addEventListener('click', promoteLine);
  $('delete-line').addEventListener('click', deleteLine);
  $('redo').addEventListener('click', redo);
  $('hint').addEventListener('click', hint);
  $('threat').addEventListener('click', threat);
  $('arrows').addEventListener('change', (e) => {
    setPref('arrows', e.target.checked);
    showArrows();
  });
  $('flip').addEventListener('click', () => {
    board.flipped = !board.flipped;
    board.draw();
  });
  $('resign').addEventListener('click', () => {
    state.resigned = state.mode === 'black' ? 'black' : 'red';
    stopSearch();
    playSound('end');
    render();
  });
  $('movenow').addEventListener('click', moveNow);
  $('start').addEventListener('click', newGame);
  $('editor-box').addEventListener('toggle', (e) => {
    if (e.target.open && !editor.active) {
      // Editing starts from the position shown; no search goes on meanwhile.
      stopSearch();
      state.gen++;
      $('thinking').hidden = true;
      $('hint-box').hidden = true;
      $('status').textContent = t('editing');
      delete $('status').dataset.outcome;
      editor.open(state.shown.fen);
    } else if (!e.target.open && editor.active) {
      editor.close();
      refresh();
    }
  });
  $('save').addEventListener('click', save);
  $('copyfen').addEventListener('click', copyFen);
  $('load').addEventListener('change', (e) => e.target.files[0] && load(e.target.files[0]));
  $('game-pick').addEventListener('change', (e) => pick(Number(e.target.value)));
  $('graph-btn').addEventListener('click', graph);
  $('trainer-new').addEventListener('click', trainerNew);
  $('trainer-retry').addEventListener('click', trainerRetry);
  $('egtb-show').addEventListener('change', renderEgtb);
  $('level').addEventListener('change', showLevel);
  document.addEventListener('keydown', (e) => {
    if (e.target.closest('textarea, input, select')) return;
    if (e.key === 'ArrowLeft') goTo(state.cursor - 1);
    if (e.key === 'ArrowRight') goTo(state.cursor + 1);
    if (e.key === 'ArrowUp' || e.key === 'ArrowDown') {
      e.preventDefault();
      chooseBranch(e.key === 'ArrowUp' ? -1 : 1);
    }
  });
  const info = await api.info();
  state.levels = info.levels;
  state.egtbInfo = info.egtb || null;
  watchTables();
  fillLevels();
  $('level').value = state.level;
  showLevel();
  refresh();
}

function fillLevels() {
  const sel = $('level');
  const value = sel.value || state.level;
  sel.replaceChildren();
  for (const l of state.levels) {
    const o = document.createElement('option');
    o.value = l.name;
    o.textContent = getLang() === 'zh' && l.name_zh ? l.name_zh : l.name;
    sel.appendChild(o);
  }
  sel.value = value;
}

function showLevel() {
  const l = state.levels.find((x) => x.name === $('level').value);
  $('level-desc').textContent = (getLang() === 'zh' && l?.description_zh) || l?.description || '';
  $('movetime-label').hidden = $('level').value !== 'full';
}

init();
