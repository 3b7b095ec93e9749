// Optional table sounds, made with the Web Audio API (no audio files): a card drawn, a card
// placed, a row taken, your turn, the end of the game. Off until the person switches them
// on; the choice is kept in localStorage (key `coloretto.sound`, "on" or "off").

const KEY = "coloretto.sound";

/** The sounds this module plays. */
export const SOUNDS = ["draw", "place", "take", "turn", "end"];

let ctx = null;

/** True when the person switched the sounds on (off by default). */
export function soundOn() {
  try { return localStorage.getItem(KEY) === "on"; } catch { return false; }
}

/** Switch the sounds on or off and remember it. Call it from a click (browsers only let
 * a page start audio after a gesture). */
export function setSound(on) {
  try { localStorage.setItem(KEY, on ? "on" : "off"); } catch { /* private mode: not kept */ }
  if (on) audio();
}

function audio() {
  if (!ctx) {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return null;
    ctx = new Ctx();
  }
  if (ctx.state === "suspended") ctx.resume().catch(() => {});
  return ctx;
}

// A page reloaded with the sounds on may only start its audio after the person's next
// key press or tap.
if (typeof window !== "undefined") {
  const wake = () => { if (soundOn()) audio(); };
  window.addEventListener("pointerdown", wake, { capture: true });
  window.addEventListener("keydown", wake, { capture: true });
}

/** A short tone: `freq` Hz, `start` s from now, `length` s, peak `gain`, oscillator `type`. */
function tone(ac, freq, start, length, gain = 0.18, type = "sine", glideTo = null) {
  const t0 = ac.currentTime + start;
  const osc = ac.createOscillator();
  const amp = ac.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, t0);
  if (glideTo) osc.frequency.exponentialRampToValueAtTime(glideTo, t0 + length);
  amp.gain.setValueAtTime(0.0001, t0);
  amp.gain.exponentialRampToValueAtTime(gain, t0 + 0.01);
  amp.gain.exponentialRampToValueAtTime(0.0001, t0 + length);
  osc.connect(amp).connect(ac.destination);
  osc.start(t0);
  osc.stop(t0 + length + 0.02);
}

/** A brush of filtered noise (a card sliding): `length` s around `freq` Hz. */
function swish(ac, start, length, freq, gain = 0.22) {
  const t0 = ac.currentTime + start;
  const n = Math.floor(ac.sampleRate * length);
  const buf = ac.createBuffer(1, n, ac.sampleRate);
  const data = buf.getChannelData(0);
  for (let i = 0; i < n; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / n);
  const src = ac.createBufferSource();
  src.buffer = buf;
  const band = ac.createBiquadFilter();
  band.type = "bandpass";
  band.frequency.setValueAtTime(freq, t0);
  band.frequency.exponentialRampToValueAtTime(freq * 2.2, t0 + length);
  const amp = ac.createGain();
  amp.gain.setValueAtTime(gain, t0);
  amp.gain.exponentialRampToValueAtTime(0.0001, t0 + length);
  src.connect(band).connect(amp).connect(ac.destination);
  src.start(t0);
}

// Other players' card sounds closer together than this (computer players moving at once)
// are left out; your own actions, "your turn" and the end of the game always sound.
const GAP_MS = 120;
let lastCard = -Infinity;

/**
 * Play sound `kind` (one of SOUNDS) if the sounds are on; otherwise do nothing. `always`:
 * the person's own action, never left out.
 */
export function play(kind, always = false) {
  if (!soundOn() || !SOUNDS.includes(kind)) return;
  if (always) {
    lastCard = performance.now();
  } else if (kind !== "turn" && kind !== "end") {
    const now = performance.now();
    if (now - lastCard < GAP_MS) return;
    lastCard = now;
  }
  const ac = audio();
  if (!ac) return;
  if (kind === "draw") {
    swish(ac, 0, 0.16, 1800);
  } else if (kind === "place") {
    tone(ac, 300, 0, 0.09, 0.25, "triangle", 180);
  } else if (kind === "take") {
    swish(ac, 0, 0.22, 900);
    tone(ac, 220, 0.05, 0.1, 0.2, "triangle", 150);
    tone(ac, 260, 0.14, 0.1, 0.2, "triangle", 170);
  } else if (kind === "turn") {
    tone(ac, 660, 0, 0.16, 0.14);
    tone(ac, 990, 0.12, 0.24, 0.12);
  } else if (kind === "end") {
    [523, 659, 784, 1047].forEach((f, i) => tone(ac, f, i * 0.13, 0.3, 0.13, "triangle"));
  }
}
