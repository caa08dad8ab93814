"""rows_to_batch and logprob_mismatch against tensors worked out by hand."""

import pytest
import torch

from rllm_verl.conversion import logprob_mismatch, rows_to_batch

# A: 3 prompt tokens, then sampled 21 22, observation 31 (mask 0), sampled 23. B: 2 prompt tokens, one sampled token.
SOLVER = {
    "tokens": [11, 12, 13, 21, 22, 31, 23],
    "lossMask": [0, 0, 0, 1, 1, 0, 1],
    "samplerLogprobs": [0, 0, 0, -0.5, -0.25, 0, -1.0],
    "promptLength": 3,
    "advantage": 0.5,
    "reward": 1.0,
    "groupKey": "t1:solver",
    "role": "solver",
}
JUDGE = {
    "tokens": [14, 15, 24],
    "lossMask": [0, 0, 1],
    "samplerLogprobs": [0, 0, -2.0],
    "promptLength": 2,
    "advantage": -1.0,
    "reward": 0.0,
    "groupKey": "t1:judge",
    "role": "judge",
}


def test_left_pads_prompts_and_right_pads_responses():
    tensors, _ = rows_to_batch([SOLVER, JUDGE], pad_token_id=0)
    assert tensors["prompts"].tolist() == [[11, 12, 13], [0, 14, 15]]
    assert tensors["responses"].tolist() == [[21, 22, 31, 23], [24, 0, 0, 0]]
    assert tensors["input_ids"].tolist() == [[11, 12, 13, 21, 22, 31, 23], [0, 14, 15, 24, 0, 0, 0]]


def test_attention_and_response_masks_mark_real_and_trained_tokens():
    tensors, _ = rows_to_batch([SOLVER, JUDGE])
    assert tensors["attention_mask"].tolist() == [[1, 1, 1, 1, 1, 1, 1], [0, 1, 1, 1, 0, 0, 0]]
    # The observation token (31) is attended to but not trained.
    assert tensors["response_mask"].tolist() == [[1, 1, 0, 1], [1, 0, 0, 0]]


def test_position_ids_count_real_tokens_and_skip_left_padding():
    tensors, _ = rows_to_batch([SOLVER, JUDGE])
    assert tensors["position_ids"].tolist() == [[0, 1, 2, 3, 4, 5, 6], [0, 0, 1, 2, 2, 2, 2]]


def test_advantage_is_broadcast_over_trained_response_tokens_only():
    tensors, _ = rows_to_batch([SOLVER, JUDGE])
    assert tensors["advantages"].tolist() == [[0.5, 0.5, 0.0, 0.5], [-1.0, 0.0, 0.0, 0.0]]
    assert tensors["returns"].tolist() == tensors["advantages"].tolist()


def test_sampler_logprobs_and_reward_sit_on_response_positions():
    tensors, _ = rows_to_batch([SOLVER, JUDGE])
    assert tensors["rollout_log_probs"].tolist() == [[-0.5, -0.25, 0.0, -1.0], [-2.0, 0.0, 0.0, 0.0]]
    assert tensors["token_level_scores"].tolist() == [[0.0, 0.0, 0.0, 1.0], [0.0, 0.0, 0.0, 0.0]]


def test_uid_is_the_group_key_and_role_rides_along():
    _, non_tensors = rows_to_batch([SOLVER, JUDGE, {**SOLVER, "advantage": -0.5}])
    assert non_tensors["uid"].tolist() == ["t1:solver", "t1:judge", "t1:solver"]
    assert non_tensors["role"].tolist() == ["solver", "judge", "solver"]


def test_padding_rows_up_to_a_multiple_carry_no_mask():
    tensors, non_tensors = rows_to_batch([SOLVER, JUDGE], pad_to_multiple=4)
    assert tensors["input_ids"].shape == (4, 7)
    assert tensors["attention_mask"][2:].sum().item() == 0
    assert tensors["response_mask"][2:].sum().item() == 0
    assert non_tensors["uid"].tolist()[2:] == ["padding-0", "padding-1"]


@pytest.mark.parametrize(
    "change, message",
    [
        ({"lossMask": [0, 1]}, "row 0: field 'lossMask' has 2 values for 7 tokens"),
        ({"promptLength": 0}, "row 0: field 'promptLength' is 0"),
        ({"lossMask": [1, 0, 0, 1, 1, 0, 1]}, "row 0: field 'lossMask' marks prompt tokens as trained"),
    ],
)
def test_rejects_malformed_rows_naming_row_and_field(change, message):
    with pytest.raises(ValueError, match=message):
        rows_to_batch([{**SOLVER, **change}])


def test_logprob_mismatch_averages_over_trained_tokens():
    learner = torch.tensor([[-0.4, -0.25, -9.0, -1.5]])
    sampler = torch.tensor([[-0.5, -0.25, 0.0, -1.0]])
    mask = torch.tensor([[1, 1, 0, 1]])
    assert logprob_mismatch(learner, sampler, mask) == pytest.approx((0.1 + 0.0 + 0.5) / 3)
    assert logprob_mismatch(learner, sampler, torch.zeros_like(mask)) == 0.0
