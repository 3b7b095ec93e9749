// How cards look. Every card shows its colour, its pattern (cardfaces.js) AND a letter
// (coloretto.engine.cards.LETTERS) so that colour-blind players can tell them apart; jokers,
// the golden joker, "+2" and the Last Round card have faces of their own. Each card has a
// text label for screen readers.
import { h } from "./api.js";
import { t } from "./i18n.js";
import { faceElement, installSprite } from "./cardfaces.js";

/** Card name (observation JSON) -> one-letter symbol, as coloretto.engine.cards.LETTERS (the
 * English letters; the cards show those of the page's language, letterOf). */
export const LETTERS = {
  blue: "B", brown: "N", gray: "G", green: "E", orange: "O", pink: "P", yellow: "Y",
  joker: "J", golden_joker: "*", plus2: "+2", last_round: "L",
};

/** The colour-blind letter of card `name` in the page's language (catalog `letter.<name>`;
 * unique within each language). */
export function letterOf(name) {
  return Object.hasOwn(LETTERS, name) ? t(`letter.${name}`) : "?";
}

/** Card name -> readable label in the page's language ("green", "golden joker"...). */
export function labelOf(name) {
  if (COLORS.includes(name)) return t(`colour.${name}`);
  if (Object.hasOwn(LETTERS, name)) return t(`cardname.${name}`);
  return String(name);
}

/** The seven colours in docs/rules.md order. */
export const COLORS = ["blue", "brown", "gray", "green", "orange", "pink", "yellow"];

if (typeof document !== "undefined" && document.body) installSprite();

/**
 * A card element for card `name` (e.g. "green", "joker", "plus2", "last_round"): its SVG
 * face with the letter over it. `opts.count` adds a "×n" badge; `opts.small` makes a
 * compact chip, `opts.mini` a tiny one (opponents' summaries), `opts.big` a large card.
 */
export function card(name, opts = {}) {
  installSprite();
  const label = labelOf(name);
  const size = opts.mini ? " card-mini" : opts.small ? " card-sm" : opts.big ? " card-lg" : "";
  return h("span", {
    class: `card c-${name}${size}`, title: label, role: "img",
    "aria-label": opts.count ? t("card.count_label", { count: opts.count, name: label }) : label, "data-card": name,
  },
  faceElement(name),
  h("span", { class: "card-letter", "aria-hidden": "true" }, letterOf(name)),
  opts.count ? h("span", { class: "card-count", "aria-hidden": "true" }, `\u00d7${opts.count}`) : null);
}

/** The back of a card (the draw pile), decorative unless `label` is given. */
export function cardBack(opts = {}) {
  installSprite();
  const size = opts.small ? " card-sm" : opts.big ? " card-lg" : "";
  return h("span", { class: `card card-back${size}`, "aria-hidden": opts.label ? null : "true",
    role: opts.label ? "img" : null, "aria-label": opts.label || null }, faceElement("back"));
}

/**
 * The face-down draw pile: a stack of backs (thinner as it empties) with the number of
 * cards left on it (`left`: the observation's `draw_pile`).
 */
export function drawPile(left) {
  const layers = left <= 0 ? 0 : Math.min(4, 1 + Math.floor(left / 12));
  const stack = [];
  for (let i = 0; i < layers; i++) stack.push(cardBack());
  return h("div", { class: "draw-pile" + (left <= 0 ? " empty" : ""), role: "img", "data-testid": "draw-pile",
    "aria-label": left > 0 ? t("board.pile", { count: left }) : t("board.pile_empty"), style: { "--layers": String(layers) } },
  h("span", { class: "pile-stack", "aria-hidden": "true" }, stack),
  h("span", { class: "pile-count", "aria-hidden": "true" }, String(left)));
}

/** An empty slot of a row (room for one more card). */
export function slot() {
  return h("span", { class: "card card-slot", "aria-hidden": "true" });
}

/** Inline "letter + name" text chip for logs: e.g. [E] green. */
export function cardText(name) {
  return h("span", { class: "card-inline" }, card(name, { small: true }), " ", labelOf(name));
}
