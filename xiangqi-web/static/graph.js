// The evaluation bar and the score graph over a game, both from red's point of view.

const NS = 'http://www.w3.org/2000/svg';

/** Red's share of the bar (0..1) for a score in centipawns from red's view. */
export function share(redCp) {
  return 1 / (1 + Math.exp(-redCp / 300));
}

/** Sets the evaluation bar: red's share fills from the bottom. */
export function setBar(bar, redCp) {
  const fill = bar.querySelector('.bar-red');
  fill.style.height = redCp == null ? '50%' : `${(100 * share(redCp)).toFixed(1)}%`;
}

/**
 * Draws scores (an array: ply -> red centipawns or null) into `svg`; clicking a point calls
 * onPick(ply). `current` marks the shown ply; `marks` (ply -> a review's class of the move that
 * led there) makes the flagged moves' dots stand out.
 */
export function drawGraph(svg, scores, current, onPick, marks = []) {
  const w = 600, h = 140, pad = 6;
  svg.setAttribute('viewBox', `0 0 ${w} ${h}`);
  svg.replaceChildren();
  const n = Math.max(scores.length - 1, 1);
  const x = (i) => pad + (i * (w - 2 * pad)) / n;
  const y = (cp) => h / 2 - (Math.max(-1000, Math.min(1000, cp)) / 1000) * (h / 2 - pad);
  const mk = (name, attrs) => {
    const e = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    svg.appendChild(e);
    return e;
  };
  mk('rect', { x: 0, y: 0, width: w, height: h, class: 'graph-bg' });
  mk('line', { x1: 0, y1: h / 2, x2: w, y2: h / 2, class: 'graph-axis' });
  const pts = [];
  scores.forEach((cp, i) => {
    if (cp != null) pts.push(`${x(i).toFixed(1)},${y(cp).toFixed(1)}`);
  });
  if (pts.length > 1) {
    mk('polygon', { points: `${x(0)},${h / 2} ${pts.join(' ')} ${x(scores.length - 1)},${h / 2}`, class: 'graph-area' });
    mk('polyline', { points: pts.join(' '), class: 'graph-line' });
  }
  if (current != null) mk('line', { x1: x(current), y1: 0, x2: x(current), y2: h, class: 'graph-cursor' });
  scores.forEach((cp, i) => {
    if (cp == null) return;
    const mark = marks[i];
    const flagged = mark === 'inaccuracy' || mark === 'mistake' || mark === 'blunder';
    const dot = mk('circle', { cx: x(i), cy: y(cp), r: flagged ? 6 : 3.5, class: flagged ? `graph-dot review-${mark}` : 'graph-dot', 'data-ply': i });
    const title = document.createElementNS(NS, 'title');
    title.textContent = `${i}: ${(cp / 100).toFixed(2)}`;
    dot.appendChild(title);
    dot.addEventListener('click', () => onPick(i));
  });
}
