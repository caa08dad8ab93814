"""A verl ``custom_reward_function`` that grades with rllm-ts's verifiers by running ``rllm grade``.

For plain ``verl.trainer.main_ppo`` on ``rllm export --format verl-parquet`` rows (the offline path). Each call starts
``rllm grade`` once, a Node process that takes seconds to start, so use the batch form with
``reward_model.reward_manager=batch`` and ``custom_reward_function.name=compute_score_batch``; ``compute_score`` (one
row per process) suits only small runs. ``RLLM_BIN`` names the command (default ``rllm``), ``RLLM_GRADE_VERIFIER``
forces a verifier; otherwise it follows the row's data_source: code benchmarks use ``code``, everything else ``math``.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import tempfile
from typing import Any, Optional, Sequence

CODE_SOURCES = ("deepcoder", "code", "livecodebench", "taco", "apps")


def verifier_for(data_source: str) -> str:
    """The ``rllm grade --verifier`` for a data_source (``RLLM_GRADE_VERIFIER`` overrides)."""
    forced = os.environ.get("RLLM_GRADE_VERIFIER")
    if forced:
        return forced
    source = data_source.lower()
    return "code" if any(name in source for name in CODE_SOURCES) else "math"


def grade_row(verifier: str, index: int, solution: str, ground_truth: str) -> dict[str, Any]:
    """The input row ``rllm grade`` expects for ``verifier``: code rows carry their tests, the others a ground truth."""
    if verifier == "code":
        return {"id": str(index), "response": solution, "tests": json.loads(ground_truth)}
    return {"id": str(index), "response": solution, "ground_truth": ground_truth}


def grade_rows(verifier: str, rows: Sequence[dict[str, Any]]) -> list[float]:
    """Each row's score value from one ``rllm grade`` run; an unscored row scores 0 (verl needs a number)."""
    command = shlex.split(os.environ.get("RLLM_BIN", "rllm"))
    with tempfile.TemporaryDirectory(prefix="rllm-grade-") as directory:
        source = os.path.join(directory, "rows.jsonl")
        target = os.path.join(directory, "verdicts.jsonl")
        with open(source, "w", encoding="utf-8") as handle:
            handle.writelines(json.dumps(row) + "\n" for row in rows)
        finished = subprocess.run(
            [*command, "grade", "--verifier", verifier, "--input", source, "--output", target],
            capture_output=True,
            text=True,
        )
        if finished.returncode != 0:
            raise RuntimeError(f"rllm grade exited {finished.returncode}: {finished.stderr.strip()[-500:]}")
        with open(target, encoding="utf-8") as handle:
            verdicts = {verdict["id"]: verdict for verdict in map(json.loads, handle) if verdict}
    return [float(verdicts[row["id"]]["value"]) if verdicts[row["id"]].get("status") == "scored" else 0.0 for row in rows]


def compute_score(data_source: str, solution_str: str, ground_truth: str, extra_info: Optional[dict] = None, **_: Any) -> float:
    """verl's per-row reward signature (verl.utils.reward_score.default_compute_score)."""
    verifier = verifier_for(data_source)
    return grade_rows(verifier, [grade_row(verifier, 0, solution_str, ground_truth)])[0]


def compute_score_batch(
    data_sources: Sequence[str],
    solution_strs: Sequence[str],
    ground_truths: Sequence[str],
    extra_infos: Optional[Sequence[Optional[dict]]] = None,
    **_: Any,
) -> list[float]:
    """verl's batch reward signature: one ``rllm grade`` run per verifier for the whole batch."""
    scores = [0.0] * len(solution_strs)
    by_verifier: dict[str, list[int]] = {}
    for index, source in enumerate(data_sources):
        by_verifier.setdefault(verifier_for(source), []).append(index)
    for verifier, indices in by_verifier.items():
        rows = [grade_row(verifier, index, solution_strs[index], ground_truths[index]) for index in indices]
        for index, value in zip(indices, grade_rows(verifier, rows)):
            scores[index] = value
    return scores
