// The player's choices kept between visits (localStorage): language, board theme, piece
// style, coordinates, sound. Each control is set from what was kept and keeps what is chosen;
// a browser that keeps nothing (private mode, storage off) just starts from the defaults.

const KEY = 'xq.prefs';

function load() {
  try {
    return JSON.parse(localStorage.getItem(KEY)) || {};
  } catch {
    return {};
  }
}

const prefs = load();

export const pref = (name, fallback) => prefs[name] ?? fallback;

export function setPref(name, value) {
  prefs[name] = value;
  try {
    localStorage.setItem(KEY, JSON.stringify(prefs));
  } catch {
    // Not kept: the choice holds for this visit.
  }
}

/** The board theme: 'wood', 'paper' or 'contrast' (style.css has their colours). */
export function applyTheme(theme) {
  document.documentElement.dataset.theme = theme;
}

/** The pieces' look: 'engraved' (a light disc, the character in its side's colour) or
 * 'solid' (a disc in its side's colour, the character light), on every board theme. */
export function applyLook(look) {
  document.documentElement.dataset.pieces = look;
}
