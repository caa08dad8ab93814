"""``python3 -m rllm_verl.main <hydra overrides>``: verl's main_ppo with BridgeTrainer in place of RayPPOTrainer.

verl's TaskRunner builds the workers, the rollout servers and the trainer exactly as for a normal run; only the
trainer class differs. The dataset verl insists on is a placeholder (the batches come from rllm-ts), written here
when ``data.train_files`` is not given. ``+rllm.mode=cpu`` runs the CPU mode instead (rllm_verl.cpu_trainer): the same
config and protocol, verl's batch and loss code, no GPU and no update. A verl other than the pinned one stops the
job at once with one line (rllm_verl.registration).
"""

from __future__ import annotations

import os
import tempfile

import ray


def placeholder_dataset(rows: int) -> str:
    """A parquet of ``rows`` one-message prompts: verl builds a dataloader from it, BridgeTrainer never reads it."""
    import pandas

    path = os.path.join(tempfile.mkdtemp(prefix="rllm-verl-"), "placeholder.parquet")
    frame = pandas.DataFrame(
        {
            "data_source": ["rllm"] * rows,
            "prompt": [[{"role": "user", "content": "placeholder"}]] * rows,
            "ability": ["bridge"] * rows,
            "reward_model": [{"style": "rule", "ground_truth": ""}] * rows,
            "extra_info": [{"split": "train", "index": index} for index in range(rows)],
        }
    )
    frame.to_parquet(path)
    return path


@ray.remote(num_cpus=1)
class BridgeTaskRunner:
    """verl's TaskRunner, run with BridgeTrainer patched in where it looks up RayPPOTrainer."""

    def run(self, config) -> None:
        import verl.trainer.main_ppo as main_ppo
        import verl.trainer.ppo.ray_trainer as ray_trainer

        from .trainer import BridgeTrainer

        ray_trainer.RayPPOTrainer = BridgeTrainer
        if hasattr(main_ppo, "RayPPOTrainer"):
            main_ppo.RayPPOTrainer = BridgeTrainer
        runner_class = getattr(main_ppo.TaskRunner, "__ray_actor_class__", main_ppo.TaskRunner)
        runner_class().run(config)


def main() -> None:
    """Composes verl's ppo_trainer config with the command line's overrides and runs the bridge trainer."""
    import sys

    from hydra import compose, initialize_config_module
    from omegaconf import open_dict

    from .registration import check_verl_version

    check_verl_version()
    with initialize_config_module(config_module="verl.trainer.config", version_base=None):
        config = compose(config_name="ppo_trainer", overrides=sys.argv[1:])
    if config.get("rllm", {}).get("mode", "verl") == "cpu":
        from .cpu_trainer import run_cpu_bridge

        run_cpu_bridge(config)
        return
    with open_dict(config):
        if not config.data.get("train_files"):
            config.data.train_files = placeholder_dataset(int(config.data.train_batch_size) * 2)
            config.data.val_files = config.data.train_files
    if not ray.is_initialized():
        ray.init(runtime_env={"env_vars": {"TOKENIZERS_PARALLELISM": "true", "NCCL_DEBUG": "WARN"}})
    ray.get(BridgeTaskRunner.remote().run.remote(config))


if __name__ == "__main__":
    main()
