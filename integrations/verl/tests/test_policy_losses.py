"""rllm-ts's policy losses and truncated importance weights equal verl 0.9.1's own, on seeded batches.

verl computes with its registered policy losses (``core_algos.get_policy_loss_fn``) and ``rollout_corr_helper`` in
float64 here; the project's tfjs losses (src/training/backends/policy-loss.ts, float32) and importance weights run in a
Node process (test/training/backends/policy-loss-values.ts) on the same cases. The loss and its gradient with respect
to the learner's log-probs must agree, so a stop-gradient in the wrong place fails as surely as a wrong formula.

Clip-Cov draws among its candidate tokens with ``torch.randperm`` when there are more than it clips; the cases give it
a share of 1 (every candidate clipped), so the choice is forced and both sides choose the same tokens.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess

import numpy as np
import pytest
import torch

from verl.trainer.ppo import core_algos
from verl.trainer.ppo.rollout_corr_helper import compute_rollout_correction_weights
from verl.workers.config.actor import ActorConfig, PolicyLossConfig

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
ROWS, WIDTH = 6, 9
CLIP_LOW, CLIP_HIGH = 0.2, 0.28
# verl's vanilla always applies dual-clip; a bound no loss reaches turns it off (the project's ppo without dualClip).
NO_DUAL_CLIP = 1e9


def batch(seed: int) -> dict:
    """Log-probs a step of drift apart (ratios inside and outside the clip range), ± advantages, ragged multi-turn masks."""
    rng = np.random.default_rng(seed)
    old = -rng.uniform(0.05, 4.0, size=(ROWS, WIDTH))
    new = old + rng.normal(0.0, 0.35, size=(ROWS, WIDTH))
    advantages = rng.normal(0.0, 1.0, size=ROWS)
    mask = np.zeros((ROWS, WIDTH))
    for row in range(ROWS):
        length = int(rng.integers(2, WIDTH + 1))
        mask[row, :length] = (rng.uniform(size=length) < 0.75).astype(float)
        mask[row, length - 1] = 1.0  # every row trains at least its last token (geo_mean averages over rows)
    return {"oldLogprobs": old.tolist(), "logprobs": new.tolist(), "advantages": advantages.tolist(), "mask": mask.tolist()}


# (name, the project's loss config, verl's loss_mode, verl's actor options, aggregations)
LOSSES = [
    ("ppo", {"kind": "ppo"}, "vanilla", {"clip_ratio_c": NO_DUAL_CLIP}, ["token-mean", "seq-mean-token-mean", "seq-mean-token-sum", "sum"]),
    ("ppo dual-clip", {"kind": "ppo", "dualClip": 3}, "vanilla", {"clip_ratio_c": 3.0}, ["token-mean", "seq-mean-token-sum-norm"]),
    ("gspo", {"kind": "gspo"}, "gspo", {}, ["seq-mean-token-mean", "token-mean"]),
    ("cispo", {"kind": "cispo"}, "cispo", {}, ["token-mean", "seq-mean-token-mean"]),
    ("clip_cov", {"kind": "clip_cov", "clipCov": {"ratio": 1, "lower": 0.0, "upper": 0.6}}, "clip_cov", {"policy_loss": {"clip_cov_ratio": 1.0, "clip_cov_lb": 0.0, "clip_cov_ub": 0.6}}, ["token-mean", "seq-mean-token-mean"]),
    ("kl_cov", {"kind": "kl_cov", "klCov": {"ratio": 0.3, "coef": 0.5}}, "kl_cov", {"policy_loss": {"kl_cov_ratio": 0.3, "ppo_kl_coef": 0.5}}, ["token-mean", "seq-mean-token-sum"]),
    ("geo_mean", {"kind": "geo_mean"}, "geo_mean", {}, ["seq-mean-token-mean"]),
    ("dro", {"kind": "dro", "beta": 0.3}, "dro", {"policy_loss": {"dro_beta": 0.3}}, ["token-mean", "sum"]),
]
AGGREGATION_TO_VERL = {"sum": "token-sum"}
SEEDS = (1, 2, 3)
TIS_CAP = 1.4


def verl_config(loss_mode: str, options: dict) -> ActorConfig:
    policy_loss = {"loss_mode": loss_mode, **options.get("policy_loss", {})}
    rest = {key: value for key, value in options.items() if key != "policy_loss"}
    return ActorConfig(
        strategy="fsdp",
        rollout_n=1,
        ppo_micro_batch_size_per_gpu=1,
        clip_ratio=CLIP_LOW,
        clip_ratio_low=CLIP_LOW,
        clip_ratio_high=CLIP_HIGH,
        policy_loss=PolicyLossConfig(**policy_loss),
        **rest,
    )


def verl_loss(case: dict, loss_mode: str, options: dict, aggregation: str) -> tuple[float, list]:
    old = torch.tensor(case["oldLogprobs"], dtype=torch.float64)
    new = torch.tensor(case["logprobs"], dtype=torch.float64, requires_grad=True)
    mask = torch.tensor(case["mask"], dtype=torch.float64)
    advantages = torch.tensor(case["advantages"], dtype=torch.float64).unsqueeze(-1).expand(ROWS, WIDTH).clone()
    weights = torch.tensor(case["importanceWeights"], dtype=torch.float64) if "importanceWeights" in case else None
    function = core_algos.get_policy_loss_fn(loss_mode)
    loss, _ = function(
        old_log_prob=old,
        log_prob=new,
        advantages=advantages,
        response_mask=mask,
        loss_agg_mode=AGGREGATION_TO_VERL.get(aggregation, aggregation),
        config=verl_config(loss_mode, options),
        rollout_is_weights=weights,
    )
    loss.backward()
    return float(loss.detach()), new.grad.tolist()


def project_values(request: dict) -> dict:
    node = shutil.which("node")
    assert node, "node is needed to run the project's losses"
    run = subprocess.run(
        [node, "--import", "tsx", "test/training/backends/policy-loss-values.ts"],
        cwd=ROOT,
        input=json.dumps(request),
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def tis_weights(case: dict, level: str) -> torch.Tensor:
    log_ratio = torch.tensor(case["logprobs"], dtype=torch.float64) - torch.tensor(case["oldLogprobs"], dtype=torch.float64)
    weights, _ = compute_rollout_correction_weights(log_ratio, torch.tensor(case["mask"], dtype=torch.float64), rollout_is=level, rollout_is_threshold=TIS_CAP)
    return weights


@pytest.fixture(scope="module")
def compared() -> list[tuple[str, float, list, float, list]]:
    """Every (loss, aggregation, seed) case, with importance weights on the ppo ones: verl's and the project's results."""
    requests, expected = [], []
    for seed in SEEDS:
        case = batch(seed)
        for name, project_loss, loss_mode, options, aggregations in LOSSES:
            for aggregation in aggregations:
                requests.append({**case, "loss": {**project_loss, "clipLow": CLIP_LOW, "clipHigh": CLIP_HIGH}, "aggregation": aggregation})
                expected.append((f"{name} {aggregation} seed {seed}", *verl_loss(case, loss_mode, options, aggregation)))
        # TIS: verl's token weights (trainer = logprobs, sampler = oldLogprobs here) multiply ppo's and geo_mean's losses.
        weighted = {**case, "importanceWeights": tis_weights(case, "token").tolist()}
        for name, project_loss, loss_mode, options, aggregations in (LOSSES[0], LOSSES[6]):
            requests.append({**weighted, "loss": {**project_loss, "clipLow": CLIP_LOW, "clipHigh": CLIP_HIGH}, "aggregation": aggregations[0]})
            expected.append((f"{name} with TIS seed {seed}", *verl_loss(weighted, loss_mode, options, aggregations[0])))
    project = project_values({"losses": requests, "weights": []})["losses"]
    return [(name, loss, gradient, ours["loss"], ours["gradient"]) for (name, loss, gradient), ours in zip(expected, project)]


def test_every_loss_and_aggregation_is_compared(compared):
    names = {name.split(" seed")[0] for name, *_ in compared}
    for name, _, _, _, aggregations in LOSSES:
        for aggregation in aggregations:
            assert f"{name} {aggregation}" in names
    assert len(compared) == len(SEEDS) * (sum(len(entry[4]) for entry in LOSSES) + 2)


def test_losses_equal_verl(compared):
    for name, verl_value, _, project_value, _ in compared:
        # float32 against float64: relative 1e-5 of the loss's size.
        assert abs(project_value - verl_value) <= 1e-5 * max(1.0, abs(verl_value)), f"{name}: verl {verl_value}, rllm-ts {project_value}"


def test_gradients_equal_verl(compared):
    for name, _, verl_gradient, _, project_gradient in compared:
        expected = np.array(verl_gradient)
        actual = np.array(project_gradient)
        scale = max(1.0, float(np.abs(expected).max()))
        assert np.abs(actual - expected).max() <= 1e-5 * scale, f"{name}: largest gradient difference {np.abs(actual - expected).max()}"


def test_gradients_are_not_trivially_zero(compared):
    # A loss that lost its gradient (a stop-gradient in the wrong place) would agree with a zero verl gradient only by accident.
    for name, _, verl_gradient, _, _ in compared:
        assert np.abs(np.array(verl_gradient)).max() > 1e-3, name


@pytest.mark.parametrize("level", ["token", "sequence"])
def test_truncated_importance_weights_equal_verl(level):
    cases = [batch(seed) for seed in SEEDS]
    requests = [{"trainer": case["logprobs"], "sampler": case["oldLogprobs"], "mask": case["mask"], "cap": TIS_CAP, "level": level} for case in cases]
    project = project_values({"losses": [], "weights": requests})["weights"]
    for case, ours in zip(cases, project):
        expected = tis_weights(case, level)
        assert np.abs(np.array(ours["weights"]) - expected.numpy()).max() <= 1e-12
    # Some weights are cut to the cap, or the cases would not test the truncation.
    assert max(ours["clippedShare"] for ours in project) > 0
    assert max(float(tis_weights(case, level).max()) for case in cases) == pytest.approx(TIS_CAP)
