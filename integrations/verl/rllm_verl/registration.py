"""What a trainer tells rllm-ts's batch service when it registers: its model, servers, limits and actor settings.

Shared by BridgeTrainer and the CPU mode, so that both report the settings rllm-ts checks every batch against
(src/training/backends/verl/verl-actor-settings.ts), the verl version, and the Ray job it runs in.
"""

from __future__ import annotations

import json
import os
from importlib.metadata import PackageNotFoundError, version
from typing import Any, Optional

# The verl release this bridge is written and tested against (integrations/python/ml.txt).
PINNED_VERL_VERSION = "0.9.1"


def registration(config: Any, server_addresses: list[str], global_step: int) -> dict[str, Any]:
    """The register request's body, less instanceId (the client adds it)."""
    actor = config.actor_rollout_ref.actor
    policy_loss = actor.get("policy_loss", {})
    correction = config.get("algorithm", {}).get("rollout_correction", {}) or {}
    body = {
        "servedModel": config.rllm.get("served_model", config.actor_rollout_ref.model.path),
        "serverAddresses": server_addresses,
        "maxPromptLength": int(config.data.max_prompt_length),
        "maxResponseLength": int(config.data.max_response_length),
        "globalStep": global_step,
        "settings": {
            "lossMode": str(actor.get("policy_loss", {}).get("loss_mode", "vanilla")),
            "clipRatioLow": float(actor.get("clip_ratio_low", actor.clip_ratio)),
            "clipRatioHigh": float(actor.get("clip_ratio_high", actor.clip_ratio)),
            "lossAggMode": str(actor.loss_agg_mode),
            "useKlLoss": bool(actor.use_kl_loss),
            "klLossCoef": float(actor.kl_loss_coef),
            "learningRate": float(actor.optim.lr),
            "weightDecay": float(actor.optim.get("weight_decay", 0.0)),
            "gradClip": float(actor.grad_clip),
            "ppoEpochs": int(actor.ppo_epochs),
            # The losses beyond vanilla and TIS (verl 0.9.1's defaults where the config leaves them out).
            "clipRatioC": float(actor.get("clip_ratio_c", 3.0)),
            "clipCovRatio": float(policy_loss.get("clip_cov_ratio", 0.0002)),
            "clipCovLb": float(policy_loss.get("clip_cov_lb", 1.0)),
            "clipCovUb": float(policy_loss.get("clip_cov_ub", 5.0)),
            "klCovRatio": float(policy_loss.get("kl_cov_ratio", 0.0002)),
            "ppoKlCoef": float(policy_loss.get("ppo_kl_coef", 0.1)),
            "droBeta": _optional_float(policy_loss.get("dro_beta", None)),
            "rolloutIs": correction.get("rollout_is", None),
            "rolloutIsThreshold": _number_or_text(correction.get("rollout_is_threshold", 2.0)),
        },
        "verlVersion": installed_verl_version(),
    }
    job = ray_job_id()
    if job is not None:
        body["rayJobId"] = job
    return body


def _optional_float(value: Any) -> Optional[float]:
    return None if value is None else float(value)


def _number_or_text(value: Any) -> Any:
    """A TIS threshold: a number, or IcePop's "lower_upper" text, kept as text."""
    try:
        return float(value)
    except (TypeError, ValueError):
        return str(value)


def installed_verl_version() -> str:
    """The installed verl's version, "unknown" for a source checkout without distribution metadata."""
    try:
        return version("verl")
    except PackageNotFoundError:
        return "unknown"


def check_verl_version(installed: Optional[str] = None) -> None:
    """Exits with one line when the installed verl is not the pinned one: its trainer API changes between releases."""
    found = installed if installed is not None else installed_verl_version()
    if found != PINNED_VERL_VERSION and not os.environ.get("RLLM_VERL_ANY_VERSION"):
        raise SystemExit(
            f"rllm_verl: verl {found} is installed, but this bridge is built for verl {PINNED_VERL_VERSION}: "
            f"pip install verl=={PINNED_VERL_VERSION} in the job's image (or set RLLM_VERL_ANY_VERSION=1 to try anyway)"
        )


def ray_job_id() -> Optional[str]:
    """The Ray job's submission id when this runs as a Ray job (Ray's job supervisor passes it in the driver's env)."""
    raw = os.environ.get("RAY_JOB_CONFIG_JSON_ENV_VAR")
    if not raw:
        return None
    try:
        return json.loads(raw).get("metadata", {}).get("job_submission_id")
    except ValueError:
        return None
