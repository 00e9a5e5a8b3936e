// Arrows on the board: the analysis lines' first moves (the best one boldest), the hint and
// the threat. Drawn as one layer over the pieces that lets clicks through, so that an arrow
// never gets in the way of a move.

const NS = 'http://www.w3.org/2000/svg';

/**
 * Draws `arrows` ({ move: ICCS, kind: 'best' | 'line' | 'hint' | 'threat', rank }) into `svg`
 * as a `g.arrows` layer, replacing the last one; `xy(square)` gives a point's SVG position.
 */
export function drawArrows(svg, xy, arrows) {
  svg.querySelector('g.arrows')?.remove();
  const g = document.createElementNS(NS, 'g');
  g.setAttribute('class', 'arrows');
  svg.appendChild(g);
  // The weakest first, so that the best lies on top where they cross.
  for (const a of [...arrows].reverse()) {
    const [x0, y0] = xy(a.move.slice(0, 2));
    const [x1, y1] = xy(a.move.slice(2, 4));
    const len = Math.hypot(x1 - x0, y1 - y0);
    if (!len) continue;
    // Shaft and head narrow with the line's rank: the best move stands out.
    const w = a.kind === 'line' ? Math.max(5, 11 - 2 * (a.rank || 0)) : 11;
    const head = w * 2.4;
    const ux = (x1 - x0) / len, uy = (y1 - y0) / len;
    const px = -uy, py = ux;
    // Start off the piece's centre and stop short of the point, inside its piece.
    const sx = x0 + ux * 14, sy = y0 + uy * 14;
    const ex = x1 - ux * 8, ey = y1 - uy * 8;
    const bx = ex - ux * head, by = ey - uy * head;
    const pts = [
      [sx + (px * w) / 2, sy + (py * w) / 2],
      [bx + (px * w) / 2, by + (py * w) / 2],
      [bx + px * head * 0.55, by + py * head * 0.55],
      [ex, ey],
      [bx - px * head * 0.55, by - py * head * 0.55],
      [bx - (px * w) / 2, by - (py * w) / 2],
      [sx - (px * w) / 2, sy - (py * w) / 2],
    ];
    const p = document.createElementNS(NS, 'polygon');
    p.setAttribute('points', pts.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' '));
    p.setAttribute('class', `arrow arrow-${a.kind}${a.kind === 'line' ? ` rank-${a.rank}` : ''}`);
    p.dataset.move = a.move;
    g.appendChild(p);
  }
}
