"""The fake judged by the SDK: fireworks-ai 1.2.30's own TrainerJobManager, training client and DeploymentManager drive
it through a trainer job's life, LoRA training through the gateway, a rollout deployment and a hot load of the trained
weights, and its refusals reach the SDK as the errors it raises."""

import httpx
import pytest
from conftest import API_KEY, MODEL
from fireworks.training import sdk
from fireworks.training.sdk.deployment import DeploymentConfig, DeploymentManager
from fireworks.training.sdk.trainer import TrainerJobConfig, TrainerJobManager


def test_a_trainer_job_is_created_runs_and_is_deleted_through_the_sdk(fake_url):
    manager = TrainerJobManager(api_key=API_KEY, base_url=fake_url)
    endpoint = manager.create_and_wait(TrainerJobConfig(base_model=MODEL, lora_rank=8, learning_rate=1e-4, display_name="sdk suite"), poll_interval_s=0.05)
    assert manager.account_id == "rllm-fake"
    assert endpoint.base_url == f"{fake_url}/training/v1/rlorTrainerJobs/rllm-fake/{endpoint.job_id}"
    assert endpoint.max_context_length == 256
    assert manager.get(endpoint.job_id)["state"] == "JOB_STATE_RUNNING"
    # The gateway answers the Tinker wire's health check the SDK probes, with the key it sends.
    assert httpx.get(f"{endpoint.base_url}/api/v1/healthz", headers={"X-Api-Key": API_KEY}).status_code == 200
    manager.delete(endpoint.job_id)
    assert manager.try_get(endpoint.job_id) is None


def test_a_wrong_key_is_refused_with_401(fake_url):
    manager = TrainerJobManager(api_key="fw-not-the-key", base_url=fake_url)
    with pytest.raises(httpx.HTTPStatusError) as refused:
        _ = manager.account_id
    assert refused.value.response.status_code == 401


def test_an_unknown_base_model_is_refused_naming_the_field(fake_url):
    manager = TrainerJobManager(api_key=API_KEY, base_url=fake_url)
    with pytest.raises(Exception, match="trainingConfig.baseModel"):
        manager.create(TrainerJobConfig(base_model="accounts/fireworks/models/qwen3-8b", lora_rank=8))


def test_a_body_the_sdk_would_not_write_is_refused_naming_the_field(fake_url):
    response = httpx.post(
        f"{fake_url}/v1/accounts/rllm-fake/rlorTrainerJobs?skipValidations=true&rlorTrainerJobId=hand-made",
        headers={"X-Api-Key": API_KEY},
        json={"serviceMode": True, "trainingConfig": {"baseModel": MODEL, "loraRank": 8, "learningRate": 1e-5}, "nodeCount": 1},
    )
    assert response.status_code == 400
    assert 'field "dataset"' in response.json()["error"]["message"]


def test_a_rollout_deployment_is_created_hot_loaded_and_deleted_through_the_sdk(fake_url):
    trainer = TrainerJobManager(api_key=API_KEY, base_url=fake_url)
    endpoint = trainer.create_and_wait(TrainerJobConfig(base_model=MODEL, lora_rank=8), poll_interval_s=0.05)
    deployments = DeploymentManager(api_key=API_KEY, base_url=fake_url)
    config = DeploymentConfig(deployment_id="sdk-rollout", base_model=MODEL, hot_load_trainer_job=endpoint.job_name, for_training=True)
    deployments.create_or_get(config)
    info = deployments.wait_for_ready("sdk-rollout", poll_interval_s=0.05)
    assert info.state == "READY"
    # A hot load of an identity the trainer never saved is refused, and the SDK raises.
    with pytest.raises(httpx.HTTPStatusError):
        deployments.hotload("sdk-rollout", MODEL, "tinker://no-such/sampler_weights/x")
    deployments.delete("sdk-rollout")
    assert deployments.get("sdk-rollout") is None
    trainer.delete(endpoint.job_id)


def test_the_sdk_training_client_trains_through_the_gateway_and_its_weights_hot_load(fake_url):
    trainer = TrainerJobManager(api_key=API_KEY, base_url=fake_url)
    endpoint = trainer.create_and_wait(TrainerJobConfig(base_model=MODEL, lora_rank=8), poll_interval_s=0.05)
    service = sdk.FiretitanServiceClient(base_url=endpoint.base_url, api_key=API_KEY)
    training = service.create_lora_training_client(base_model=MODEL, rank=8)
    datum = sdk.Datum(
        model_input=sdk.ModelInput.from_ints([5, 9, 11]),
        loss_fn_inputs={"target_tokens": sdk.TensorData(data=[9, 11, 2], dtype="int64"), "weights": sdk.TensorData(data=[0.0, 1.0, 1.0], dtype="float32")},
    )
    losses = []
    for _ in range(3):
        losses.append(training.forward_backward([datum], "cross_entropy").result().metrics["loss:sum"])
        training.optim_step(sdk.AdamParams(learning_rate=0.01)).result()
    assert losses[-1] < losses[0]
    saved = training.save_weights_for_sampler("step-3").result()

    deployments = DeploymentManager(api_key=API_KEY, base_url=fake_url)
    deployments.create_or_get(DeploymentConfig(deployment_id="sdk-hot-load", base_model=MODEL, hot_load_trainer_job=endpoint.job_name, for_training=True))
    deployments.wait_for_ready("sdk-hot-load", poll_interval_s=0.05)
    deployments.hotload("sdk-hot-load", MODEL, saved.path)
    assert deployments.wait_for_hotload("sdk-hot-load", MODEL, saved.path, poll_interval=0)
    deployments.delete("sdk-hot-load")
    trainer.delete(endpoint.job_id)
