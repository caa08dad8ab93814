"""The register request and the start-up version check (rllm_verl.registration)."""

import json

import pytest
from omegaconf import OmegaConf

from rllm_verl.registration import PINNED_VERL_VERSION, check_verl_version, installed_verl_version, registration


def test_the_environment_holds_the_pinned_verl():
    assert installed_verl_version() == PINNED_VERL_VERSION


def test_another_verl_version_stops_with_one_line(monkeypatch):
    monkeypatch.delenv("RLLM_VERL_ANY_VERSION", raising=False)
    with pytest.raises(SystemExit) as stopped:
        check_verl_version("0.8.0")
    message = str(stopped.value)
    assert "\n" not in message
    assert f"verl 0.8.0 is installed, but this bridge is built for verl {PINNED_VERL_VERSION}" in message
    check_verl_version(PINNED_VERL_VERSION)


def test_registration_reports_the_actor_settings_and_the_ray_job(monkeypatch):
    monkeypatch.setenv("RAY_JOB_CONFIG_JSON_ENV_VAR", json.dumps({"metadata": {"job_submission_id": "raysubmit_abc"}}))
    config = OmegaConf.create(
        {
            "rllm": {},
            "data": {"max_prompt_length": 16, "max_response_length": 32},
            "actor_rollout_ref": {
                "model": {"path": "tiny"},
                "actor": {"clip_ratio": 0.2, "clip_ratio_high": 0.28, "loss_agg_mode": "seq-mean-token-sum", "use_kl_loss": False, "kl_loss_coef": 0.0, "optim": {"lr": 1e-6}, "grad_clip": 1.0, "ppo_epochs": 1},
            },
        }
    )
    body = registration(config, ["127.0.0.1:9"], 3)
    assert body["rayJobId"] == "raysubmit_abc"
    assert body["settings"]["clipRatioLow"] == 0.2 and body["settings"]["clipRatioHigh"] == 0.28
    assert (body["servedModel"], body["globalStep"], body["verlVersion"]) == ("tiny", 3, PINNED_VERL_VERSION)
    # Settings the config leaves out are verl's defaults; rollout correction is off.
    assert body["settings"]["clipRatioC"] == 3.0 and body["settings"]["lossMode"] == "vanilla"
    assert body["settings"]["rolloutIs"] is None and body["settings"]["droBeta"] is None


def test_registration_reports_the_loss_options_and_truncated_importance_sampling():
    config = OmegaConf.create(
        {
            "rllm": {},
            "data": {"max_prompt_length": 16, "max_response_length": 32},
            "algorithm": {"rollout_correction": {"rollout_is": "token", "rollout_is_threshold": 1.5}},
            "actor_rollout_ref": {
                "model": {"path": "tiny"},
                "actor": {
                    "clip_ratio": 0.2, "clip_ratio_c": 1e9, "loss_agg_mode": "token-mean", "use_kl_loss": False, "kl_loss_coef": 0.0,
                    "optim": {"lr": 1e-6}, "grad_clip": 1.0, "ppo_epochs": 1,
                    "policy_loss": {"loss_mode": "clip_cov", "clip_cov_ratio": 0.01, "clip_cov_lb": 0.5, "clip_cov_ub": 4.0},
                },
            },
        }
    )
    settings = registration(config, ["127.0.0.1:9"], 0)["settings"]
    assert (settings["lossMode"], settings["clipCovRatio"], settings["clipCovLb"], settings["clipCovUb"]) == ("clip_cov", 0.01, 0.5, 4.0)
    assert (settings["clipRatioC"], settings["rolloutIs"], settings["rolloutIsThreshold"]) == (1e9, "token", 1.5)
