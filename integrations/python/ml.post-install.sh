#!/usr/bin/env bash
# After ml.txt: tinker-cookbook 0.6.1 without its dependencies. Its metadata requires tml-renderers>=0.4.1, which is not
# on PyPI (only <=0.2.1 is), so pip cannot resolve it; every other dependency it has is pinned in ml.txt. Nothing the SL
# and RL loop recipes import needs tml-renderers (it is imported lazily, for the tml renderers and audio recipes only).
# Usage: ml.post-install.sh <the environment's python>
set -euo pipefail
"$1" -m pip install --quiet --disable-pip-version-check --no-input --only-binary=:all: --no-deps tinker-cookbook==0.6.1
