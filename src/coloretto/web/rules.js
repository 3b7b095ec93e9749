// The rules page (/rules): the game of docs/rules.md explained to players, in the language of
// the page (every text is a rules.* key of the catalogs, i18n.js). The numbers come from
// rulesdata.js and the scoring examples are computed by scoring.js, the optimiser of the score
// sheet; the cards are drawn as inline SVG with the language's colour-blind letters.
// docs/web-client.md, "Rules".
import { h } from "./api.js";
import { formatNumber, initI18n, languageSelect, onLanguageChange, t, translateDom } from "./i18n.js";
import { PLUS2_POINTS, SCORE_TABLES } from "./scoring.js";
import {
  COLOURS, DECK, EDITIONS, EXAMPLE, MORE_EXAMPLES, SETUP, TURN_ROWS, bestScore, workedExample,
} from "./rulesdata.js";

const main = document.getElementById("main");

// ----- cards as SVG ----------------------------------------------------------------------------
const SVG_NS = "http://www.w3.org/2000/svg";
const FILL = {
  blue: "#2a64c9", brown: "#7b4a22", gray: "#646a73", green: "#237a37", orange: "#f08a12", pink: "#f29bc4",
  yellow: "#f3d20a", plus2: "#ffffff", last_round: "#22252b",
};
const DARK_INK = new Set(["orange", "pink", "yellow", "plus2", "golden_joker"]);
let gradients = 0;

function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children) if (c) el.append(c);
  return el;
}

/** The language's letter of a card (colour-blind players read it), or null for cards without one. */
function letter(kind) {
  if (COLOURS.includes(kind)) return t(`letter.${kind}`);
  if (kind === "joker") return t("letter.joker");
  if (kind === "golden_joker") return t("letter.golden_joker");
  if (kind === "plus2") return t("letter.plus2");
  return null;
}

/** The name of a card kind in the language. */
function cardName(kind) {
  if (COLOURS.includes(kind)) return t(`colour.${kind}`);
  if (kind === "joker") return t("rules.cards.joker");
  if (kind === "golden_joker") return t("rules.cards.golden_joker");
  if (kind === "plus2") return t("rules.cards.plus2");
  if (kind === "last_round") return t("rules.cards.last_round");
  return t("rules.cards.row");
}

/**
 * One card face, 40 x 56 units: a colour card, "joker", "golden_joker", "plus2", "last_round",
 * "row-brown" / "row-green" (a row card) or "slot" (an empty place of a row).
 * @param {string} kind
 * @param {boolean} labelled true: an image with the card's name for screen readers; false: decorative
 */
function cardFace(kind, labelled = true) {
  const attrs = { viewBox: "0 0 40 56", class: `rcard rcard-${kind}`, focusable: "false" };
  if (labelled && kind !== "slot") Object.assign(attrs, { role: "img", "aria-label": cardName(kind) });
  else attrs["aria-hidden"] = "true";
  const root = svg("svg", attrs);
  const face = { x: 1.5, y: 1.5, width: 37, height: 53, rx: 5 };
  if (kind === "slot") {
    root.append(svg("rect", { ...face, fill: "none", stroke: "#0004", "stroke-width": 2, "stroke-dasharray": "4 3" }));
    return root;
  }
  let fill = FILL[kind] || FILL.brown;
  if (kind === "joker" || kind === "golden_joker") {
    const id = `rcard-gradient-${++gradients}`;
    const stops = kind === "joker"
      ? ["blue", "green", "yellow", "orange", "pink"].map((c, i) => svg("stop", { offset: `${i * 25}%`, "stop-color": FILL[c] }))
      : [svg("stop", { offset: "0%", "stop-color": "#fff6c0" }), svg("stop", { offset: "60%", "stop-color": "#e0b000" }),
        svg("stop", { offset: "100%", "stop-color": "#a57a00" })];
    root.append(svg("defs", {}, svg("linearGradient", { id, x1: 0, y1: 0, x2: 1, y2: 1 }, ...stops)));
    fill = `url(#${id})`;
  } else if (kind.startsWith("row-")) {
    fill = FILL[kind.slice(4)];
  }
  root.append(svg("rect", { ...face, fill, stroke: kind === "golden_joker" ? "#8a6500" : "#0006", "stroke-width": 2 }));
  if (kind === "joker") root.append(svg("circle", { cx: 20, cy: 28, r: 11, fill: "#fff" }));
  if (kind === "last_round") {
    // an arrow to the end: the round being played is the last one
    root.append(svg("path", { d: "M9 28h18M21 20l8 8-8 8", fill: "none", stroke: "#fff", "stroke-width": 3.5,
      "stroke-linecap": "round", "stroke-linejoin": "round" }));
    root.append(svg("path", { d: "M31 18v20", stroke: "#fff", "stroke-width": 3.5, "stroke-linecap": "round" }));
  } else if (kind.startsWith("row-")) {
    for (const x of [6, 16, 26]) root.append(svg("rect", { x, y: 21, width: 8, height: 14, rx: 1.5, fill: "none", stroke: "#fff", "stroke-width": 1.5 }));
  }
  const text = letter(kind);
  if (text) {
    const ink = kind === "joker" || DARK_INK.has(kind) ? "#1d1d1f" : "#fff";
    root.append(svg("text", {
      x: 20, y: 28, "text-anchor": "middle", "dominant-baseline": "central", fill: ink,
      "font-size": text.length > 1 ? 15 : 20, "font-weight": 800, "font-family": "system-ui, sans-serif",
    }, document.createTextNode(text)));
  }
  return root;
}

/**
 * The cards of a collection, one card per kind with its count, in a list labelled `label`.
 * @param {{colours: Record<string, number>, jokers: number, plus2: number}} cards
 */
function hand(cards, label, small = false) {
  const kinds = [...Object.entries(cards.colours).filter(([, n]) => n > 0), ["joker", cards.jokers], ["plus2", cards.plus2]];
  return h("ul", { class: small ? "rhand rhand-small" : "rhand", "aria-label": label },
    kinds.filter(([, n]) => n > 0).map(([kind, n]) => h("li", {},
      cardFace(kind, false),
      h("span", { class: "rhand-count", "aria-hidden": "true" }, `\u00d7${formatNumber(n)}`),
      h("span", { class: "sr-only" }, t("rules.hand.item", { name: cardName(kind), n })))));
}

/** A colour chip with its name, for tables and lists. */
function colourLabel(colour) {
  return h("span", { class: "rcolour" }, cardFace(colour, false), " ", t(`colour.${colour}`));
}

// ----- small helpers ----------------------------------------------------------------------------
function signed(n) {
  return n > 0 ? `+${formatNumber(n)}` : formatNumber(n);
}

/** "21 + 15 + 6 − 3 + 2": a sum of signed terms, as people write it. */
function sum(terms) {
  return terms.map((v, i) => (i === 0 ? formatNumber(v) : `${v < 0 ? "\u2212" : "+"} ${formatNumber(Math.abs(v))}`)).join(" ");
}

/** The terms of a score: the positive colours, the negative colours, the "+2" points. */
function scoreTerms(score) {
  return [...score.positive.map(([, p]) => p), ...score.negative.map(([, p]) => p), ...(score.plus2 ? [score.plus2] : [])];
}

function section(id, headingKey, ...children) {
  return h("section", { id, class: "rules-section", "aria-labelledby": `${id}-heading` },
    h("h2", { id: `${id}-heading` }, t(headingKey)), ...children);
}

function table(testid, captionKey, head, rows, className = "") {
  return h("div", { class: "table-scroll" },
    h("table", { class: `rules-table ${className}`.trim(), "data-testid": testid },
      h("caption", {}, t(captionKey)),
      head ? h("thead", {}, head) : null,
      h("tbody", {}, rows)));
}

// ----- the sections ------------------------------------------------------------------------------
/** The sections in page order: id and heading key. */
const SECTIONS = [
  ["cards", "rules.cards.heading"],
  ["setup", "rules.setup.heading"],
  ["turn", "rules.turn.heading"],
  ["round", "rules.round.heading"],
  ["end", "rules.end.heading"],
  ["scoring", "rules.score.heading"],
  ["editions", "rules.editions.heading"],
  ["variants", "rules.variants.heading"],
];

function contents() {
  return h("nav", { class: "rules-contents panel", "aria-labelledby": "contents-heading" },
    h("h2", { id: "contents-heading" }, t("rules.contents")),
    h("ol", {}, SECTIONS.map(([id, key]) => h("li", {},
      h("a", { href: `#${id}`, "data-testid": "toc-link" }, t(key))))));
}

function cardsSection() {
  const item = (faces, nameKey, text) => h("div", { class: "rcards-item" },
    h("dt", {}, h("span", { class: "rcards-faces" }, faces), " ", t(nameKey)),
    h("dd", {}, text));
  return section("cards", "rules.cards.heading",
    h("dl", { class: "rcards" },
      item(COLOURS.map((c) => cardFace(c)), "rules.cards.colour_cards",
        t("rules.cards.colour_text", { colours: DECK.colours, each: DECK.perColour })),
      item(cardFace("joker"), "rules.cards.joker", t("rules.cards.joker_text")),
      item(cardFace("golden_joker"), "rules.cards.golden_joker", t("rules.cards.golden_joker_text")),
      item(cardFace("plus2"), "rules.cards.plus2", t("rules.cards.plus2_text", { count: DECK.plus2, points: PLUS2_POINTS })),
      item(cardFace("last_round"), "rules.cards.last_round", t("rules.cards.last_round_text")),
      item([cardFace("row-brown"), cardFace("row-green")], "rules.cards.row",
        t("rules.cards.row_text", { count: DECK.rowCapacity, green: DECK.greenCapacities.map(formatNumber).join(", ") }))));
}

function setupSection() {
  // one column per player count (narrow enough for a phone), one row per fact
  const head = h("tr", {}, h("th", { scope: "row" }, t("rules.setup.players")),
    SETUP.map((s) => h("th", { scope: "col", class: "num" }, formatNumber(s.players))));
  const fact = (key, name, cell) => h("tr", { dataset: { fact: name } }, h("th", { scope: "row" }, t(key)),
    SETUP.map((s) => h("td", { class: "num" }, cell(s))));
  const rows = [
    fact("rules.setup.colours", "colours", (s) => formatNumber(s.colours)),
    fact("rules.setup.rows", "rows", (s) => formatNumber(s.capacities.length)),
    // the same capacity for every row: written once
    fact("rules.setup.capacities", "capacities", (s) => (new Set(s.capacities).size === 1
      ? formatNumber(s.capacities[0]) : s.capacities.map(formatNumber).join(", "))),
    fact("rules.setup.starting", "starting", (s) => formatNumber(s.starting)),
    fact("rules.setup.pile", "pile", (s) => formatNumber(s.pile)),
  ];
  return section("setup", "rules.setup.heading",
    table("setup-table", "rules.setup.caption", head, rows),
    h("p", { class: "muted small" }, t("rules.setup.pile_note")),
    h("ol", { class: "rules-steps" },
      h("li", {}, t("rules.setup.step_remove")),
      h("li", {}, t("rules.setup.step_rows")),
      h("li", {}, t("rules.setup.step_start")),
      h("li", {}, t("rules.setup.step_shuffle")),
      h("li", {}, t("rules.setup.step_last", { count: EDITIONS.classic.under, modern: EDITIONS.modern.under })),
      h("li", {}, t("rules.setup.step_first"))));
}

function turnFigure() {
  const rows = TURN_ROWS.map((cards) => h("li", { class: "rrow" },
    cardFace("row-brown", false),
    cards.map((c) => cardFace(c)),
    Array.from({ length: DECK.rowCapacity - cards.length }, () => cardFace("slot"))));
  return h("figure", { class: "rules-figure" },
    h("ol", { class: "rrows", "aria-label": t("rules.turn.rows_label") }, rows),
    h("figcaption", {}, t("rules.turn.figure")));
}

function turnSection() {
  return section("turn", "rules.turn.heading",
    h("p", {}, t("rules.turn.intro")),
    h("div", { class: "rules-choices" },
      h("div", { class: "rules-choice panel" },
        h("h3", {}, t("rules.turn.draw_title")), h("p", {}, t("rules.turn.draw_text"))),
      h("div", { class: "rules-choice panel" },
        h("h3", {}, t("rules.turn.take_title")), h("p", {}, t("rules.turn.take_text")))),
    turnFigure(),
    h("p", {}, t("rules.turn.must")),
    h("h3", {}, t("rules.turn.last_title")),
    h("p", {}, t("rules.turn.last_text")));
}

function roundSection() {
  return section("round", "rules.round.heading",
    h("p", {}, t("rules.round.text")),
    h("p", {}, t("rules.round.two_players")));
}

function endSection() {
  return section("end", "rules.end.heading",
    h("div", { class: "rules-aside" }, cardFace("last_round"), h("p", {}, t("rules.end.text"))),
    h("p", {}, t("rules.end.score")));
}

function scoreTable(name, captionKey) {
  const values = SCORE_TABLES[name].slice(1);
  const last = values.length;
  return table(`score-table-${name}`, captionKey, h("tr", {},
    h("th", { scope: "row" }, t("rules.score.cards_row")),
    values.map((_, i) => h("th", { scope: "col", class: "num" },
      i + 1 === last ? t("rules.score.or_more", { n: last }) : formatNumber(i + 1)))),
  [h("tr", {}, h("th", { scope: "row" }, t("rules.score.points_row")),
    values.map((v) => h("td", { class: "num" }, formatNumber(v))))], "score-table");
}

function scoringSection() {
  const violet = SCORE_TABLES.violet;
  const violetBest = violet.indexOf(Math.max(...violet));
  return section("scoring", "rules.score.heading",
    h("p", {}, t("rules.score.intro")),
    h("ul", { class: "rules-list" },
      h("li", {}, t("rules.score.jokers")),
      h("li", {}, t("rules.score.three")),
      h("li", {}, t("rules.score.cap", { count: SCORE_TABLES.brown.length - 1 })),
      h("li", {}, t("rules.score.plus2", { count: PLUS2_POINTS })),
      h("li", {}, t("rules.score.best"))),
    h("p", {}, t("rules.score.tables_intro")),
    scoreTable("brown", "rules.score.brown_caption"),
    scoreTable("violet", "rules.score.violet_caption"),
    h("p", {}, t("rules.score.violet_note", { count: violetBest })),
    workedSection(),
    moreSection());
}

function workedSection() {
  const w = workedExample(EXAMPLE, "brown");
  const best = w.best;
  const [target] = best.jokers[0];
  const largest = w.values[0];
  const before = w.values.find((v) => v.colour === target);
  const after = SCORE_TABLES.brown[Math.min(before.cards + 1, SCORE_TABLES.brown.length - 1)];
  const shown = [...w.options.filter((o) => o.held), w.options.find((o) => !o.held)];
  const detail = (colour) => {
    const parts = [t("reason.cards", { count: EXAMPLE.colours[colour] })];
    const added = best.jokers.find(([c]) => c === colour);
    if (added) parts.push(t("reason.with_jokers", { count: added[1] }));
    return parts.join(", ");
  };
  const pointsList = (pairs) => h("ul", { class: "rules-points" }, pairs.map(([colour, points]) => h("li", {},
    colourLabel(colour), " ", h("strong", {}, signed(points)), " ", h("span", { class: "muted" }, `(${detail(colour)})`))));
  return h("section", { id: "example", class: "rules-example", "aria-labelledby": "example-heading" },
    h("h3", { id: "example-heading" }, t("rules.example.heading")),
    h("p", {}, t("rules.example.intro")),
    hand(EXAMPLE, t("rules.example.cards_label")),
    h("ol", { class: "rules-steps" },
      h("li", {}, h("p", {}, t("rules.example.step_values")),
        table("example-values", "rules.example.values_caption",
          h("tr", {}, ["rules.example.colour", "rules.example.cards", "rules.example.points"].map((key) => h("th", { scope: "col" }, t(key)))),
          w.values.map((v) => h("tr", {}, h("th", { scope: "row" }, colourLabel(v.colour)),
            h("td", { class: "num" }, formatNumber(v.cards)), h("td", { class: "num" }, formatNumber(v.points)))))),
      h("li", {}, h("p", {}, t("rules.example.step_joker")),
        table("example-joker", "rules.example.joker_caption",
          h("tr", {}, h("th", { scope: "col" }, t("rules.example.joker_on")), h("th", { scope: "col" }, t("rules.example.total"))),
          shown.map((o) => h("tr", { class: o.colour === target ? "best" : null, dataset: { colour: o.colour, total: String(o.total) } },
            h("th", { scope: "row" }, o.held ? colourLabel(o.colour) : t("rules.example.other_colour")),
            h("td", { class: "num" }, formatNumber(o.total),
              o.colour === target ? h("span", { class: "rules-badge" }, t("rules.example.best")) : null)))),
        h("p", {}, t("rules.example.largest", { colour: t(`colour.${largest.colour}`), total: w.options[0].total }), " ",
          t("rules.example.why", { colour: t(`colour.${target}`), before: before.points, after }))),
      h("li", {}, h("p", {}, t("rules.example.step_positive")), pointsList(best.positive)),
      h("li", {}, h("p", {}, t("rules.example.step_negative")), pointsList(best.negative)),
      h("li", {}, h("p", {}, t("rules.example.step_plus2")),
        h("p", { class: "rules-points" }, cardFace("plus2", false), " ",
          t("reason.plus2", { count: EXAMPLE.plus2, points: signed(best.plus2) })))),
    h("p", {
      class: "rules-total", "data-testid": "example-total", "data-total": String(best.total),
      "data-cards": JSON.stringify({ ...EXAMPLE.colours, joker: EXAMPLE.jokers, plus2: EXAMPLE.plus2 }),
    },
      t("rules.example.result", { sum: sum(scoreTerms(best)), count: best.total })));
}

function moreSection() {
  const rows = MORE_EXAMPLES.map((ex) => {
    const score = bestScore(ex, ex.table);
    const jokers = score.jokers.map(([colour, n]) => t("reason.jokers_to", { count: n, colour: t(`colour.${colour}`) }));
    const cards = JSON.stringify({ ...ex.colours, joker: ex.jokers, plus2: ex.plus2 });
    return h("tr", { dataset: { total: String(score.total), table: ex.table, cards } },
      h("td", {}, hand(ex, t("rules.more.cards"), true),
        h("span", { class: "muted small" }, ex.table === "violet" ? t("rules.table.violet") : t("rules.table.brown"))),
      h("td", {}, h("span", { class: "rules-sum" }, sum(scoreTerms(score))),
        jokers.length ? h("span", { class: "rules-jokers" }, jokers.join(", ")) : null,
        h("span", { class: "muted small rules-note" }, t(ex.note))),
      h("td", { class: "num rules-more-total" }, formatNumber(score.total)));
  });
  return h("section", { id: "more-examples", class: "rules-example", "aria-labelledby": "more-heading" },
    h("h3", { id: "more-heading" }, t("rules.more.heading")),
    table("more-examples", "rules.more.caption",
      h("tr", {}, ["rules.more.cards", "rules.more.how", "rules.more.total"].map((key) => h("th", { scope: "col" }, t(key)))),
      rows));
}

function editionsSection() {
  const row = (key, classic, modern) => h("tr", {}, h("th", { scope: "row" }, t(key)),
    h("td", { class: "num" }, classic), h("td", { class: "num" }, modern));
  const side = (name) => (name === "gray" ? t("rules.editions.gray_side") : t("rules.editions.violet_side"));
  const { classic, modern } = EDITIONS;
  return section("editions", "rules.editions.heading",
    h("p", {}, t("rules.editions.intro")),
    table("editions-table", "rules.editions.caption",
      h("tr", {}, h("td", {}), h("th", { scope: "col" }, t("rules.editions.classic")), h("th", { scope: "col" }, t("rules.editions.modern"))),
      [row("rules.editions.jokers", formatNumber(classic.jokers), formatNumber(modern.jokers)),
        row("rules.editions.golden", formatNumber(classic.golden), formatNumber(modern.golden)),
        row("rules.editions.under", formatNumber(classic.under), formatNumber(modern.under)),
        row("rules.editions.side", side(classic.side), side(modern.side))]),
    h("p", {}, t("rules.editions.same")),
    h("h3", { id: "golden-heading" }, t("rules.editions.golden_heading")),
    h("div", { class: "rules-aside" }, cardFace("golden_joker"), h("p", {}, t("rules.editions.golden_text"))));
}

function variantsSection() {
  return section("variants", "rules.variants.heading",
    h("p", {}, t("rules.variants.intro")),
    h("ul", { class: "rules-list" },
      h("li", {}, t("rules.variants.violet")),
      h("li", {}, t("rules.variants.choose")),
      h("li", {}, t("rules.variants.left")),
      h("li", {}, t("rules.variants.held_only")),
      h("li", {}, t("rules.variants.match")),
      h("li", {}, t("rules.variants.rows")),
      h("li", {}, t("rules.variants.extra"),
        h("ul", {},
          h("li", {}, t("settings.extra.single_three")),
          h("li", {}, t("settings.extra.triple_three")),
          h("li", {}, t("settings.extra.triple_minus")),
          h("li", {}, t("rules.variants.first_out"))))));
}

// ----- the page ----------------------------------------------------------------------------------
function render() {
  document.title = t("rules.page_title");
  translateDom(document);
  main.replaceChildren(
    h("h1", { id: "rules-title" }, t("rules.title")),
    h("p", { class: "rules-intro" }, t("rules.intro")),
    contents(),
    cardsSection(),
    setupSection(),
    turnSection(),
    roundSection(),
    endSection(),
    scoringSection(),
    editionsSection(),
    variantsSection(),
    h("p", { class: "rules-sheet panel" }, t("rules.sheet_text"), " ",
      h("a", { href: "/score", "data-testid": "to-sheet" }, t("rules.sheet_link"))));
}

async function start() {
  await initI18n();
  document.getElementById("language-slot").replaceChildren(languageSelect("language"));
  onLanguageChange(() => render());
  render();
  // the sections exist only now: follow an address such as /rules#scoring
  if (location.hash) document.getElementById(decodeURIComponent(location.hash.slice(1)))?.scrollIntoView();
  main.dataset.ready = "1";
}

start();
