#!/usr/bin/env bash
# Builds (once) or finds the cached virtual environment for integrations/python/<name>.txt and prints its python.
# Usage: scripts/python-env.sh <name>      scripts/python-env.sh --all (every environment npm test needs)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
locks="$root/integrations/python"
cache="${RLLM_PYTHON_ENVS:-$HOME/.cache/rllm-ts/python}"
# The environments that npm test uses; the bench-only ones are built by their bench scripts.
test_envs=(ml parity)

find_python312() {
  local candidate
  for candidate in "${RLLM_PYTHON312:-}" "$(command -v python3.12 || true)" "$(pyenv root 2>/dev/null || echo "$HOME/.pyenv")"/versions/3.12*/bin/python3.12; do
    # pyenv's shims answer to python3.12 without running it, so each candidate must really start as 3.12.
    [ -n "$candidate" ] && [ -x "$candidate" ] && "$candidate" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 12))' 2>/dev/null &&
      { echo "$candidate"; return 0; }
  done
  echo "python-env: no Python 3.12 found (set RLLM_PYTHON312, or install python3.12 / pyenv install 3.12)" >&2
  return 1
}

build_env() {
  local name="$1" lock="$locks/$1.txt"
  [ -f "$lock" ] || { echo "python-env: no lock file $lock (known: $(cd "$locks" && ls ./*.txt | sed 's|^\./||; s|\.txt$||' | tr '\n' ' '))" >&2; return 2; }
  local python; python="$(find_python312)"
  # The post-install script is part of what the environment is, so editing it builds a new one too.
  local post="$locks/$name.post-install.sh"
  local hash; hash="$( { cat "$lock"; [ ! -f "$post" ] || cat "$post"; "$python" -c 'import sys; print(sys.version)'; } | sha256sum | cut -c1-12)"
  local env="$cache/$name-$hash"
  if [ ! -f "$env/.complete" ]; then
    mkdir -p "$cache"
    # One builder at a time per environment: parallel test workers or two CI steps wait instead of racing pip.
    exec 9>"$cache/$name-$hash.lock"
    flock 9
    if [ ! -f "$env/.complete" ]; then
      echo "python-env: building $name in $env (first time only; a few minutes)" >&2
      rm -rf "$env"
      "$python" -m venv "$env"
      "$env/bin/python" -m pip install --quiet --disable-pip-version-check --no-input --upgrade pip==25.3 >&2
      PIP_NO_INPUT=1 "$env/bin/python" -m pip install --quiet --disable-pip-version-check -r "$lock" >&2
      [ ! -x "$post" ] || "$post" "$env/bin/python" >&2
      # The lock it was built from, beside it: rllm finds the sandbox environment of its lock file without hashing
      # (src/sandbox/local/resolve-python.ts).
      cp "$lock" "$env/lock.txt"
      touch "$env/.complete"
    fi
    exec 9>&-
  fi
  echo "$env/bin/python"
}

if [ "${1:-}" = "--all" ]; then
  for name in "${test_envs[@]}"; do build_env "$name" >/dev/null; done
  echo "python-env: ready: ${test_envs[*]}" >&2
elif [ -n "${1:-}" ]; then
  build_env "$1"
else
  echo "usage: scripts/python-env.sh <name> | --all" >&2
  exit 2
fi
