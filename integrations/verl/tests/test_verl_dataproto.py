"""The DataProto the bridge builds is verl's: it passes verl's own checks and survives verl's padding utilities.

Uses verl 0.9.1 itself (verl.protocol, verl.workers.utils.padding, verl.trainer.ppo.ray_trainer): the same calls
the trainer and the engine workers make on every batch.
"""

import torch
from verl import DataProto
from verl.protocol import pad_dataproto_to_divisor, unpad_dataproto
from verl.trainer.ppo.ray_trainer import compute_response_mask
from verl.workers.utils.padding import left_right_2_no_padding, no_padding_2_padding

from rllm_verl.conversion import rows_to_batch

# A multi-turn solver episode: prompt 11 12 13, the model's turn 21 22, a tool's observation 31 32, the model's turn
# 23 24 (the reward lands on 24); a one-turn judge row; a second solver row of the same task.
MULTI_TURN = {
    "tokens": [11, 12, 13, 21, 22, 31, 32, 23, 24],
    "lossMask": [0, 0, 0, 1, 1, 0, 0, 1, 1],
    "samplerLogprobs": [0, 0, 0, -0.5, -0.25, 0, 0, -1.0, -0.125],
    "promptLength": 3,
    "advantage": 0.5,
    "reward": 1.0,
    "groupKey": "t1:solver",
    "role": "solver",
}
JUDGE = {"tokens": [14, 15, 41], "lossMask": [0, 0, 1], "samplerLogprobs": [0, 0, -2.0], "promptLength": 2, "advantage": -1.0, "reward": 0.0, "groupKey": "t1:judge", "role": "judge"}
SHORT = {"tokens": [11, 12, 13, 25], "lossMask": [0, 0, 0, 1], "samplerLogprobs": [0, 0, 0, -0.75], "promptLength": 3, "advantage": -0.5, "reward": 0.0, "groupKey": "t1:solver", "role": "solver"}
ACTION_TOKENS = [21, 22, 23, 24]


def batch(pad_to_multiple=1):
    tensors, non_tensors = rows_to_batch([MULTI_TURN, JUDGE, SHORT], pad_token_id=0, pad_to_multiple=pad_to_multiple)
    data = DataProto.from_dict(tensors=tensors, non_tensors=non_tensors, meta_info={"temperature": 1.0})
    data.check_consistency()
    return data


def test_passes_verl_consistency_checks_and_its_response_mask():
    data = batch(pad_to_multiple=4)
    assert len(data) == 4
    # verl derives the response's attention from attention_mask; our response_mask must lie inside it.
    response_attention = compute_response_mask(data)
    assert torch.all(data.batch["response_mask"] <= response_attention)
    assert data.batch["input_ids"].shape == data.batch["attention_mask"].shape == data.batch["position_ids"].shape


def test_multi_turn_response_mask_covers_exactly_the_action_tokens():
    data = batch()
    responses, mask = data.batch["responses"][0], data.batch["response_mask"][0].bool()
    assert responses[mask].tolist() == ACTION_TOKENS
    assert data.batch["rollout_log_probs"][0][mask].tolist() == [-0.5, -0.25, -1.0, -0.125]
    # the observation tokens 31 32 are in the response (the model reads them) but never trained
    assert responses[~mask].tolist()[:2] == [31, 32]


def test_round_trips_through_verl_dataproto_padding():
    data = batch()
    padded, pad_size = pad_dataproto_to_divisor(data, 4)
    assert (len(padded), pad_size) == (4, 1)
    restored = unpad_dataproto(padded, pad_size)
    for key, tensor in data.batch.items():
        assert torch.equal(restored.batch[key], tensor), key
    for key, values in data.non_tensor_batch.items():
        assert restored.non_tensor_batch[key].tolist() == values.tolist(), key


def test_round_trips_through_the_engine_workers_no_padding_layout():
    data = batch()
    rows = [MULTI_TURN, JUDGE, SHORT]
    packed = left_right_2_no_padding(data.batch.clone())
    # Unpadded, each sequence is exactly the row's tokens, with positions 0..n-1 and verl's loss mask = response_mask.
    assert [sequence.tolist() for sequence in packed["input_ids"].unbind()] == [row["tokens"] for row in rows]
    assert [sequence.tolist() for sequence in packed["position_ids"].unbind()] == [list(range(len(row["tokens"]))) for row in rows]
    # A model output at position t predicts token t + 1: feeding "the next token" as the output must give back the
    # padded responses where verl's engine reads log-probs (no_padding_2_padding's one-token shift).
    next_tokens = torch.cat([torch.tensor(row["tokens"][1:] + [0]) for row in rows])
    responses = no_padding_2_padding(next_tokens, data.batch)
    real = data.batch["attention_mask"][:, -responses.shape[1] :].bool()
    assert torch.equal(responses[real], data.batch["responses"][real])
