"""Tests of /app/stats.py. The agent's module never runs in pytest's process: each call imports it in a fresh python3
of its own (agent_code.run_agent_code) and sends back only a JSON number, so an exit at import, a patched pytest or a
value equal to everything cannot pass a test. Random lists drawn here make answers learnt by heart fail."""
import json
import math
import random
import sys

from agent_code import run_agent_code

# Imports the agent's module from /app and prints the function's result as JSON on the last line.
CALL = """
import json, sys
request = json.load(sys.stdin)
sys.path.insert(0, "/app")
import stats
result = getattr(stats, request["function"])(request["values"])
sys.stdout.write("\\n" + json.dumps(result) + "\\n")
"""


def call(function, values):
    run = run_agent_code([sys.executable, "-I", "-c", CALL], stdin=json.dumps({"function": function, "values": values}).encode(), cwd="/app")
    assert run.exit_code == 0 and not run.timed_out, f"stats.{function} failed: {run.stderr[-2000:]}"
    lines = run.stdout.rstrip("\n").split("\n")
    result = json.loads(lines[-1])
    # Only a plain number counts: bool is an int to Python, and anything else would not be a mean.
    assert type(result) in (int, float), f"stats.{function} returned {result!r}, not a number"
    return result


def test_mean_of_values():
    assert call("mean", [1, 2, 3, 6]) == 3


def test_mean_of_empty_list():
    assert call("mean", []) == 0.0


def test_mean_of_random_lists():
    draw = random.SystemRandom()
    for _ in range(4):
        values = [draw.randint(-1000, 1000) for _ in range(draw.randint(1, 12))]
        assert math.isclose(call("mean", values), sum(values) / len(values), rel_tol=1e-9, abs_tol=1e-9), values


def test_spread():
    draw = random.SystemRandom()
    values = [draw.randint(-1000, 1000) for _ in range(draw.randint(2, 12))]
    assert call("spread", [4, 1, 9]) == 8
    assert call("spread", values) == max(values) - min(values), values
