"""The official tinker SDK (0.38.0) against the local Tinker server on a real model (SmolLM2-135M-Instruct): LoRA
training lowers the loss, the trained weights sample through llama.cpp with logprobs, the sampler's logprobs (quantized
llama.cpp) and the trainer's (dequantized torch) agree within the tolerance docs/results/2026-12-real-model.md
measures, and importance_sampling and ppo steps use the sampler's logprobs as the behaviour policy."""

import math
import statistics

import pytest
import tinker
from tinker import types

from conftest import MODEL

# The documented tolerance (docs/results/2026-12-real-model.md, "The logprob contract"): on 64 temperature-1 samples the
# gap per sampled token between llama.cpp (4-bit weights, 8-bit activations) and torch (the same weights dequantized to
# float32) measured a mean of 0.069 nats and a 95th percentile of 0.22; the bounds leave room for another machine.
MEAN_GAP_TOLERANCE = 0.1
P95_GAP_TOLERANCE = 0.3

QUESTIONS = ["What is 3 + 4?", "What is the capital of France?", "Name a colour.", "What is 9 + 8?"]


def chat_prompt(tokenizer, question: str) -> list[int]:
    """Prompt ids with the model's own chat template (its default system prompt included), ending at the assistant's turn."""
    encoded = tokenizer.apply_chat_template([{"role": "user", "content": question}], add_generation_prompt=True, tokenize=True, return_dict=True)
    return list(encoded["input_ids"])


def supervised_datum(tokenizer, question: str, answer: str) -> types.Datum:
    prompt = chat_prompt(tokenizer, question)
    reply = tokenizer.encode(answer, add_special_tokens=False) + [tokenizer.convert_tokens_to_ids("<|im_end|>")]
    tokens = prompt + reply
    weights = [0.0] * (len(prompt) - 1) + [1.0] * len(reply)
    return types.Datum(model_input=types.ModelInput.from_ints(tokens[:-1]), loss_fn_inputs={"target_tokens": tokens[1:], "weights": weights})


def policy_datum(prompt: list[int], sequence, advantage: float) -> types.Datum:
    tokens = prompt + list(sequence.tokens)
    count = len(sequence.tokens)
    return types.Datum(
        model_input=types.ModelInput.from_ints(tokens[:-1]),
        loss_fn_inputs={
            "target_tokens": tokens[1:],
            "logprobs": [0.0] * (len(prompt) - 1) + list(sequence.logprobs),
            "advantages": [0.0] * (len(prompt) - 1) + [advantage] * count,
        },
    )


@pytest.fixture(scope="module")
def base_samples(service_client, tokenizer):
    """Temperature-1 samples of the base model: 16 per question, with the sampler's logprobs."""
    sampler = service_client.create_sampling_client(base_model=MODEL)
    samples = []
    for question in QUESTIONS:
        prompt = chat_prompt(tokenizer, question)
        response = sampler.sample(types.ModelInput.from_ints(prompt), num_samples=16, sampling_params=types.SamplingParams(max_tokens=24, temperature=1.0, seed=11)).result()
        samples.extend((prompt, sequence) for sequence in response.sequences)
    return samples


def test_the_server_offers_the_real_model_with_lora(service_client):
    capabilities = service_client.get_server_capabilities()
    assert [model.model_name for model in capabilities.supported_models] == [MODEL]
    training = service_client.create_lora_training_client(base_model=MODEL, rank=4)
    info = training.get_info()
    assert info.model_data.tokenizer_id == "HuggingFaceTB/SmolLM2-135M-Instruct"
    assert info.is_lora is True and info.lora_rank == 4


def test_sampler_and_trainer_logprobs_agree_within_the_tolerance(service_client, base_samples):
    training = service_client.create_lora_training_client(base_model=MODEL, rank=4)
    data = [policy_datum(prompt, sequence, 1.0) for prompt, sequence in base_samples]
    output = training.forward(data, "importance_sampling").result()
    signed = []
    for (prompt, sequence), result in zip(base_samples, output.loss_fn_outputs):
        learner = result["logprobs"].tolist()[len(prompt) - 1 :]
        signed.extend(trained - sampled for trained, sampled in zip(learner, sequence.logprobs))
    gaps = sorted(abs(gap) for gap in signed)
    mean, p95 = statistics.fmean(gaps), gaps[int(0.95 * (len(gaps) - 1))]
    ratios = sorted(math.exp(gap) for gap in signed)
    clipped = sum(1 for ratio in ratios if ratio < 0.8 or ratio > 1.2) / len(ratios)
    print(
        f"logprob contract: {len(gaps)} sampled tokens, mean |gap| {mean:.4f}, p95 {p95:.4f}, max {gaps[-1]:.4f}, "
        f"mean signed gap (torch - llama.cpp) {statistics.fmean(signed):+.4f}; ratio exp(gap) 2.5-97.5% "
        f"[{ratios[int(0.025 * (len(ratios) - 1))]:.3f}, {ratios[int(0.975 * (len(ratios) - 1))]:.3f}], outside ppo's [0.8, 1.2]: {clipped:.1%}"
    )
    assert mean < MEAN_GAP_TOLERANCE and p95 < P95_GAP_TOLERANCE, (mean, p95, gaps[-1])


def test_lora_training_lowers_the_loss_and_the_trained_weights_sample_with_logprobs(service_client, tokenizer):
    training = service_client.create_lora_training_client(base_model=MODEL, rank=8, seed=1)
    data = [supervised_datum(tokenizer, "What is the secret word?", "The secret word is banana.")]
    losses = []
    for _ in range(4):
        losses.append(training.forward_backward(data, "cross_entropy").result().metrics["loss:sum"])
        training.optim_step(types.AdamParams(learning_rate=2e-3)).result()
    print("cross_entropy loss per step:", losses)
    assert losses[-1] < 0.5 * losses[0], losses
    prompt = types.ModelInput.from_ints(chat_prompt(tokenizer, "What is the secret word?"))
    trained = training.save_weights_and_get_sampling_client().sample(prompt, num_samples=1, sampling_params=types.SamplingParams(max_tokens=16, temperature=0.0)).result()
    base = service_client.create_sampling_client(base_model=MODEL).sample(prompt, num_samples=1, sampling_params=types.SamplingParams(max_tokens=16, temperature=0.0)).result()
    text = tokenizer.decode(trained.sequences[0].tokens, skip_special_tokens=True)
    assert "banana" in text, text
    assert "banana" not in tokenizer.decode(base.sequences[0].tokens, skip_special_tokens=True)
    # The trained sampler reports the logprobs of its own weights: the taught reply is near certain.
    assert len(trained.sequences[0].logprobs) == len(trained.sequences[0].tokens)
    assert statistics.fmean(trained.sequences[0].logprobs) > -0.5


@pytest.mark.parametrize("loss_fn", ["importance_sampling", "ppo"])
def test_policy_losses_start_from_the_sampler_logprobs_and_move_the_policy(service_client, base_samples, loss_fn):
    training = service_client.create_lora_training_client(base_model=MODEL, rank=8, seed=2)
    # Reward the first question's first sample; one step must raise its learner logprob (the sum over its tokens).
    prompt, sequence = base_samples[0]
    data = [policy_datum(prompt, sequence, 1.0)]
    first = training.forward_backward(data, loss_fn).result()
    before = sum(first.loss_fn_outputs[0]["logprobs"].tolist()[len(prompt) - 1 :])
    # Before any step the ratio p/q is exp(gap): importance_sampling's summed loss is about -(number of tokens).
    assert first.metrics["loss:sum"] == pytest.approx(-len(sequence.tokens), rel=0.1)
    training.optim_step(types.AdamParams(learning_rate=1e-3)).result()
    after = sum(training.forward(data, loss_fn).result().loss_fn_outputs[0]["logprobs"].tolist()[len(prompt) - 1 :])
    assert after > before, (before, after)
