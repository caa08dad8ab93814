"""compute_score and compute_score_batch grade through the real `rllm grade` of this checkout."""

import os
import sys

import pytest

from rllm_verl import reward

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


@pytest.fixture(autouse=True)
def rllm_of_this_checkout(monkeypatch):
    monkeypatch.setenv("RLLM_BIN", f"node {os.path.join(ROOT, 'bin', 'rllm.js')}")
    monkeypatch.delenv("RLLM_GRADE_VERIFIER", raising=False)


def test_batch_scores_the_gold_answer_1_and_a_near_miss_0():
    scores = reward.compute_score_batch(["arith", "arith"], ["so \\boxed{12}", "\\boxed{13}"], ["12", "12"])
    assert scores == [1.0, 0.0]


def test_verifier_follows_the_data_source_unless_forced(monkeypatch):
    assert reward.verifier_for("deepcoder") == "code"
    assert reward.verifier_for("arith") == "math"
    monkeypatch.setenv("RLLM_GRADE_VERIFIER", "finqa")
    assert reward.verifier_for("arith") == "finqa"


def test_a_failing_rllm_grade_is_an_error(monkeypatch):
    # A stand-in that fails the way rllm grade does on bad usage, without starting Node.
    monkeypatch.setenv("RLLM_BIN", f"{sys.executable} -c 'import sys; sys.stderr.write(\"rllm: no verifier\"); sys.exit(2)'")
    with pytest.raises(RuntimeError, match="rllm grade exited 2: rllm: no verifier"):
        reward.compute_score("arith", "\\boxed{1}", "1")
