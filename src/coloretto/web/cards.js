// How cards look. Every card shows its colour AND a letter (coloretto.engine.cards.LETTERS)
// so that colour-blind players can tell them apart; jokers and "+2" have their own symbols.
import { h } from "./api.js";

/** Card name (observation JSON) -> one-letter symbol, as coloretto.engine.cards.LETTERS. */
export const LETTERS = {
  blue: "B", brown: "N", gray: "G", green: "E", orange: "O", pink: "P", yellow: "Y",
  joker: "J", golden_joker: "*", plus2: "+2", last_round: "L",
};

/** Card name -> readable label. */
export const LABELS = {
  blue: "blue", brown: "brown", gray: "gray", green: "green", orange: "orange", pink: "pink",
  yellow: "yellow", joker: "joker", golden_joker: "golden joker", plus2: "\u201c+2\u201d",
  last_round: "Last Round card",
};

/** The seven colours in docs/rules.md order. */
export const COLORS = ["blue", "brown", "gray", "green", "orange", "pink", "yellow"];

/**
 * A card element for card `name` (e.g. "green", "joker", "plus2").
 * `opts.count` adds a "×n" badge; `opts.small` makes a compact chip.
 */
export function card(name, opts = {}) {
  const label = LABELS[name] || name;
  const cls = `card c-${name}` + (opts.small ? " card-sm" : "") + (opts.big ? " card-lg" : "");
  return h("span", { class: cls, title: label, role: "img", "aria-label": opts.count ? `${opts.count} ${label}` : label },
    h("span", { class: "card-letter", "aria-hidden": "true" }, LETTERS[name] || "?"),
    opts.count ? h("span", { class: "card-count", "aria-hidden": "true" }, `\u00d7${opts.count}`) : null);
}

/** An empty slot of a row (room for one more card). */
export function slot() {
  return h("span", { class: "card card-slot", "aria-hidden": "true" });
}

/** Inline "letter + name" text chip for logs: e.g. [E] green. */
export function cardText(name) {
  return h("span", { class: "card-inline" }, card(name, { small: true }), " ", LABELS[name] || name);
}
