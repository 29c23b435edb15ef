#!/usr/bin/env bash
# One command: set up the benchmark venv if needed, then run the benchmark.
#   bash benchmarks/bench.sh --quick          # < 5 minutes on 2 cores
#   bash benchmarks/bench.sh                  # the whole corpus
#   bash benchmarks/bench.sh --engines pdfthin,pypdf --corpus ../shared/corpus
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
venv="${VENV:-$here/.venv-bench}"
want="$(sha256sum "$here/requirements.txt" | cut -d' ' -f1)"
have="$(cat "$venv/.requirements.sha256" 2>/dev/null || true)"
if [ ! -x "$venv/bin/python" ] || [ "$want" != "$have" ]; then
    VENV="$venv" bash "$here/setup.sh"
fi
cd "$(dirname "$here")"
exec "$venv/bin/python" -m benchmarks run "$@"
