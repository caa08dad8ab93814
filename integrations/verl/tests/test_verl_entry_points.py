"""The verl glue imports against the pinned verl 0.9.1 (the ml environment), next to verl's own modules."""


def test_bridge_trainer_is_a_ray_ppo_trainer():
    from verl.trainer.ppo.ray_trainer import RayPPOTrainer

    from rllm_verl.trainer import BridgeTrainer

    assert issubclass(BridgeTrainer, RayPPOTrainer)


def test_verl_dataproto_accepts_converted_rows():
    from verl import DataProto

    from rllm_verl.conversion import rows_to_batch

    row = {"tokens": [1, 2, 3], "lossMask": [0, 1, 1], "samplerLogprobs": [0, -1, -1], "promptLength": 1, "advantage": 1, "reward": 1, "groupKey": "g", "role": "solver"}
    tensors, non_tensors = rows_to_batch([row, row])
    batch = DataProto.from_dict(tensors=tensors, non_tensors=non_tensors)
    assert len(batch) == 2
