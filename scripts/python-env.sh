#!/usr/bin/env bash
# Builds (once) or finds the cached virtual environment for integrations/python/<name>.txt and prints its python.
# Usage: scripts/python-env.sh <name>      scripts/python-env.sh --all (every environment npm run test:sdk needs)
#        scripts/python-env.sh --python312 (prints the Python 3.12 the environments are built with, or fails saying how to get one)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
locks="$root/integrations/python"
cache="${RLLM_PYTHON_ENVS:-$HOME/.cache/rllm-ts/python}"
# The environments that npm run test:sdk uses; the bench-only ones are built by their bench scripts.
test_envs=(ml parity sandbox)

find_python312() {
  local candidate
  # uv's managed interpreters (uv python install 3.12) are found by uv itself, which knows where it put them.
  for candidate in "${RLLM_PYTHON312:-}" "$(command -v python3.12 || true)" "$(pyenv root 2>/dev/null || echo "$HOME/.pyenv")"/versions/3.12*/bin/python3.12 \
    "$(uv python find 3.12 2>/dev/null || true)"; do
    # pyenv's shims answer to python3.12 without running it, so each candidate must really start as 3.12.
    [ -n "$candidate" ] && [ -x "$candidate" ] && "$candidate" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 12))' 2>/dev/null &&
      { echo "$candidate"; return 0; }
  done
  echo "python-env: no Python 3.12 found. Debian 12 ships 3.11 only: install uv (pipx install uv) and run" \
    "'uv python install 3.12', or 'pyenv install 3.12', or set RLLM_PYTHON312 to a 3.12 interpreter" >&2
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

if [ "${1:-}" = "--python312" ]; then
  find_python312
elif [ "${1:-}" = "--all" ]; then
  for name in "${test_envs[@]}"; do build_env "$name" >/dev/null; done
  echo "python-env: ready: ${test_envs[*]}" >&2
elif [ -n "${1:-}" ]; then
  build_env "$1"
else
  echo "usage: scripts/python-env.sh <name> | --all | --python312" >&2
  exit 2
fi
