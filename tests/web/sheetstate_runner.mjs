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
  state.saveSheet(sheet, storage);
  return { sheet, standings: { totals: st.totals, ranks: st.ranks, winners: st.winners, started: st.started,
    games: st.games.map((g) => ({ totals: g.totals, ranks: g.ranks, started: g.started })) },
  limits, saved: JSON.parse(storage.value) };
});
process.stdout.write(JSON.stringify(out));
