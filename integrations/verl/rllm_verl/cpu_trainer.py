"""The bridge's CPU mode (``+rllm.mode=cpu``): the whole protocol with verl's own batch and loss code, no GPU, no update.

For checking a cluster and the bridge end to end where no GPU is at hand (the project's Ray job test runs it): the job
registers with rllm-ts's batch service like BridgeTrainer, turns every train item into verl's DataProto
(``rllm_verl.conversion``, ``DataProto.check_consistency``), and computes the job's policy loss (its
``policy_loss.loss_mode``) on it with ``core_algos`` (the learner's log-probs taken as the sampler's, so the ratio is 1
and a ppo-like loss is −mean advantage under the job's ``loss_agg_mode``). Nothing is trained: the policy version only counts. A checkpoint item writes a small
JSON file; a stop item ends the job.
"""

from __future__ import annotations

import json
import os
import tempfile
from typing import Any

from verl import DataProto
from verl.trainer.ppo import core_algos
from verl.workers.config.actor import ActorConfig, PolicyLossConfig

from .bridge_client import BridgeClient, TrainerReplaced
from .conversion import logprob_mismatch, rows_to_batch
from .registration import registration


def run_cpu_bridge(config: Any) -> None:
    """Serves the batch service's work items until a stop (see the module docstring)."""
    bridge = config.rllm
    client = BridgeClient(bridge.bridge_url, token=os.environ.get("RLLM_VERL_BRIDGE_TOKEN"), give_up_after=float(bridge.get("give_up_after", 600)))
    servers = list(bridge.get("server_addresses", []))
    global_step = 0
    client.register(registration(config, servers, global_step))
    print(f"rllm_verl: cpu mode registered with {bridge.bridge_url} as {client.instance_id}", flush=True)
    while True:
        try:
            item = client.next_work(wait_seconds=30)
        except TrainerReplaced:
            return
        if item is None:
            continue
        kind = item["kind"]
        if kind == "stop":
            client.post_result(item["id"], "done", global_step)
            print("rllm_verl: stop received", flush=True)
            return
        if kind == "train":
            metrics = cpu_step(item["rows"], config.actor_rollout_ref.actor)
            global_step += 1
            print(f"rllm_verl: step {global_step}: {len(item['rows'])} rows, loss {metrics['loss']:.6f}", flush=True)
            client.post_result(item["id"], "done", global_step, metrics=metrics)
        elif kind == "checkpoint":
            path = os.path.join(tempfile.mkdtemp(prefix="rllm-verl-cpu-"), f"global_step_{global_step}.json")
            with open(path, "w", encoding="utf-8") as handle:
                json.dump({"globalStep": global_step}, handle)
            client.post_result(item["id"], "done", global_step, checkpoint_path=path)
        else:
            client.post_result(item["id"], "failed", global_step, error=f"cpu mode does not handle {kind!r} items")


def cpu_step(rows: list[dict[str, Any]], actor: Any) -> dict[str, float]:
    """The job's policy loss (its loss_mode) on the DataProto built from ``rows``, the learner's log-probs equal to the sampler's."""
    tensors, non_tensors = rows_to_batch(rows)
    batch = DataProto.from_dict(tensors=tensors, non_tensors=non_tensors)
    batch.check_consistency()
    log_probs, mask = batch.batch["rollout_log_probs"], batch.batch["response_mask"]
    config = loss_config(actor)
    loss, _ = core_algos.get_policy_loss_fn(config.policy_loss.loss_mode)(
        old_log_prob=log_probs,
        log_prob=log_probs,
        advantages=batch.batch["advantages"],
        response_mask=mask,
        loss_agg_mode=str(actor.loss_agg_mode),
        config=config,
    )
    return {
        "loss": float(loss),
        "logprobMismatchMean": logprob_mismatch(log_probs, log_probs, mask),
        "importanceRatioMean": 1.0,
        "importanceRatioMax": 1.0,
        "importanceRatioClippedShare": 0.0,
        "rows": float(len(rows)),
        "trainedTokens": float(mask.sum()),
    }


def loss_config(actor: Any) -> ActorConfig:
    """The composed actor config's loss settings as verl's ActorConfig, which its registered policy losses read."""
    policy_loss = actor.get("policy_loss", {}) or {}
    keys = ("loss_mode", "clip_cov_ratio", "clip_cov_lb", "clip_cov_ub", "kl_cov_ratio", "ppo_kl_coef", "dro_beta")
    return ActorConfig(
        strategy="fsdp",
        rollout_n=1,
        ppo_micro_batch_size_per_gpu=1,
        clip_ratio=float(actor.clip_ratio),
        clip_ratio_low=float(actor.get("clip_ratio_low", actor.clip_ratio)),
        clip_ratio_high=float(actor.get("clip_ratio_high", actor.clip_ratio)),
        clip_ratio_c=float(actor.get("clip_ratio_c", 3.0)),
        policy_loss=PolicyLossConfig(**{key: policy_loss[key] for key in keys if policy_loss.get(key, None) is not None}),
    )
