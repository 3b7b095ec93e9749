// Card movements on the table, played with the Web Animations API after the page has
// already been redrawn: the drawn card flies from the draw pile to the spot where it is
// shown, a placed card into its row, a taken row (and any bonus card) into the taker's
// collection. The page never waits for them: buttons, keys and the WebSocket work at once,
// and the flying copies do not take clicks. Under `prefers-reduced-motion: reduce` nothing
// moves at all.
import { card } from "./cards.js";

/** Durations in milliseconds. */
export const DURATION = { draw: 380, place: 320, take: 480, stagger: 60 };

const EASE = "cubic-bezier(.2,.75,.25,1)";

/** True when the person asked the system for reduced motion. */
export function reducedMotion() {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}

function rectOf(el) {
  if (!el) return null;
  const r = el.getBoundingClientRect();
  return r.width && r.height ? { left: r.left, top: r.top, width: r.width, height: r.height } : null;
}

/**
 * Where the cards are before a redraw of `view`: the draw pile, the drawn card and the
 * cards of each row (with a copy of each, to fly after the row has been emptied).
 * Returns null under reduced motion (then `play` does nothing).
 */
export function capture(view) {
  if (!view || reducedMotion()) return null;
  const rows = {};
  for (const li of view.querySelectorAll(".rows > li.row[data-row]")) {
    rows[li.dataset.row] = [...li.querySelectorAll(".row-cards .card:not(.card-slot)")]
      .map((c) => ({ rect: rectOf(c), node: c.cloneNode(true) }));
  }
  return {
    pile: rectOf(view.querySelector(".draw-pile .pile-stack") || view.querySelector(".draw-pile")),
    drawn: rectOf(view.querySelector(".drawn .card")),
    rows,
  };
}

function layer() {
  let el = document.getElementById("flight-layer");
  if (!el) {
    el = document.createElement("div");
    el.id = "flight-layer";
    el.setAttribute("aria-hidden", "true");
    document.body.appendChild(el);
  }
  return el;
}

/** Animate element `el` from `from` (a rect) to where it is now. */
function flipFrom(el, from, duration) {
  const to = rectOf(el);
  if (!to || !from) return;
  const dx = from.left - to.left;
  const dy = from.top - to.top;
  const sx = from.width / to.width;
  const sy = from.height / to.height;
  el.animate([
    { transformOrigin: "top left", transform: `translate(${dx}px, ${dy}px) scale(${sx}, ${sy})`, zIndex: 5 },
    { transformOrigin: "top left", transform: "none", zIndex: 5 },
  ], { duration, easing: EASE });
}

/** Fly a copy `node` from rect `from` into rect `to` (shrinking into it), then drop it. */
function fly(node, from, to, duration, delay = 0) {
  if (!from || !to) return;
  const ghost = node.cloneNode(true);
  ghost.classList.add("flying");
  ghost.removeAttribute("role");
  Object.assign(ghost.style, {
    position: "fixed", left: `${from.left}px`, top: `${from.top}px`,
    width: `${from.width}px`, height: `${from.height}px`, margin: "0",
  });
  layer().appendChild(ghost);
  const scale = Math.min(1, to.height / from.height);
  const dx = to.left + to.width / 2 - (from.left + from.width / 2);
  const dy = to.top + to.height / 2 - (from.top + from.height / 2);
  const anim = ghost.animate([
    { transform: "translate(0, 0) scale(1)", opacity: 1 },
    { transform: `translate(${dx}px, ${dy}px) scale(${scale})`, opacity: 0.35 },
  ], { duration, delay, easing: EASE, fill: "backwards" });
  const drop = () => ghost.remove();
  anim.onfinish = drop;
  anim.oncancel = drop;
  setTimeout(drop, duration + delay + 500); // never leave a copy behind
}

/**
 * Play the movement of log entry `entry` (the newest action) on `view`, redrawn since
 * `before = capture(view)`. Does nothing under reduced motion or without `before`.
 */
export function play(before, view, entry) {
  if (!before || !entry || !entry.action || reducedMotion() || document.hidden) return;
  const a = entry.action;
  const seatEl = view.querySelector(`.player[data-seat="${entry.seat}"]`);
  const collection = rectOf(seatEl && (seatEl.querySelector(".collection") || seatEl));
  if (a.action === "draw") {
    flipFrom(view.querySelector(".drawn .card"), before.pile, DURATION.draw);
  } else if (a.action === "place") {
    const placed = view.querySelectorAll(`.rows > li.row[data-row="${a.row}"] .row-cards .card:not(.card-slot)`);
    flipFrom(placed[placed.length - 1], before.drawn || before.pile, DURATION.place);
  } else if (a.action === "take") {
    (before.rows[String(a.row)] || []).forEach((c, k) => fly(c.node, c.rect, collection, DURATION.take, k * DURATION.stagger));
    const bonus = entry.bonus_cards || (entry.bonus ? [entry.bonus] : []);
    bonus.forEach((b, k) => fly(card(b), before.pile, collection, DURATION.take, (k + 1) * 2 * DURATION.stagger));
  } else if (a.action === "choose_start") {
    fly(card(a.color), before.pile, collection, DURATION.take);
  }
}
