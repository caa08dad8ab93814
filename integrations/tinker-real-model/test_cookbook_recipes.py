"""tinker-cookbook 0.6.1's smallest recipes (recipes/sl_loop.py, recipes/rl_loop.py) run unchanged against
`rllm serve --tinker --base-model smollm2-135m`: a real model trained offline. Only the tokenizer, the renderer name
and the datasets are local (smollm2_cookbook)."""

import json

import pytest
from tinker_cookbook.recipes import rl_loop, sl_loop

import smollm2_cookbook
from conftest import API_KEY


@pytest.fixture(scope="module", autouse=True)
def local_resolution():
    smollm2_cookbook.install()


@pytest.fixture
def recipe_environment(monkeypatch):
    monkeypatch.setenv("TINKER_API_KEY", API_KEY)


def read_metrics(log_path) -> list[dict]:
    with open(log_path / "metrics.jsonl") as lines:
        return [json.loads(line) for line in lines]


def test_sl_loop_lowers_the_training_loss(server, tmp_path, recipe_environment):
    config = sl_loop.Config(
        base_url=server.url, model_name=smollm2_cookbook.MODEL, log_path=str(tmp_path), batch_size=8,
        learning_rate=1e-3, max_length=128, lora_rank=8, save_every=0, max_steps=5,
    )
    sl_loop.main(config)
    nll = [row["train_mean_nll"] for row in read_metrics(tmp_path) if "train_mean_nll" in row]
    print("sl_loop train_mean_nll per step:", nll)
    assert len(nll) == 5
    assert nll[-1] < nll[0] * 0.8, nll


def test_rl_loop_samples_scores_and_steps(server, tmp_path, recipe_environment):
    config = rl_loop.Config(
        base_url=server.url, model_name=smollm2_cookbook.MODEL, log_path=str(tmp_path), batch_size=4, group_size=4,
        learning_rate=1e-4, lora_rank=8, save_every=0, max_tokens=32, loss_fn="importance_sampling", max_steps=3,
    )
    rl_loop.main(config)
    rows = read_metrics(tmp_path)
    rewards = [row["reward/total"] for row in rows]
    print("rl_loop reward/total per step:", rewards, "optimizer steps:", sum("grad_norm" in row for row in rows))
    assert len(rewards) == 3
    assert all(0.0 <= reward <= 1.0 for reward in rewards)
