// Runs web/scoring.js on the cases read from standard input (one JSON array of
// {"counts", "jokers", "plus2", "table", "extra"}) and prints one JSON array of results:
// {"rules": scoringRules(table, extra), "score": optimalScore(...), "placements": n}.
// Usage: node scoring_runner.mjs /path/to/web/scoring.js < cases.json
import { pathToFileURL } from "node:url";

const scoring = await import(pathToFileURL(process.argv[2]).href);
let input = "";
for await (const chunk of process.stdin) input += chunk;
const out = JSON.parse(input).map((c) => {
  const rules = scoring.scoringRules(c.table, c.extra);
  return {
    rules,
    score: scoring.optimalScore(c.counts, c.jokers, c.plus2, rules),
    placements: scoring.placements(c.counts.length, c.jokers),
  };
});
process.stdout.write(JSON.stringify(out));
