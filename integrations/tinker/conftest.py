"""Fixtures for driving `rllm serve --tinker` with the official tinker SDK: the server runs as a separate process on
127.0.0.1 (a free port it picks itself), exactly as a user starts it."""

import json
import os
import re
import signal
import subprocess
import time
from pathlib import Path

import pytest
import tinker

ROOT = Path(__file__).resolve().parents[2]
RLLM = ROOT / "bin" / "rllm.js"
LOCAL_MODEL = "rllm/tiny"
# Any key of the service's form is accepted by the local server unless TINKER_API_KEY is set in its environment.
API_KEY = "tml-local-sdk-suite"


def tiny_vocabulary() -> list[str]:
    """The tiny model's token strings by id, read from src/models/tiny/tokenizer.ts so that there is one table."""
    script = "const { VOCABULARY } = await import('./src/models/tiny/tokenizer.ts'); console.log(JSON.stringify(VOCABULARY));"
    run = subprocess.run(["node", "--import", "tsx", "--input-type=module", "-e", script], cwd=ROOT, capture_output=True, text=True, check=True)
    return json.loads(run.stdout)


class RllmTinkerServer:
    """One `rllm serve --tinker` process; `url` is its base URL."""

    def __init__(self, *extra_args: str, env: dict[str, str] | None = None) -> None:
        self.process = subprocess.Popen(
            ["node", str(RLLM), "serve", "--tinker", "--host", "127.0.0.1", "--port", "0", *extra_args],
            cwd=ROOT,
            # A key in the server's environment restricts it to that key; only the tests that ask for one set it.
            env={**{name: value for name, value in os.environ.items() if name != "TINKER_API_KEY"}, **(env or {})},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.url = self._read_url()

    def _read_url(self) -> str:
        # The server announces itself on stderr once it listens: "... local Tinker server (...) at http://127.0.0.1:PORT, ..."
        assert self.process.stderr is not None
        lines = []
        for line in self.process.stderr:
            lines.append(line)
            found = re.search(r"at (http://127\.0\.0\.1:\d+)", line)
            if found:
                return found.group(1)
        raise RuntimeError(f"rllm serve --tinker exited with {self.process.wait()} before listening:\n{''.join(lines)}")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def kill(self) -> None:
        """Ends the server at once, as a crash would (no graceful close)."""
        self.process.kill()
        self.process.wait()


@pytest.fixture(scope="session")
def server():
    started = RllmTinkerServer()
    yield started
    started.stop()


@pytest.fixture(scope="session")
def service_client(server):
    return tinker.ServiceClient(base_url=server.url, api_key=API_KEY)


@pytest.fixture(scope="session")
def training_client(service_client):
    return service_client.create_lora_training_client(base_model=LOCAL_MODEL, rank=8).result()


def wait_until(predicate, what: str, attempts: int = 600) -> None:
    """Polls `predicate` every 50 ms; fails naming `what` (a bound on attempts, not a clock the test asserts on)."""
    for _ in range(attempts):
        if predicate():
            return
        time.sleep(0.05)
    raise AssertionError(f"never happened: {what}")
