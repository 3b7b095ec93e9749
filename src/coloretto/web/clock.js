// The clock of a table with a time control (docs/web-api.md, state.clock): the server
// sends the seconds left when the state was sent; the page counts down from there.
import { h, seatLabel } from "./api.js";
import { t } from "./i18n.js";

/** Whole seconds as "m:ss" (a per-move clock) or "h:mm:ss" (turn-based). */
export function clockFace(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  const hours = Math.floor(s / 3600);
  const mins = Math.floor((s % 3600) / 60);
  const secs = String(s % 60).padStart(2, "0");
  return hours ? `${hours}:${String(mins).padStart(2, "0")}:${secs}` : `${mins}:${secs}`;
}

/** The seconds left on `clock` (state.clock), `elapsedMs` after it was received. */
export function secondsLeft(clock, elapsedMs) {
  return clock ? Math.max(0, clock.left - elapsedMs / 1000) : 0;
}

/**
 * The clock line: whose clock runs, how long is left, and what happens when it runs out.
 * @param {object|null} clock state.clock
 * @param {object[]} seats TABLE.seats
 * @param {number|null} mySeat
 * @param {number} elapsedMs since the state was received
 */
export function clockLine(clock, seats, mySeat, elapsedMs) {
  if (!clock) return null;
  const left = secondsLeft(clock, elapsedMs);
  const who = clock.seat === mySeat ? t("clock.you") : seatLabel(seats[clock.seat]);
  const low = clock.kind === "move" && left <= Math.min(10, clock.seconds / 4);
  return h("div", { class: "clock" + (low ? " clock-low" : ""), "data-testid": "clock", "data-left": String(Math.ceil(left)),
    title: t("clock.then", { agent: t(`clock.agent.${clock.agent}`) }) },
  h("span", { class: "clock-label" }, clock.kind === "day" ? t("clock.turn_based") : t("clock.per_move")), " ",
  h("span", {}, t("clock.whose", { name: who })), " ",
  h("b", { class: "clock-face", role: "timer" }, clockFace(left)));
}

/** What the lobby and the table header say of a table's time control. */
export function timeControlText(tc) {
  if (!tc || tc.kind === "none") return t("clock.none");
  if (tc.kind === "day") return t("clock.day");
  return t("clock.move", { seconds: tc.seconds });
}
