"""Tinker's losses on per-token learner logprobs, summed over tokens as the service sums them.

p is the learner's logprob of each target token, q the sampler's (the datum's `logprobs`), A the advantage, w the
weight, r = exp(p - q). Formulas from the Tinker docs (tinker-docs.thinkingmachines.ai/tinker/losses):
- cross_entropy: -sum w * p
- importance_sampling: -sum r * A
- ppo: -sum min(r * A, clip(r, low, high) * A), low and high the clip thresholds (default 0.8 and 1.2)
- cispo: -sum sg(clip(r, low, high)) * p * A
"""

import torch

LOSSES = ("cross_entropy", "importance_sampling", "ppo", "cispo")


class UserError(Exception):
    """A request the caller got wrong: reported as a future failure of category "user"."""


def token_loss(kind: str, logprobs: torch.Tensor, inputs: dict[str, torch.Tensor], config: dict[str, float]) -> tuple[torch.Tensor, torch.Tensor]:
    """The loss of each token (shape of `logprobs`, padding already zero in the inputs) and the clipped-token mask."""
    if kind == "cross_entropy":
        return -inputs["weights"] * logprobs, torch.zeros_like(logprobs, dtype=torch.bool)
    advantages, sampler = inputs["advantages"], inputs["logprobs"]
    ratio = torch.exp(logprobs - sampler)
    if kind == "importance_sampling":
        return -ratio * advantages, torch.zeros_like(logprobs, dtype=torch.bool)
    low = config.get("clip_low_threshold", 0.8)
    high = config.get("clip_high_threshold", 1.2)
    clipped = torch.clamp(ratio, low, high)
    # A token is clipped where the clipped term is the one taken and differs from the unclipped one.
    was_clipped = (advantages != 0) & ((ratio < low) | (ratio > high))
    if kind == "ppo":
        return -torch.minimum(ratio * advantages, clipped * advantages), was_clipped
    if kind == "cispo":
        return -clipped.detach() * logprobs * advantages, was_clipped
    raise UserError(f'loss_fn "{kind}": this server computes {", ".join(LOSSES)}')


def forward_loss(kind: str, logprobs: torch.Tensor, inputs: dict[str, torch.Tensor]) -> torch.Tensor:
    """A forward-only request's summed loss: cross_entropy -sum w * p; the policy losses their importance-sampling form."""
    if kind == "cross_entropy":
        return -(inputs["weights"] * logprobs).sum()
    return -(torch.exp(logprobs - inputs["logprobs"]) * inputs["advantages"]).sum()
