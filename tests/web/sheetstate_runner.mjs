// Runs web/sheetstate.js on the stored sheets read from standard input (a JSON array of the
// strings a browser's localStorage could hold, null for nothing) and prints, for each, the
// sheet loadSheet() makes of it, its standings(), and the limits of its first player's
// cards. Usage: node sheetstate_runner.mjs /path/to/web/sheetstate.js < stored.json
import { pathToFileURL } from "node:url";

const state = await import(pathToFileURL(process.argv[2]).href);
let input = "";
for await (const chunk of process.stdin) input += chunk;
const out = JSON.parse(input).map((stored) => {
  const storage = { value: stored, getItem() { return this.value; }, setItem(_k, v) { this.value = v; } };
  const sheet = state.loadSheet(storage);
  const st = state.standings(sheet);
  const first = sheet.players[0]?.cards[sheet.game];
  const limits = first ? Object.fromEntries(["colour", "joker", "golden_joker", "plus2"].map((k) => [k, state.maxCount(first, k)])) : null;
  // the same limits counting what the other players of the game hold, per colour, and
  // whether setCount takes each colour's limit and refuses one more (on a copy)
  const others = first ? state.otherCards(sheet, sheet.players[0]) : [];
  const tableLimits = first ? {
    colours: state.COLOURS.map((_, i) => state.maxCount(first, "colour", i, others)),
    ...Object.fromEntries(["joker", "golden_joker", "plus2"].map((k) => [k, state.maxCount(first, k, 0, others)])),
  } : null;
  const sets = first ? state.COLOURS.map((_, i) => {
    const copy = structuredClone(first);
    const max = tableLimits.colours[i];
    const over = state.setCount(copy, "colour", i, Math.max(max, first.colours[i]) + 1, others);
    const lower = first.colours[i] > 0 ? state.setCount(structuredClone(first), "colour", i, first.colours[i] - 1, others) : null;
    return [max >= first.colours[i] ? state.setCount(copy, "colour", i, max, others) : null, over, lower];
  }) : null;
  state.saveSheet(sheet, storage);
  return { sheet, standings: { totals: st.totals, ranks: st.ranks, winners: st.winners, started: st.started,
    games: st.games.map((g) => ({ totals: g.totals, ranks: g.ranks, started: g.started })) },
  limits, tableLimits, sets, saved: JSON.parse(storage.value) };
});
process.stdout.write(JSON.stringify(out));
