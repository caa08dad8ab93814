"""Bridge rows -> the tensors of a verl DataProto (backends.md §2.1). Pure functions of torch and numpy only.

A row is one flat sequence from rllm-ts: ``tokens``, ``lossMask`` (1 = sampled, trained), ``samplerLogprobs``,
``promptLength`` (tokens before it are the first prompt), a scalar ``advantage`` (already weighted per role),
``reward``, ``groupKey`` (verl's uid) and ``role``. Prompts are left-padded and responses right-padded, as verl's
agent loop lays them out; the response holds every token after the first prompt, observation tokens included (mask 0).
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np
import torch


def rows_to_batch(
    rows: Sequence[dict[str, Any]],
    pad_token_id: int = 0,
    pad_to_multiple: int = 1,
) -> tuple[dict[str, torch.Tensor], dict[str, np.ndarray]]:
    """The ``(tensors, non_tensors)`` of ``DataProto.from_dict`` for ``rows``.

    Shapes: prompts [B, P] with P the longest prompt, responses [B, R] with R the longest response.
    ``pad_to_multiple`` appends empty rows (every mask 0, so they add nothing to a token-mean loss) until B divides
    by it: verl splits a batch evenly over its data-parallel ranks.
    """
    if not rows:
        raise ValueError("rows_to_batch needs at least one row")
    for index, row in enumerate(rows):
        _check_row(index, row)
    prompts = [list(row["tokens"][: row["promptLength"]]) for row in rows]
    responses = [list(row["tokens"][row["promptLength"] :]) for row in rows]
    prompt_width = max(len(prompt) for prompt in prompts)
    response_width = max(len(response) for response in responses)
    padding_rows = (-len(rows)) % pad_to_multiple
    size = len(rows) + padding_rows

    prompt_ids = torch.full((size, prompt_width), pad_token_id, dtype=torch.long)
    prompt_attention = torch.zeros((size, prompt_width), dtype=torch.long)
    response_ids = torch.full((size, response_width), pad_token_id, dtype=torch.long)
    response_attention = torch.zeros((size, response_width), dtype=torch.long)
    response_mask = torch.zeros((size, response_width), dtype=torch.long)
    rollout_log_probs = torch.zeros((size, response_width), dtype=torch.float32)
    advantages = torch.zeros((size, response_width), dtype=torch.float32)
    scores = torch.zeros((size, response_width), dtype=torch.float32)

    for index, row in enumerate(rows):
        prompt, response = prompts[index], responses[index]
        split = row["promptLength"]
        if prompt:
            prompt_ids[index, prompt_width - len(prompt) :] = torch.tensor(prompt, dtype=torch.long)
            prompt_attention[index, prompt_width - len(prompt) :] = 1
        length = len(response)
        if length:
            response_ids[index, :length] = torch.tensor(response, dtype=torch.long)
            response_attention[index, :length] = 1
            response_mask[index, :length] = torch.tensor(row["lossMask"][split:], dtype=torch.long)
            rollout_log_probs[index, :length] = torch.tensor(row["samplerLogprobs"][split:], dtype=torch.float32)
            # The reward sits on the last response token, where verl's reward functions put a sequence score.
            scores[index, length - 1] = float(row["reward"])
        # One advantage per row, on the trained tokens only.
        advantages[index] = float(row["advantage"]) * response_mask[index].to(torch.float32)

    attention_mask = torch.cat([prompt_attention, response_attention], dim=1)
    tensors = {
        "prompts": prompt_ids,
        "responses": response_ids,
        "input_ids": torch.cat([prompt_ids, response_ids], dim=1),
        "attention_mask": attention_mask,
        # Positions count real tokens only, so left padding does not shift them (verl's compute_position_id_with_mask).
        "position_ids": torch.clamp(torch.cumsum(attention_mask, dim=-1) - 1, min=0),
        "response_mask": response_mask,
        "rollout_log_probs": rollout_log_probs,
        "advantages": advantages,
        # rllm-ts computed the advantages from rewards already; the return verl logs is the same broadcast value.
        "returns": advantages.clone(),
        "token_level_scores": scores,
        "token_level_rewards": scores.clone(),
    }
    padding = [""] * padding_rows
    non_tensors = {
        "uid": np.array([row["groupKey"] for row in rows] + [f"padding-{index}" for index in range(padding_rows)], dtype=object),
        "role": np.array([row["role"] for row in rows] + padding, dtype=object),
    }
    return tensors, non_tensors


def logprob_mismatch(learner: torch.Tensor, sampler: torch.Tensor, mask: torch.Tensor) -> float:
    """Mean |learner - sampler| logprob over the trained tokens (0 when none): how far verl's recompute is from vLLM's."""
    weights = mask.to(torch.float32)
    total = weights.sum()
    if total.item() == 0:
        return 0.0
    return float(((learner - sampler).abs() * weights).sum() / total)


def _check_row(index: int, row: dict[str, Any]) -> None:
    tokens = row["tokens"]
    for field in ("lossMask", "samplerLogprobs"):
        if len(row[field]) != len(tokens):
            raise ValueError(f"row {index}: field {field!r} has {len(row[field])} values for {len(tokens)} tokens")
    split = row["promptLength"]
    if not 0 < split <= len(tokens):
        raise ValueError(f"row {index}: field 'promptLength' is {split}, outside 1..{len(tokens)}")
    if any(row["lossMask"][:split]):
        raise ValueError(f"row {index}: field 'lossMask' marks prompt tokens as trained")


def importance_ratio_metrics(trainer: torch.Tensor, sampler: torch.Tensor, mask: torch.Tensor, cap: float | None) -> dict[str, float]:
    """The trainer-to-sampler ratio exp(trainer - sampler) over trained tokens: mean, largest, share above ``cap``.

    Named as the local backend reports them (importanceRatioMean, importanceRatioMax, importanceRatioClippedShare), so
    metrics.jsonl reads the same whatever the backend; the log-ratio is clamped to ±20 as verl's rollout correction does.
    """
    trained = mask > 0
    if not bool(trained.any()):
        return {"importanceRatioMean": 0.0, "importanceRatioMax": 0.0, "importanceRatioClippedShare": 0.0}
    ratios = torch.exp(torch.clamp(trainer - sampler, min=-20.0, max=20.0))[trained]
    clipped = float((ratios > cap).float().mean()) if cap is not None else 0.0
    return {"importanceRatioMean": float(ratios.mean()), "importanceRatioMax": float(ratios.max()), "importanceRatioClippedShare": clipped}
