// Card faces drawn as SVG. Each of the seven colours has its own PATTERN as well as its
// colour (waves, bricks, dots, chevrons, stripes, diamonds, rings), so the cards differ in
// greyscale and for colour-blind players; the letter of coloretto.engine.cards.LETTERS is
// written over the face by cards.js. The jokers (rainbow), the golden joker (gold with
// rays), the "+2" card (white with green plus signs), the Last Round card (warning stripes)
// and the back of the draw pile have faces of their own.
//
// faceSVG(name) is one face as a standalone SVG document (the tests render it to a canvas);
// installSprite() puts every face into the page once, as <symbol id="cf-NAME">, for the
// <use> elements that cards.js builds. No text is drawn in the faces: nothing to translate.

/** Size of a face in SVG user units (the cards' 5:7 shape). */
export const FACE_W = 60;
export const FACE_H = 84;

/** The fill of each colour card (the same values as style.css's --blue ... --yellow). */
export const FACE_COLORS = Object.freeze({
  blue: "#2a64c9", brown: "#7b4a22", gray: "#646a73", green: "#237a37",
  orange: "#f08a12", pink: "#f29bc4", yellow: "#f3d20a",
});

/** Ink of the letters and of the badge outline; the badge is white (contrast 16.9:1). */
export const LETTER_INK = "#1d1d1f";
export const BADGE_FILL = "#ffffff";

/** Every face this module draws, by card name; "back" is the draw pile's back. */
export const FACES = Object.freeze([
  "blue", "brown", "gray", "green", "orange", "pink", "yellow",
  "joker", "golden_joker", "plus2", "last_round", "back",
]);

const LIGHT = "#ffffff"; // pattern ink on the dark colours
const DARK = "#000000"; // pattern ink on the light colours

// One tile per colour: [width, height, extra <pattern> attributes, SVG of the tile].
const TILES = {
  blue: [15, 10, "", `<path d="M0 5 Q3.75 0 7.5 5 T15 5" fill="none" stroke="${LIGHT}" stroke-opacity=".6" stroke-width="2"/>`],
  brown: [20, 12, "", `<path d="M0 .7H20M0 6.7H20M5 .7V6.7M15 6.7V12" fill="none" stroke="${LIGHT}" stroke-opacity=".5" stroke-width="1.4"/>`],
  gray: [9, 9, "", `<circle cx="4.5" cy="4.5" r="2.3" fill="${LIGHT}" fill-opacity=".55"/>`],
  green: [12, 9, "", `<path d="M0 7.5L6 2.5L12 7.5" fill="none" stroke="${LIGHT}" stroke-opacity=".6" stroke-width="2"/>`],
  orange: [10, 10, ' patternTransform="rotate(45)"', `<rect width="4.5" height="10" fill="${DARK}" fill-opacity=".3"/>`],
  pink: [12, 12, "", `<path d="M6 1L11 6L6 11L1 6Z" fill="${DARK}" fill-opacity=".25"/>`],
  yellow: [14, 14, "", `<circle cx="7" cy="7" r="4.3" fill="none" stroke="${DARK}" stroke-opacity=".4" stroke-width="1.9"/>`],
};

const OUTLINE = `x="1" y="1" width="${FACE_W - 2}" height="${FACE_H - 2}" rx="6"`;
const BADGE = `<circle cx="30" cy="42" r="15" fill="${BADGE_FILL}" stroke="${LETTER_INK}" stroke-width="1.6"/>`;

function pattern(id, w, h, attrs, body) {
  return `<pattern id="${id}" patternUnits="userSpaceOnUse" width="${w}" height="${h}"${attrs}>${body}</pattern>`;
}

const RAINBOW = Object.values(FACE_COLORS);

/** The <defs> a face needs (patterns and gradients), by face name. */
function defsOf(name) {
  if (TILES[name]) {
    const [w, h, attrs, body] = TILES[name];
    return pattern(`cfp-${name}`, w, h, attrs, body);
  }
  if (name === "joker") {
    const band = FACE_W / RAINBOW.length;
    return pattern("cfp-joker", FACE_W, FACE_H, "",
      RAINBOW.map((c, i) => `<rect x="${(i * band).toFixed(2)}" width="${(band + 0.3).toFixed(2)}" height="${FACE_H}" fill="${c}"/>`).join(""));
  }
  if (name === "golden_joker") {
    const rays = [];
    for (let k = 0; k < 16; k++) {
      const a = (k / 16) * 2 * Math.PI;
      const b = a + Math.PI / 16;
      const p = (t) => `${(30 + 80 * Math.cos(t)).toFixed(1)} ${(42 + 80 * Math.sin(t)).toFixed(1)}`;
      rays.push(`<path d="M30 42L${p(a)}L${p(b)}Z" fill="#fff6c0" fill-opacity=".45"/>`);
    }
    return `<radialGradient id="cfg-gold" cx=".4" cy=".35" r=".8"><stop offset="0" stop-color="#fff3a8"/><stop offset=".55" stop-color="#e2b007"/><stop offset="1" stop-color="#9c7200"/></radialGradient>` +
      pattern("cfp-golden_joker", FACE_W, FACE_H, "", rays.join(""));
  }
  if (name === "plus2") {
    return pattern("cfp-plus2", 14, 14, "", `<path d="M7 3.5V10.5M3.5 7H10.5" stroke="#237a37" stroke-opacity=".35" stroke-width="2"/>`);
  }
  if (name === "last_round") {
    return pattern("cfp-last_round", 12, 12, ' patternTransform="rotate(-45)"', `<rect width="6" height="12" fill="#f3d20a"/>`);
  }
  if (name === "back") {
    return pattern("cfp-back", 10, 10, ' patternTransform="rotate(45)"',
      `<rect x="1" y="1" width="8" height="8" fill="none" stroke="#9db7e8" stroke-opacity=".35" stroke-width="1"/>`);
  }
  return "";
}

/** The drawing of a face (without its <defs>), in a 60 x 84 box. */
function bodyOf(name) {
  if (FACE_COLORS[name]) {
    const light = name === "orange" || name === "pink" || name === "yellow";
    return `<rect ${OUTLINE} fill="${FACE_COLORS[name]}"/>` +
      `<rect ${OUTLINE} fill="url(#cfp-${name})"/>` +
      `<rect x="5" y="5" width="50" height="74" rx="4" fill="none" stroke="${light ? DARK : LIGHT}" stroke-opacity=".45" stroke-width="1.2"/>` +
      `<rect ${OUTLINE} fill="none" stroke="#000" stroke-opacity=".45" stroke-width="2"/>` + BADGE;
  }
  if (name === "joker") {
    return `<rect ${OUTLINE} fill="url(#cfp-joker)"/>` +
      `<rect x="5" y="5" width="50" height="74" rx="4" fill="none" stroke="#fff" stroke-width="2.4"/>` +
      `<rect ${OUTLINE} fill="none" stroke="#000" stroke-opacity=".55" stroke-width="2"/>` + BADGE;
  }
  if (name === "golden_joker") {
    return `<rect ${OUTLINE} fill="url(#cfg-gold)"/>` +
      `<rect ${OUTLINE} fill="url(#cfp-golden_joker)"/>` +
      `<path d="M16 16L22 9L30 15L38 9L44 16Z" fill="#fff6c0" stroke="#7a5800" stroke-width="1.2"/>` +
      `<path d="M16 68L22 75L30 69L38 75L44 68Z" fill="#fff6c0" stroke="#7a5800" stroke-width="1.2"/>` +
      `<rect ${OUTLINE} fill="none" stroke="#7a5800" stroke-width="2.4"/>` + BADGE;
  }
  if (name === "plus2") {
    return `<rect ${OUTLINE} fill="#ffffff"/>` +
      `<rect ${OUTLINE} fill="url(#cfp-plus2)"/>` +
      `<rect x="5" y="5" width="50" height="74" rx="4" fill="none" stroke="#237a37" stroke-width="2.4"/>` +
      `<rect ${OUTLINE} fill="none" stroke="#444" stroke-width="2"/>` +
      `<circle cx="30" cy="42" r="17" fill="#e3f3e6" stroke="#237a37" stroke-width="1.6"/>`;
  }
  if (name === "last_round") {
    return `<rect ${OUTLINE} fill="#1d1d1f"/>` +
      `<rect ${OUTLINE} fill="url(#cfp-last_round)"/>` +
      `<rect x="8" y="18" width="44" height="48" rx="4" fill="#b3261e" stroke="#fff" stroke-width="1.6"/>` +
      `<path d="M21 24H39L30 36L39 58H21L30 36Z" fill="none" stroke="#fff" stroke-opacity=".85" stroke-width="1.6"/>` +
      `<rect ${OUTLINE} fill="none" stroke="#000" stroke-width="2"/>` + BADGE;
  }
  if (name === "back") {
    return `<rect ${OUTLINE} fill="#1f3d7a"/>` +
      `<rect ${OUTLINE} fill="url(#cfp-back)"/>` +
      `<rect x="5" y="5" width="50" height="74" rx="4" fill="none" stroke="#c9d7f2" stroke-opacity=".7" stroke-width="1.4"/>` +
      ["blue", "green", "orange", "pink"].map((c, i) =>
        `<rect x="${17 + i * 7}" y="30" width="5" height="24" rx="1.5" fill="${FACE_COLORS[c]}" stroke="#fff" stroke-width=".8"/>`).join("") +
      `<rect ${OUTLINE} fill="none" stroke="#000" stroke-opacity=".6" stroke-width="2"/>`;
  }
  return `<rect ${OUTLINE} fill="#ccc" stroke="#000" stroke-width="2"/>`;
}

/** Face `name` (one of FACES) as a standalone SVG document of FACE_W x FACE_H units. */
export function faceSVG(name, width = FACE_W, height = FACE_H) {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${FACE_W} ${FACE_H}">` +
    `<defs>${defsOf(name)}</defs>${bodyOf(name)}</svg>`;
}

const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * Put every face into the page once (a hidden <svg id="card-faces"> at the start of
 * <body>, with a <symbol id="cf-NAME"> per face); later calls do nothing. The sprite is
 * kept out of view but not display:none (patterns in an undisplayed SVG do not paint).
 */
export function installSprite(doc = document) {
  if (doc.getElementById("card-faces")) return;
  const svg = doc.createElementNS(SVG_NS, "svg");
  svg.setAttribute("id", "card-faces");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  svg.style.cssText = "position:absolute;width:0;height:0;overflow:hidden";
  svg.innerHTML = `<defs>${FACES.map(defsOf).join("")}</defs>` +
    FACES.map((f) => `<symbol id="cf-${f}" viewBox="0 0 ${FACE_W} ${FACE_H}">${bodyOf(f)}</symbol>`).join("");
  doc.body.prepend(svg);
}

/** An inline <svg> showing face `name` from the sprite (installSprite() first). */
export function faceElement(name) {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("class", "face");
  svg.setAttribute("viewBox", `0 0 ${FACE_W} ${FACE_H}`);
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const use = document.createElementNS(SVG_NS, "use");
  use.setAttribute("href", `#cf-${FACES.includes(name) ? name : "back"}`);
  svg.appendChild(use);
  return svg;
}
