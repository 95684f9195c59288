#!/usr/bin/env bash
# How far compiling simcore's hot path would take bench_negmas.py's words ratio (issue 21):
# an experiment, not a build option.  The committed tree is copied (git archive), the
# modules of a negotiation with words -- the language layer (mockllm), the scenarios, the
# protocols, the bilateral partners and ASTRA's speak, seeding, transcript, errors -- are
# compiled *unchanged* by Cython 3 into extension modules next to their sources, and
# bench_negmas.py runs with that copy first on the path.  Run it beside the plain tree
# (alternating) to compare.
#
#   PY=/path/to/venv/bin/python bash benchmarks/compiled_upper_bound.sh [REV] [--n 100 --reps 9]
#
# PY: a Python with negmas==0.16.*, cython>=3 and simcore's dependencies (default: python3);
# a C compiler and the Python headers are needed.  Results: results-negmas.md, fifth session.
set -euo pipefail
PY=${PY:-python3}
REV=HEAD
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then REV=$1; shift; fi
here=$(cd "$(dirname "$0")/.." && pwd)
"$PY" -c "import Cython, negmas" 2>/dev/null || { echo "compiled_upper_bound.sh: $PY needs cython and negmas" >&2; exit 2; }
git -C "$here" rev-parse --verify -q "$REV^{commit}" > /dev/null || { echo "compiled_upper_bound.sh: $REV is not a commit of $here" >&2; exit 2; }
tree=$(mktemp -d)
trap 'rm -rf "$tree"' EXIT
git -C "$here" archive "$REV" | tar x -C "$tree"
cd "$tree"
modules=$(ls mockllm/*.py scenarios/*.py simcore/protocols/*.py | grep -v __init__)
"$(dirname "$PY")/cythonize" -3 -i -j 2 $modules policies/partners.py policies/astra.py \
    simcore/seeding.py simcore/transcript.py simcore/errors.py > "$tree/cythonize.log" 2>&1 \
    || { tail -20 "$tree/cythonize.log" >&2; exit 1; }
echo "compiled $(ls ./*/*.so ./*/*/*.so 2>/dev/null | wc -l) modules of $REV ($(git -C "$here" rev-parse --short "$REV"))"
cd /tmp && PYTHONPATH="$tree" "$PY" "$tree/benchmarks/bench_negmas.py" "$@"
