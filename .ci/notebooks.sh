#!/usr/bin/env bash
# Executes notebooks in place in a real Jupyter kernel (the Deno kernel),
# without per-cell timing metadata, so that executing a notebook on the same
# code gives the same file byte for byte. Stops at the first notebook that fails.
# Usage: bash .ci/notebooks.sh [notebooks/NN_name.ipynb ...]   (default: all)
set -euo pipefail
cd "$(dirname "$0")/.."
files=("$@")
if [ ${#files[@]} -eq 0 ]; then files=(notebooks/*.ipynb); fi
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
for nb in "${files[@]}"; do
  start=$(date +%s)
  if ! jupyter nbconvert --to notebook --execute --inplace \
    --ExecutePreprocessor.timeout=600 \
    --ExecutePreprocessor.record_timing=False \
    "$nb" >"$log" 2>&1; then
    grep -v -E "Debugger warning|frozen modules|PYDEVD|^0\.00s" "$log" >&2 || true
    echo "FAILED: $nb" >&2
    exit 1
  fi
  echo "executed $nb in $(( $(date +%s) - start )) s"
done
