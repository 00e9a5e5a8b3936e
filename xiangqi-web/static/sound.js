// The board's sounds, made in the page with WebAudio (no sound files to fetch): a wooden knock
// for a move, a harder double knock for a capture, a bright double tone for check, a rising
// chord for the game's end. Off by a switch (prefs.js remembers it).

let ctx = null;
let enabled = true;

export const setSound = (on) => {
  enabled = on;
};

/** A knock: a burst of noise through a band-pass filter, dying away in `decay` seconds. */
function knock(at, freq, gain, decay) {
  const len = Math.ceil(ctx.sampleRate * decay);
  const buf = ctx.createBuffer(1, len, ctx.sampleRate);
  const data = buf.getChannelData(0);
  for (let i = 0; i < len; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / len) ** 3;
  const src = ctx.createBufferSource();
  src.buffer = buf;
  const filter = ctx.createBiquadFilter();
  filter.type = 'bandpass';
  filter.frequency.value = freq;
  filter.Q.value = 4;
  const g = ctx.createGain();
  g.gain.value = gain;
  src.connect(filter).connect(g).connect(ctx.destination);
  src.start(at);
}

function tone(at, freq, length, gain = 0.15, type = 'triangle') {
  const osc = ctx.createOscillator();
  osc.type = type;
  osc.frequency.value = freq;
  const g = ctx.createGain();
  g.gain.setValueAtTime(gain, at);
  g.gain.exponentialRampToValueAtTime(0.001, at + length);
  osc.connect(g).connect(ctx.destination);
  osc.start(at);
  osc.stop(at + length);
}

/** Plays `kind`: 'move', 'capture', 'check' or 'end'. The page's root carries the last one
 * played (data-sound), which the browser test reads. */
export function playSound(kind) {
  if (!enabled) return;
  document.documentElement.dataset.sound = kind;
  try {
    ctx ??= new AudioContext();
    // Browsers start an AudioContext suspended until the page is touched; a move is a touch.
    if (ctx.state === 'suspended') ctx.resume();
    const now = ctx.currentTime + 0.01;
    if (kind === 'move') knock(now, 1400, 2.5, 0.09);
    else if (kind === 'capture') {
      knock(now, 900, 3.5, 0.08);
      knock(now + 0.07, 1300, 3, 0.1);
    } else if (kind === 'check') {
      knock(now, 1400, 2.5, 0.09);
      tone(now + 0.05, 880, 0.18);
      tone(now + 0.2, 1175, 0.25);
    } else if (kind === 'end') {
      [523.25, 659.25, 783.99, 1046.5].forEach((f, i) => tone(now + i * 0.12, f, 0.6, 0.12));
    }
  } catch {
    // No audio on this device: the game goes on silent.
  }
}
