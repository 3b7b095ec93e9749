// Prints, as one JSON object, the facts of web/rulesdata.js and every score the rules page
// computes from them (the worked example step by step, the other examples).
// Usage: node rules_runner.mjs /path/to/web/rulesdata.js
import { pathToFileURL } from "node:url";

const data = await import(pathToFileURL(process.argv[2]).href);
process.stdout.write(JSON.stringify({
  colours: data.COLOURS,
  deck: data.DECK,
  setup: data.SETUP,
  editions: data.EDITIONS,
  turnRows: data.TURN_ROWS,
  example: data.EXAMPLE,
  worked: data.workedExample(data.EXAMPLE, "brown"),
  more: data.MORE_EXAMPLES.map((ex) => ({ ...ex, score: data.bestScore(ex, ex.table) })),
}));
