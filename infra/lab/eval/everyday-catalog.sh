#!/usr/bin/env bash
# everyday-catalog.sh: what the no-match test costs a catalog that serves
# everyday life. The training corpus (infra/lab/data/corpus: 101 servers, among
# them hotels, flights, meal delivery, recipes, maps, fitness and
# reminders) is built beside the default catalog with the first 2 written
# requests of each of its tools held out of the index
# (mcpsearch-lab holdout); those requests are asked as queries (gold:
# their tool; split: their server), once with every rule on and once with
# errand-model off (what MCPSEARCH_RULES_OFF=errand-model serves). Prints
# both evaluations; the figures in functions/search/README.md ("When
# nothing fits") come from it. About a minute on two cores.
set -euo pipefail
cd "$(dirname "$0")/../../.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/mcpsearch-lab" ./infra/lab/cmd/mcpsearch-lab
"$work/mcpsearch-lab" holdout --catalog infra/lab/data/corpus/catalog --out "$work/catalog" --queries "$work/queries.jsonl"
cp functions/search/catalog/*.json "$work/catalog/"
for off in "" errand-model; do
  echo "== rules off: ${off:-none}"
  "$work/mcpsearch-lab" eval --catalog "$work/catalog" --queries "$work/queries.jsonl" ${off:+--off "$off"}
done
