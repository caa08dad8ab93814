"""The official tinker SDK (0.38.0) against `rllm serve --tinker`, called exactly as a user's script calls the service."""

import asyncio

import numpy as np
import pytest
import tinker
from tinker import types
from tinker.lib.retryable_exception import RetryableException

from conftest import API_KEY, LOCAL_MODEL, RllmTinkerServer, tiny_vocabulary

# Token ids of the tiny vocabulary (printable ASCII from id 14, " "): the text "12+3=" as the tiny tokenizer encodes it.
PROMPT = [31, 32, 25, 33, 43]
END_TOKEN = 4  # <|end|>


def supervised_datum(tokens: list[int]) -> types.Datum:
    return types.Datum(
        model_input=types.ModelInput.from_ints(tokens[:-1]),
        loss_fn_inputs={
            "target_tokens": np.array(tokens[1:], dtype=np.int64),
            "weights": np.ones(len(tokens) - 1, dtype=np.float32),
        },
    )


def policy_datum(prompt: list[int], sampled: list[int], logprobs: list[float], advantage: float) -> types.Datum:
    # The rl_loop recipe's layout: targets shifted by one, prompt positions with advantage 0.
    observed = len(prompt) - 1
    return types.Datum(
        model_input=types.ModelInput.from_ints(prompt + sampled[:-1]),
        loss_fn_inputs={
            "target_tokens": np.array([0] * observed + sampled, dtype=np.int64),
            "logprobs": np.array([0.0] * observed + logprobs, dtype=np.float32),
            "advantages": np.array([0.0] * observed + [advantage] * len(sampled), dtype=np.float32),
        },
    )


def test_capabilities_list_the_local_model(service_client):
    capabilities = service_client.create_rest_client().get_server_capabilities().result()
    names = [model.model_name for model in capabilities.supported_models]
    assert names == [LOCAL_MODEL]
    assert capabilities.supported_models[0].max_context_length == 104


def test_training_client_reports_its_model(training_client):
    info = training_client.get_info()
    assert info.model_data.model_name == LOCAL_MODEL
    assert info.lora_rank == 8
    assert training_client.get_tokenizer is not None


def test_cross_entropy_loss_goes_down_with_adam(service_client):
    client = service_client.create_lora_training_client(base_model=LOCAL_MODEL, rank=4).result()
    datum = supervised_datum([2, *PROMPT, 3, 21, END_TOKEN])
    losses = []
    for _ in range(4):
        output = client.forward_backward([datum], "cross_entropy").result()
        losses.append(output.metrics["loss:sum"])
        step = client.optim_step(types.AdamParams(learning_rate=5e-3)).result()
        assert step.metrics is not None and step.metrics["grad_norm"] > 0
    assert losses[-1] < losses[0]
    # One logprob per target token, as the cookbook reads them (x["logprobs"]).
    logprobs = output.loss_fn_outputs[0]["logprobs"].to_numpy()
    assert logprobs.shape == (len(datum.model_input.to_ints()),)
    assert np.all(logprobs <= 0)


def test_forward_gives_the_loss_without_an_update(service_client):
    client = service_client.create_lora_training_client(base_model=LOCAL_MODEL, rank=4).result()
    datum = supervised_datum([2, *PROMPT, 3, 21, END_TOKEN])
    first = client.forward([datum], "cross_entropy").result().metrics["loss:sum"]
    second = client.forward([datum], "cross_entropy").result().metrics["loss:sum"]
    assert first == pytest.approx(second, rel=1e-6)


def test_sampling_from_saved_weights_with_sampling_params(service_client, training_client):
    saved = training_client.save_weights_for_sampler(name="sdk-sampling").result()
    assert saved.path.startswith("tinker://") and saved.path.endswith("/sampler_weights/sdk-sampling")
    sampler = service_client.create_sampling_client(model_path=saved.path).result()
    prompt = types.ModelInput.from_ints(PROMPT)
    params = types.SamplingParams(max_tokens=6, temperature=1.0, seed=7)
    first = sampler.sample(prompt=prompt, num_samples=3, sampling_params=params).result()
    again = sampler.sample(prompt=prompt, num_samples=3, sampling_params=params).result()
    assert len(first.sequences) == 3
    for sequence in first.sequences:
        assert 1 <= len(sequence.tokens) <= 6
        assert len(sequence.logprobs) == len(sequence.tokens)
        assert all(logprob <= 0 for logprob in sequence.logprobs)
        assert sequence.stop_reason in ("length", "stop")
    # The same seed gives the same samples.
    assert [s.tokens for s in first.sequences] == [s.tokens for s in again.sequences]


def test_a_stop_token_ends_the_sequence_with_it(service_client, training_client):
    sampler = training_client.save_weights_and_get_sampling_client()
    greedy = sampler.sample(
        prompt=types.ModelInput.from_ints(PROMPT), num_samples=1,
        sampling_params=types.SamplingParams(max_tokens=8, temperature=0.0),
    ).result().sequences[0]
    stop = greedy.tokens[1]
    cut = sampler.sample(
        prompt=types.ModelInput.from_ints(PROMPT), num_samples=1,
        sampling_params=types.SamplingParams(max_tokens=8, temperature=0.0, stop=[stop]),
    ).result().sequences[0]
    assert cut.tokens == greedy.tokens[: greedy.tokens.index(stop) + 1]
    assert cut.stop_reason == "stop"


def test_a_stop_string_ends_the_sequence(service_client, training_client):
    sampler = training_client.save_weights_and_get_sampling_client()
    greedy = sampler.sample(
        prompt=types.ModelInput.from_ints(PROMPT), num_samples=1,
        sampling_params=types.SamplingParams(max_tokens=8, temperature=0.0),
    ).result().sequences[0]
    # A stop string made of the second and third sampled tokens' text: the sample must end at the token completing it.
    assert len(greedy.tokens) >= 3, greedy.tokens
    vocabulary = tiny_vocabulary()
    stop_text = vocabulary[greedy.tokens[1]] + vocabulary[greedy.tokens[2]]
    end = next(index for index in range(len(greedy.tokens)) if stop_text in "".join(vocabulary[token] for token in greedy.tokens[: index + 1]))
    cut = sampler.sample(
        prompt=types.ModelInput.from_ints(PROMPT), num_samples=1,
        sampling_params=types.SamplingParams(max_tokens=8, temperature=0.0, stop=[stop_text]),
    ).result().sequences[0]
    assert cut.tokens == greedy.tokens[: end + 1]
    assert cut.stop_reason == "stop"


def test_importance_sampling_ppo_and_cispo_on_sampled_tokens(service_client, training_client):
    sampler = training_client.save_weights_and_get_sampling_client()
    response = sampler.sample(
        prompt=types.ModelInput.from_ints(PROMPT), num_samples=2,
        sampling_params=types.SamplingParams(max_tokens=5, seed=3),
    ).result()
    data = [
        policy_datum(PROMPT, sequence.tokens, sequence.logprobs, advantage)
        for sequence, advantage in zip(response.sequences, [1.0, -1.0])
    ]
    for loss in ("importance_sampling", "ppo", "cispo"):
        output = training_client.forward_backward(data, loss).result()
        assert np.isfinite(output.metrics["loss:sum"])
        learner = output.loss_fn_outputs[0]["logprobs"].to_numpy()[len(PROMPT) - 1:]
        # The learner scores the sampled tokens as the sampler did (same weights, no update in between).
        assert np.allclose(learner, response.sequences[0].logprobs, atol=1e-3)
    training_client.optim_step(types.AdamParams(learning_rate=1e-4)).result()


def test_futures_can_be_awaited_and_resolve_in_submission_order(service_client):
    client = service_client.create_lora_training_client(base_model=LOCAL_MODEL, rank=4).result()
    datum = supervised_datum([2, *PROMPT, 3, 21, END_TOKEN])

    async def run():
        forward_future = client.forward_backward([datum], "cross_entropy")
        step_future = client.optim_step(types.AdamParams(learning_rate=5e-3))
        after_future = client.forward([datum], "cross_entropy")
        return await forward_future, await step_future, await after_future

    before, _, after = asyncio.run(run())
    # The forward after the step saw the updated weights: submission order is execution order.
    assert after.metrics["loss:sum"] < before.metrics["loss:sum"]


def test_save_state_and_resume_with_the_optimizer(service_client):
    client = service_client.create_lora_training_client(base_model=LOCAL_MODEL, rank=4).result()
    datum = supervised_datum([2, *PROMPT, 3, 21, END_TOKEN])
    client.forward_backward([datum], "cross_entropy").result()
    client.optim_step(types.AdamParams(learning_rate=5e-3)).result()
    state = client.save_state("sdk-state").result()
    assert state.path.endswith("/weights/sdk-state")
    at_save = client.forward([datum], "cross_entropy").result().metrics["loss:sum"]

    resumed = service_client.create_training_client_from_state_with_optimizer(state.path).result()
    assert resumed.forward([datum], "cross_entropy").result().metrics["loss:sum"] == pytest.approx(at_save, rel=1e-5)
    # One more identical step on each gives the same loss: the Adam moments came back too.
    for trained in (client, resumed):
        trained.forward_backward([datum], "cross_entropy").result()
        trained.optim_step(types.AdamParams(learning_rate=5e-3)).result()
    losses = [trained.forward([datum], "cross_entropy").result().metrics["loss:sum"] for trained in (client, resumed)]
    assert losses[0] == pytest.approx(losses[1], rel=1e-4)

    weights_only = service_client.create_training_client_from_state(state.path).result()
    assert weights_only.forward([datum], "cross_entropy").result().metrics["loss:sum"] == pytest.approx(at_save, rel=1e-5)


def test_forward_backward_custom_trains_on_a_python_loss(service_client):
    # The SDK runs forward, calls the loss in Python, and sends its gradient back as cross_entropy weights.
    client = service_client.create_lora_training_client(base_model=LOCAL_MODEL, rank=4).result()
    datum = supervised_datum([2, *PROMPT, 3, 21, END_TOKEN])

    def negative_log_likelihood(data, logprobs):
        loss = -sum(row.sum() for row in logprobs)
        return loss, {"nll": float(loss.detach())}

    first = client.forward_backward_custom([datum], negative_log_likelihood).result()
    client.optim_step(types.AdamParams(learning_rate=5e-3)).result()
    after = client.forward([datum], "cross_entropy").result()
    assert after.metrics["loss:sum"] < first.metrics["nll"]


def test_unknown_base_model_is_a_bad_request(service_client):
    with pytest.raises(tinker.BadRequestError, match="rllm/tiny"):
        service_client.create_lora_training_client(base_model="Qwen/Qwen3-8B").result()


def test_mismatched_datum_shapes_fail_the_request(training_client):
    datum = types.Datum(
        model_input=types.ModelInput.from_ints(PROMPT),
        loss_fn_inputs={"target_tokens": np.array(PROMPT[:2], dtype=np.int64), "weights": np.ones(2, dtype=np.float32)},
    )
    with pytest.raises((tinker.RequestFailedError, tinker.BadRequestError), match="target_tokens"):
        training_client.forward_backward([datum], "cross_entropy").result()


def test_compute_logprobs_scores_the_prompt_as_the_sampler_does(training_client):
    sampler = training_client.save_weights_and_get_sampling_client()
    sampled = sampler.sample(
        prompt=types.ModelInput.from_ints(PROMPT), num_samples=1, sampling_params=types.SamplingParams(max_tokens=3, seed=1),
    ).result().sequences[0]
    logprobs = sampler.compute_logprobs(types.ModelInput.from_ints(PROMPT + sampled.tokens)).result()
    assert len(logprobs) == len(PROMPT) + len(sampled.tokens)
    assert logprobs[0] is None and all(logprob <= 0 for logprob in logprobs[1:])
    # The sampled tokens, scored as prompt, get the logprobs they were sampled with.
    assert np.allclose(logprobs[len(PROMPT):], sampled.logprobs, atol=1e-4)
    last_two = sampler.compute_logprobs(types.ModelInput.from_ints(PROMPT), prompt_logprobs_last_n=2).result()
    assert last_two[:-2] == [None] * (len(PROMPT) - 2) and last_two[-2:] == logprobs[len(PROMPT) - 2 : len(PROMPT)]


def test_top_k_logprobs_are_refused_not_ignored(training_client):
    sampler = training_client.save_weights_and_get_sampling_client()
    with pytest.raises(tinker.BadRequestError, match="topk_prompt_logprobs"):
        sampler.sample(
            prompt=types.ModelInput.from_ints(PROMPT), num_samples=1,
            sampling_params=types.SamplingParams(max_tokens=2), include_prompt_logprobs=True, topk_prompt_logprobs=2,
        ).result()


def test_an_endpoint_the_server_lacks_is_not_found_at_once(service_client):
    with pytest.raises(tinker.NotFoundError):
        service_client.create_rest_client().list_training_runs().result()


def test_unknown_sampler_path_is_not_found(service_client):
    with pytest.raises(tinker.NotFoundError, match="sampler path"):
        service_client.create_sampling_client(model_path="tinker://nobody:train:0/sampler_weights/none").result()


def test_a_key_not_of_the_service_form_is_refused_by_the_sdk(server):
    client = tinker.ServiceClient(base_url=server.url, api_key="sk-not-a-tinker-key")
    with pytest.raises(tinker.TinkerError, match="tml-"):
        client.create_lora_training_client(base_model=LOCAL_MODEL).result()


def test_a_wrong_key_is_an_authentication_error():
    server = RllmTinkerServer(env={"TINKER_API_KEY": "tml-the-right-key"})
    try:
        client = tinker.ServiceClient(base_url=server.url, api_key="tml-a-wrong-key")
        with pytest.raises(tinker.AuthenticationError, match="invalid API key"):
            client.create_lora_training_client(base_model=LOCAL_MODEL).result()
        right = tinker.ServiceClient(base_url=server.url, api_key="tml-the-right-key")
        assert right.create_lora_training_client(base_model=LOCAL_MODEL, rank=4).result().get_info().lora_rank == 4
    finally:
        server.stop()


def test_an_expired_future_raises_the_sdks_retryable_exception():
    # HTTP 410 on retrieve_future: the service no longer has the request; the SDK raises RetryableException.
    server = RllmTinkerServer("--faults", "lost=1")
    try:
        client = tinker.ServiceClient(base_url=server.url, api_key=API_KEY)
        with pytest.raises(RetryableException, match="expired"):
            client.create_lora_training_client(base_model=LOCAL_MODEL, rank=4).result()
        # The server lost only that one; the next request goes through.
        assert client.create_lora_training_client(base_model=LOCAL_MODEL, rank=4).result().get_info().lora_rank == 4
    finally:
        server.stop()


def test_try_again_and_timeouts_are_polled_through():
    server = RllmTinkerServer("--faults", "try_again=2,timeouts=2")
    try:
        client = tinker.ServiceClient(base_url=server.url, api_key=API_KEY)
        training = client.create_lora_training_client(base_model=LOCAL_MODEL, rank=4).result()
        output = training.forward([supervised_datum([2, *PROMPT, 3])], "cross_entropy").result()
        assert np.isfinite(output.metrics["loss:sum"])
    finally:
        server.stop()


def test_a_server_that_dies_mid_future_does_not_hang_a_bounded_wait():
    server = RllmTinkerServer("--faults", "try_again=1000")
    client = tinker.ServiceClient(base_url=server.url, api_key=API_KEY)
    training = client.create_lora_training_client(base_model=LOCAL_MODEL, rank=4)
    server.kill()
    with pytest.raises((TimeoutError, tinker.APIConnectionError)):
        training.result(timeout=5)
