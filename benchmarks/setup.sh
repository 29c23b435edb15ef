#!/usr/bin/env bash
# Create (or refresh) the benchmark virtualenv: the pinned engines, then pdfthin (editable).
#   bash benchmarks/setup.sh              # -> benchmarks/.venv-bench
#   PYTHON=python3.12 VENV=/tmp/bench bash benchmarks/setup.sh
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
python="${PYTHON:-python3}"
venv="${VENV:-$here/.venv-bench}"

if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade pip
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$here/requirements.txt"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps -e "$root"
# The native accelerator, built from this checkout (needs cargo; without it the
# pdfthin-native engine is skipped). Rebuilt every time: a wheel of the same version built
# from older sources would answer for code that has changed.
if command -v cargo >/dev/null; then
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-cache-dir \
        --force-reinstall --no-deps "$root/pdfthin_native"
else
    echo "cargo not found: the pdfthin-native engine will be skipped" >&2
fi
# Record what was installed, so a stale venv is noticed by bench.sh.
sha256sum "$here/requirements.txt" | cut -d' ' -f1 > "$venv/.requirements.sha256"
echo "benchmark environment ready: $venv"
