"""docs/tinker.md's SDK snippet, run as written against `rllm serve --tinker` (its base URL swapped for the test
server's), with the SDK's deprecation warnings as errors, so the page cannot drift from the SDK or the server."""

import re
import subprocess
import sys

from conftest import ROOT, RllmTinkerServer

PAGE = ROOT / "docs" / "tinker.md"
DOCUMENTED_URL = "http://127.0.0.1:8090"


def documented_snippet() -> str:
    page = PAGE.read_text()
    section = page[page.index("### Driving it with the official SDK"):]
    block = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    assert block is not None, "docs/tinker.md has no python block under 'Driving it with the official SDK'"
    assert DOCUMENTED_URL in block.group(1)
    return block.group(1)


def test_the_sdk_snippet_of_docs_tinker_md_runs_as_written():
    server = RllmTinkerServer()
    try:
        script = documented_snippet().replace(DOCUMENTED_URL, server.url)
        run = subprocess.run(
            [sys.executable, "-W", "error::FutureWarning", "-W", "error::DeprecationWarning", "-c", script],
            capture_output=True, text=True, timeout=300,
        )
        assert run.returncode == 0, run.stderr
        lines = run.stdout.strip().splitlines()
        assert lines[0] == "['rllm/tiny']"
        losses = [float(line.split("loss ")[1]) for line in lines if line.startswith("step ")]
        assert len(losses) == 3 and losses[-1] < losses[0]
        assert lines[-1].startswith("[[")
    finally:
        server.stop()
