// The endgame tables' panel (the verdict on the shown position and each move's value) and the
// endgame trainer (won positions drawn from the tables, the player's moves judged against
// them). The page hands in its game state and the few actions of its own these call back.

import * as api from './api.js';
import { t, getLang, errorText } from './i18n.js';

const $ = (id) => document.getElementById(id);

/** Pieces on the board of a FEN. */
export const pieces = (fen) => (fen.split(' ')[0].match(/[a-z]/gi) || []).length;

/** "win in 7 plies", "draw", "loss in 6 plies", "win by the perpetual-check rule" in the
 * page's language. A value by the rule (`byRule`) has no distance. */
function valueText(result, plies, byRule = false) {
  if (result === 'draw') return t('tbDraw');
  if (result !== 'win' && result !== 'loss') return '?';
  if (byRule) return t(result === 'win' ? 'winByRule' : 'lossByRule');
  const text = t(result === 'win' ? 'winIn' : 'lossIn', { n: plies });
  return plies === 1 ? text.replace('1 plies', '1 ply') : text;
}

/** The panel and the trainer of the page `page`: { state, message, moveText, human, gameOver,
 * play, refresh, startGame }. */
export function tablesPanel(page) {
  const { state, message, moveText, human, gameOver, play, refresh, startGame } = page;

  /** The table's verdict on the shown position, and each legal move's value (a click plays it). */
  function renderEgtb() {
    const box = $('egtb-box');
    const a = state.egtb;
    // A game over for want of attackers needs no table to say so.
    const deadDraw = state.shown.outcome?.reason === 'no_attacking_material';
    const shown = a && !deadDraw && (a.status === 'ok' || (a.status === 'not_ready' && pieces(a.fen) <= 7));
    box.hidden = !shown;
    if (!shown) return;
    $('egtb-name').textContent = getLang() === 'zh' ? `${a.name}` : `${a.name_en} (${a.name})`;
    const verdict = $('egtb-verdict');
    const host = $('egtb-moves');
    host.replaceChildren();
    if (a.status !== 'ok') {
      verdict.textContent = `${t('egtbNotReady')} ${a.generating ? `(${a.generating.done}/${a.generating.of})` : ''}`;
      verdict.dataset.result = '';
      $('egtb-show-label').hidden = true;
      return;
    }
    verdict.dataset.result = a.result;
    verdict.dataset.plies = a.plies ?? '';
    verdict.dataset.byRule = a.by_rule ? 'true' : '';
    const colon = getLang() === 'zh' ? '：' : ': ';
    verdict.textContent = `${t(a.side_to_move === 'red' ? 'redToMove' : 'blackToMove')}${colon}${valueText(a.result, a.plies, a.by_rule)}`;
    // The trainer shows the moves' values only when asked: they give the answer away.
    $('egtb-show-label').hidden = !state.trainer;
    if (state.trainer && !$('egtb-show').checked) return;
    const movable = !state.shown.outcome && human(state.shown.side_to_move) && !(state.cursor === state.line.length && gameOver());
    for (const m of a.moves) {
      const b = document.createElement('button');
      b.className = `tb-move ${m.result || ''}${m.by_rule ? ' rule' : ''}`;
      b.dataset.iccs = m.move.iccs;
      b.dataset.result = m.result || '';
      b.dataset.plies = m.plies ?? '';
      b.dataset.byRule = m.by_rule ? 'true' : '';
      b.disabled = !movable;
      const val = document.createElement('span');
      val.className = 'val';
      val.textContent = valueText(m.result, m.plies, m.by_rule);
      b.append(moveText(m.move), val);
      b.addEventListener('click', () => play(m.move.iccs));
      host.appendChild(b);
    }
  }

  /** In the trainer, what the player's move `iccs` did to the win: kept it at best speed,
   * kept it slower, kept it only by the perpetual-check rule (`rule`: no mate any more; once
   * there, `ruleKept` for each move that keeps that win), or threw it away (a draw or a loss
   * now). The result decides first; distances are compared only between mates. */
  function judge(iccs) {
    const a = state.egtb;
    if (!a || a.status !== 'ok' || a.result !== 'win' || a.side_to_move !== 'red') return;
    const mv = a.moves.find((m) => m.move.iccs === iccs);
    if (!mv) return;
    let kind = 'best';
    if (mv.result !== 'win') kind = mv.result === 'draw' ? 'draw' : 'loss';
    else if (mv.by_rule) kind = a.by_rule ? 'ruleKept' : 'rule';
    else if (!a.by_rule && mv.plies > a.plies) kind = 'slower';
    for (const p of Object.keys(state.trainer.marks)) if (Number(p) > state.cursor) delete state.trainer.marks[p];
    state.trainer.marks[state.cursor + 1] = kind;
    state.trainer.last = { kind, move: mv, best: a.moves[0], plies: a.plies, byRule: a.by_rule };
  }

  /** The trainer's word on the last move, or on the mate. */
  function renderTrainer() {
    const box = $('trainer-msg');
    const tr = state.trainer;
    $('trainer-retry').disabled = !tr;
    if (!tr) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    const last = tr.last;
    const end = state.end?.outcome;
    if (end && state.cursor === state.line.length && end.winner === 'red') {
      // Mated or stalemated (both lose in xiangqi), or black lost by checking for ever.
      const byRule = end.reason !== 'checkmate' && end.reason !== 'stalemate';
      box.dataset.verdict = byRule ? 'rule' : Object.values(tr.marks).some((k) => k !== 'best') ? 'slower' : 'best';
      box.textContent = t(byRule ? 'trainerRuleWon' : 'trainerMated', { k: state.line.length, n: tr.plies });
    } else if (last) {
      box.dataset.verdict = last.kind;
      const key = last.byRule
        ? { ruleKept: 'trainerRuleKept', draw: 'trainerRuleDraw', loss: 'trainerRuleLoss' }[last.kind] ?? 'trainerRuleKept'
        : { best: 'trainerBest', slower: 'trainerSlower', rule: 'trainerRule', draw: 'trainerDraw', loss: 'trainerLoss' }[last.kind];
      box.textContent = t(key, { m: moveText(last.move.move), b: moveText(last.best.move), n: last.plies, k: last.move.plies });
    } else {
      box.dataset.verdict = 'start';
      box.textContent = t('trainerStart', { n: tr.plies });
    }
  }

  /** The computer's reply in the trainer: the table's best move, the slowest loss. */
  function tableMove() {
    const gen = state.gen;
    const best = state.egtb.moves[0].move.iccs;
    $('thinking').hidden = true;
    setTimeout(() => gen === state.gen && play(best), 400);
  }

  async function fillEndings() {
    const sel = $('trainer-ending');
    const info = state.egtbInfo;
    let list = [];
    if (info?.ready) list = (await api.endings()).endings.filter((e) => e.trainer);
    const value = sel.value;
    sel.replaceChildren();
    for (const e of list) {
      const o = document.createElement('option');
      o.value = e.material;
      o.textContent = `${e.name} — ${e.name_en}`;
      sel.appendChild(o);
    }
    if (!list.length) {
      const o = document.createElement('option');
      o.textContent = t(info?.enabled && !info.ready ? 'egtbNotReady' : 'trainerNone');
      sel.appendChild(o);
    }
    if (list.some((e) => e.material === value)) sel.value = value;
    sel.disabled = $('trainer-new').disabled = !list.length;
    $('trainer-box').hidden = !info?.enabled;
  }

  /** Asks /info about the tables until they are ready (they may be generated at start-up). */
  async function watchTables() {
    const info = await api.info().catch(() => null);
    state.egtbInfo = info?.egtb || null;
    await fillEndings();
    if (state.egtbInfo?.enabled && !state.egtbInfo.ready && !state.egtbInfo.error) {
      setTimeout(async () => {
        await watchTables();
        if (state.egtbInfo?.ready && state.shown) refresh();
      }, 3000);
    }
  }

  async function trainerNew() {
    try {
      const a = await api.trainer({ ending: $('trainer-ending').value });
      state.trainer = { fen: a.fen, plies: a.plies, marks: {}, last: null };
      startGame(a.fen, 'red');
    } catch (e) {
      message(errorText(e));
    }
  }

  function trainerRetry() {
    if (!state.trainer) return;
    state.trainer = { ...state.trainer, marks: {}, last: null };
    startGame(state.trainer.fen, 'red');
  }

  return { renderEgtb, renderTrainer, judge, tableMove, watchTables, trainerNew, trainerRetry };
}
