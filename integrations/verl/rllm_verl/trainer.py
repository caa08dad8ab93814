"""The verl side of the bridge: a RayPPOTrainer whose ``fit`` takes its batches from rllm-ts instead of a dataset.

rllm-ts owns the loop (design b in docs/verl.md): it runs the agent flows against this job's rollout servers, grades
them, computes the advantages (solver and judge rows together, the judge's weighted by λ) and sends the rows. Each
train item here becomes a DataProto (rllm_verl.conversion); verl recomputes the old logprobs (and the reference
logprobs when the KL loss is on), updates the actor, and syncs the weights to the rollout servers before the result
is posted. Written against verl's public entry points (verl.DataProto, RayPPOTrainer); the worker-group calls follow
RayPPOTrainer.fit. Untried on a GPU cluster: see docs/verl.md.
"""

from __future__ import annotations

import math
import os
import traceback
from typing import Any

from verl import DataProto
from verl.trainer.ppo.ray_trainer import RayPPOTrainer

from .bridge_client import BridgeClient, TrainerReplaced
from .conversion import importance_ratio_metrics, logprob_mismatch, rows_to_batch
from .registration import registration


class BridgeTrainer(RayPPOTrainer):
    """RayPPOTrainer driven by rllm-ts's batch service (``+rllm.bridge_url``)."""

    def fit(self) -> None:
        bridge = self.config.rllm
        client = BridgeClient(
            bridge.bridge_url,
            token=os.environ.get("RLLM_VERL_BRIDGE_TOKEN"),
            give_up_after=float(bridge.get("give_up_after", 6 * 3600)),
        )
        self.global_steps = 0
        # With trainer.resume_mode=auto this loads the latest checkpoint in trainer.default_local_dir (a restarted job).
        self._load_checkpoint()
        # rllm-ts rolls out before the first update: the servers must be awake and hold the loaded weights.
        self._sync_weights()
        client.register(self._registration())
        handlers = {"train": self._train, "checkpoint": self._checkpoint, "restore": self._restore}
        while True:
            try:
                item = client.next_work(wait_seconds=30)
            except TrainerReplaced:
                return
            if item is None:
                continue
            if item["kind"] == "stop":
                client.post_result(item["id"], "done", self.global_steps)
                return
            try:
                extra = handlers[item["kind"]](item)
                client.post_result(item["id"], "done", self.global_steps, **extra)
            except Exception as error:  # one failed item is reported, and the trainer keeps serving
                traceback.print_exc()
                client.post_result(item["id"], "failed", self.global_steps, error=f"{type(error).__name__}: {error}")

    def _registration(self) -> dict[str, Any]:
        return registration(self.config, list(self.async_rollout_manager.server_addresses), int(self.global_steps))

    def _train(self, item: dict[str, Any]) -> dict[str, Any]:
        pad_token_id = self.tokenizer.pad_token_id if self.tokenizer.pad_token_id is not None else 0
        tensors, non_tensors = rows_to_batch(item["rows"], pad_token_id=pad_token_id, pad_to_multiple=self.actor_rollout_wg.world_size)
        batch = DataProto.from_dict(
            tensors=tensors,
            non_tensors=non_tensors,
            meta_info={"global_steps": self.global_steps + 1, "temperature": self.config.actor_rollout_ref.rollout.temperature},
        )
        batch.meta_info["global_token_num"] = tensors["attention_mask"].sum(dim=-1).tolist()
        self._sleep_rollout_servers()
        old_log_prob = self.actor_rollout_wg.compute_log_prob(batch)
        old_log_prob.batch.pop("entropys", None)
        batch = batch.union(old_log_prob)
        if self.use_reference_policy:
            worker = self.actor_rollout_wg if self.ref_in_actor else self.ref_policy_wg
            batch = batch.union(worker.compute_ref_log_prob(batch))
        mismatch = logprob_mismatch(batch.batch["old_log_probs"], batch.batch["rollout_log_probs"], batch.batch["response_mask"])
        correction = self.config.algorithm.get("rollout_correction", None)
        cap = _numeric_cap(correction)
        ratio_metrics = importance_ratio_metrics(batch.batch["old_log_probs"], batch.batch["rollout_log_probs"], batch.batch["response_mask"], cap)
        correction_metrics = {}
        if correction is not None and correction.get("rollout_is", None) and not correction.get("bypass_mode", False):
            # As RayPPOTrainer.fit does in decoupled mode: truncated importance weights from the recomputed (old) and the
            # rollout log-probs, which the actor's policy loss then multiplies in (rollout_is_weights).
            from verl.trainer.ppo.rollout_corr_helper import compute_rollout_correction_and_add_to_batch

            batch, correction_metrics = compute_rollout_correction_and_add_to_batch(batch, correction)
        # Multi-turn tells the actor to take the loss mask from response_mask, so observation tokens are not trained.
        batch.meta_info["multi_turn"] = True
        output = self.actor_rollout_wg.update_actor(batch)
        self.global_steps += 1
        self._sync_weights()
        metrics = {name: float(_mean(value)) for name, value in output.meta_info["metrics"].items()}
        metrics["loss"] = metrics.get("actor/pg_loss", math.nan)
        metrics["logprobMismatchMean"] = mismatch
        metrics.update(ratio_metrics)
        metrics.update({name: float(value) for name, value in correction_metrics.items()})
        return {"metrics": {name: value for name, value in metrics.items() if math.isfinite(value)}}

    def _checkpoint(self, item: dict[str, Any]) -> dict[str, Any]:
        self._save_checkpoint()
        path = os.path.join(self.config.trainer.default_local_dir, f"global_step_{self.global_steps}")
        return {"checkpointPath": path}

    def _restore(self, item: dict[str, Any]) -> dict[str, Any]:
        self.config.trainer.resume_mode = "resume_path"
        self.config.trainer.resume_from_path = item["path"]
        self._load_checkpoint()
        self._sync_weights()
        return {}

    # verl moved the sleep/sync calls between releases: newer ones have a checkpoint manager, older ones put
    # wake_up/sleep on the rollout manager (wake_up then loads the actor's weights into the servers).
    def _sleep_rollout_servers(self) -> None:
        manager = getattr(self, "checkpoint_manager", None)
        if manager is not None and hasattr(manager, "sleep_replicas"):
            manager.sleep_replicas()
        elif hasattr(self.async_rollout_manager, "sleep"):
            self.async_rollout_manager.sleep()

    def _sync_weights(self) -> None:
        manager = getattr(self, "checkpoint_manager", None)
        if manager is not None and hasattr(manager, "update_weights"):
            manager.update_weights(self.global_steps)
        else:
            self.async_rollout_manager.wake_up()


def _numeric_cap(correction: Any) -> float | None:
    """The TIS threshold when rollout correction weighs tokens (IcePop's "lower_upper" text has no single cap)."""
    if correction is None or not correction.get("rollout_is", None):
        return None
    try:
        return float(correction.get("rollout_is_threshold", 2.0))
    except (TypeError, ValueError):
        return None


def _mean(value: Any) -> float:
    if isinstance(value, (list, tuple)):
        return sum(float(entry) for entry in value) / max(1, len(value))
    return float(value)
