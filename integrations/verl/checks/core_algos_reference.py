"""verl's own numbers for rllm-ts's parity test: advantages and loss aggregation from ``verl.trainer.ppo.core_algos``.

Reads JSON cases on stdin, writes verl's results on stdout (test/training/advantages/verl-parity.sdk.test.ts sends
the cases and compares them with the TypeScript estimators). Everything runs in float64 so that the comparison
measures the formulas, not float32 rounding. Input::

    {"advantageCases": [{"rewards": [...], "groups": ["uid", ...], "masks": [[0/1, ...], ...]}],
     "aggregationCases": [{"losses": [[...]], "masks": [[...]]}]}

Each row's reward sits on its last response token, as the bridge puts it (rllm_verl.conversion); the cases end on a
trained token (verl's REINFORCE++ drops a reward that sits on an untrained token). An advantage is
reported per row as its value on its first trained token (verl broadcasts one value over the row's trained tokens;
the script fails if it does not), 0 for a row with no trained token.
"""

from __future__ import annotations

import json
import sys

import numpy as np
import torch
from omegaconf import OmegaConf

from verl.trainer.ppo import core_algos

ESTIMATORS = ("grpo", "dr_grpo", "rloo", "reinforce_plus_plus", "reinforce_plus_plus_baseline")
AGGREGATIONS = ("token-mean", "token-sum", "seq-mean-token-sum", "seq-mean-token-sum-norm", "seq-mean-token-mean")


def advantages(case: dict, estimator: str) -> list[float]:
    mask = torch.tensor(case["masks"], dtype=torch.float64)
    rewards = torch.zeros_like(mask)
    for row, reward in enumerate(case["rewards"]):
        # The last trained token is the response's last real token (the cases end on one); the rest is padding.
        rewards[row, int(mask[row].nonzero().max())] = reward
    index = np.array(case["groups"], dtype=object)
    # AlgoConfig's defaults (verl/trainer/config/algorithm.py): gamma 1 for REINFORCE++'s discounted return.
    config = OmegaConf.create({"gamma": 1.0, "norm_adv_by_std_in_grpo": estimator != "dr_grpo"})
    name = "grpo" if estimator == "dr_grpo" else estimator
    function = core_algos.get_adv_estimator_fn(name)
    if name == "grpo":
        values, _ = function(rewards, mask, index, norm_adv_by_std_in_grpo=estimator != "dr_grpo", config=config)
    else:
        values, _ = function(token_level_rewards=rewards, response_mask=mask, index=index, config=config)
    per_row = []
    for row in range(mask.shape[0]):
        trained = values[row][mask[row] > 0]
        if len(trained) == 0:
            per_row.append(0.0)
            continue
        if not torch.allclose(trained, trained[0].expand_as(trained), rtol=0, atol=1e-12):
            raise SystemExit(f"{estimator}: row {row}: verl gave different advantages on one row's trained tokens")
        per_row.append(float(trained[0]))
    return per_row


def aggregations(case: dict) -> dict[str, float]:
    losses = torch.tensor(case["losses"], dtype=torch.float64)
    mask = torch.tensor(case["masks"], dtype=torch.float64)
    return {mode: float(core_algos.agg_loss(losses, mask, mode)) for mode in AGGREGATIONS}


def main() -> None:
    torch.set_default_dtype(torch.float64)
    cases = json.load(sys.stdin)
    result = {
        "advantages": [{estimator: advantages(case, estimator) for estimator in ESTIMATORS} for case in cases["advantageCases"]],
        "aggregations": [aggregations(case) for case in cases["aggregationCases"]],
    }
    json.dump(result, sys.stdout)


if __name__ == "__main__":
    main()
