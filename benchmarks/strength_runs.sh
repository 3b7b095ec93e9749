#!/usr/bin/env bash
# The strength runs of docs/strength.md: every configuration, one `coloretto tournament` each,
# result files (JSON and CSV) under docs/strength/.
#
# Usage: bash benchmarks/strength_runs.sh [RUN ...]
#   RUN: a name below (default: all, in this order). Environment: GAMES (default 400: the
#   floor of every claim), WORKERS (default 2), SEED (default 1), OUT (default docs/strength),
#   COLORETTO (default: the `coloretto` on PATH), CHECKPOINTS (a directory: each run appends
#   its finished games to CHECKPOINTS/RUN.ckpt, and the same command goes on after an
#   interruption; default: no checkpoints), V1 (the reference's spec, default
#   mcts-v1@0.5s-cpu; smaller budgets only for trying the script out).
# Budgets: `expert` and the other levels carry their own iteration budgets (agents/registry.py);
# `mcts-v1@0.5s-cpu` is today's reference search at 0.5 s per decision, counted in CPU time of
# its thread (the same search on a busy machine as on an idle one); `oracle-value@6000` searches as
# many iterations as `expert@6000` with the same search on the true state (the oracle runs
# compare at 6,000 iterations, docs/strength.md; `oracle-mcts-expert`: the Python search
# `oracle` instead; `oracle-v1-4p`: the search of `expert`, at its 30,000 iterations, on the
# true state against the reference). Full runs take hours on a 2-core machine (docs/strength.md).
set -euo pipefail

GAMES="${GAMES:-400}"
WORKERS="${WORKERS:-2}"
SEED="${SEED:-1}"
OUT="${OUT:-docs/strength}"
COLORETTO="${COLORETTO:-coloretto}"
CHECKPOINTS="${CHECKPOINTS:-}"
V1="${V1:-mcts-v1@0.5s-cpu}"

declare -A AGENTS=(
  [expert-v1-4p]="expert,$V1,$V1,$V1"
  [expert-v1-3p]="expert,$V1,$V1"
  [expert-v1-5p]="expert,$V1,$V1,$V1,$V1"
  [expert-v1-violet]="expert,$V1,$V1,$V1"
  [expert-v1-modern]="expert,$V1,$V1,$V1"
  [expert-v1-2p]="expert,$V1"
  [heuristic-greedy-violet]="heuristic,greedy,greedy,greedy"
  [oracle-expert]="oracle-value@6000,expert@6000,expert@6000,expert@6000"
  [oracle-mcts-expert]="oracle@6000,expert@6000,expert@6000,expert@6000"
  [oracle-v1-4p]="oracle-value@30000,$V1,$V1,$V1"
  [medium-easy]="medium,easy,easy,easy"
  [hard-medium]="hard,medium,medium,medium"
  [expert-hard]="expert,hard,hard,hard"
  [expert-hard-2p]="expert,hard"
)
declare -A OPTIONS=(
  [expert-v1-violet]="--table violet"
  [expert-v1-modern]="--preset modern"
  [heuristic-greedy-violet]="--table violet"
)
ORDER=(expert-v1-4p expert-v1-3p expert-v1-5p expert-v1-violet expert-v1-modern expert-v1-2p
       heuristic-greedy-violet oracle-expert oracle-mcts-expert oracle-v1-4p medium-easy hard-medium expert-hard
       expert-hard-2p)

runs=("$@")
if [ ${#runs[@]} -eq 0 ]; then runs=("${ORDER[@]}"); fi
mkdir -p "$OUT"
for run in "${runs[@]}"; do
  if [ -z "${AGENTS[$run]+x}" ]; then
    echo "strength_runs.sh: unknown run '$run'; known: ${ORDER[*]}" >&2
    exit 2
  fi
  echo "== $run: $(date -u +%FT%TZ), load: $(cut -d' ' -f1-3 /proc/loadavg)"
  resume=()
  if [ -n "$CHECKPOINTS" ]; then
    mkdir -p "$CHECKPOINTS"
    resume=(--checkpoint "$CHECKPOINTS/$run.ckpt")
  fi
  # shellcheck disable=SC2086  # OPTIONS holds several words on purpose
  "$COLORETTO" tournament --agents "${AGENTS[$run]}" ${OPTIONS[$run]:-} --games "$GAMES" \
    --seed "$SEED" --workers "$WORKERS" --quiet --overwrite "${resume[@]}" \
    --json "$OUT/$run.json" --csv "$OUT/$run.csv"
  echo "== $run done: $(date -u +%FT%TZ), load: $(cut -d' ' -f1-3 /proc/loadavg)"
done
