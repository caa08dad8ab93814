"""Fixtures for judging the Fireworks fake with the official fireworks-ai SDK: `rllm serve --tinker` (the training the
gateway delegates to) and fake_fireworks.py, each a separate process on 127.0.0.1 with a port it picks itself."""

import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
API_KEY = "fw-sdk-suite-key"
MODEL = "accounts/fireworks/models/rllm-tiny"


def announced_url(process: subprocess.Popen, pattern: str) -> str:
    """The base URL a server prints on stderr once it listens."""
    assert process.stderr is not None
    lines = []
    for line in process.stderr:
        lines.append(line)
        found = re.search(pattern, line)
        if found:
            return found.group(1)
    raise RuntimeError(f"{process.args[:2]} exited with {process.wait()} before listening:\n{''.join(lines)}")


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()


@pytest.fixture(scope="session")
def fake_url():
    tinker = subprocess.Popen(["node", str(ROOT / "bin" / "rllm.js"), "serve", "--tinker", "--port", "0"], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        tinker_url = announced_url(tinker, r"at (http://127\.0\.0\.1:\d+)")
        fake = subprocess.Popen([sys.executable, str(Path(__file__).parent / "fake_fireworks.py"), "--tinker-url", tinker_url, "--api-key", API_KEY, "--models", MODEL], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            yield announced_url(fake, r"fake fireworks at (http://127\.0\.0\.1:\d+)")
        finally:
            stop(fake)
    finally:
        stop(tinker)
