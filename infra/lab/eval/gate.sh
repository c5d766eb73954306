#!/usr/bin/env bash
# Retrieval quality on the public benchmarks and our own sets
# (infra/lab/eval/testdata), with the CI floors:
#
#   bash infra/lab/eval/gate.sh [EVAL_DIR]     (default: infra/lab/eval/testdata)
#
# A thin wrapper of `mcpsearch-lab gate`: the sets, their files and
# splits, the floors and ceilings and why each stands where it does are
# data, infra/lab/eval/gate.json. Prints each set's figures and exits
# non-zero when a figure falls below its floor or above its ceiling (2 when
# EVAL_DIR holds no benchmark data). `mcpsearch-lab gate --write-figures
# infra/lab/eval/figures.json` keeps the run's figures, from which the
# README tables are rendered (go test ./infra/lab/eval -run TestGateTables
# -update).
set -euo pipefail
cd "$(dirname "$0")/../../.."
bin=$(mktemp -d)/mcpsearch-lab
trap 'rm -rf "$(dirname "$bin")"' EXIT
go build -o "$bin" ./infra/lab/cmd/mcpsearch-lab
"$bin" gate "$@"
