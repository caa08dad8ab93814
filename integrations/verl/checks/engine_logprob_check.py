"""Log-probs and one policy update of a tiny Qwen2 model on verl's batch layout; CUDA when available, else CPU.

Standalone (``python integrations/verl/checks/engine_logprob_check.py``; rllm_verl is found next to this file). A
Qwen2-architecture model with random weights (fixed seed, tiny config) is saved to a temp dir and loaded back, so no
hub access is needed. It samples responses, records the sampler's log-probs as rllm-ts does, turns the rows into
verl's DataProto (rllm_verl.conversion), recomputes the log-probs of the sampled tokens on verl's padded layout with
``verl.utils.torch_functional.logprobs_from_logits`` (the same weights: they must match the recorded ones), computes
verl's vanilla PPO loss (``core_algos.compute_policy_loss_vanilla``), takes one AdamW step and checks the loss is
finite and the policy moved. With CUDA it also builds and initialises verl 0.9.1's FSDP engine
(``verl.workers.engine.fsdp.transformer_impl.FSDPEngineWithLMHead``) on the same model; on CPU it prints why that
engine cannot run (docs/verl.md). Exit 0 when every check passes; one line per check.
"""

from __future__ import annotations

import os
import sys
import tempfile

import torch
from transformers import Qwen2Config, Qwen2ForCausalLM

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from omegaconf import OmegaConf  # noqa: E402
from verl import DataProto  # noqa: E402  (verl 0.9.1 imports ray here: verl/__init__.py -> verl.protocol)
from verl.trainer.ppo import core_algos  # noqa: E402
from verl.utils.torch_functional import logprobs_from_logits  # noqa: E402

from rllm_verl.conversion import rows_to_batch  # noqa: E402

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
PROMPTS = [[5, 17, 42, 9], [7, 3], [11, 12, 13, 14, 15, 16]]
RESPONSE_TOKENS = 6
TOLERANCE = 1e-4 if DEVICE == "cpu" else 2e-3  # float32 on CPU; on GPU, kernels differ between generate and forward


def tiny_model(directory: str) -> Qwen2ForCausalLM:
    torch.manual_seed(36)
    config = Qwen2Config(vocab_size=128, hidden_size=64, intermediate_size=128, num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=128, tie_word_embeddings=True)
    Qwen2ForCausalLM(config).save_pretrained(directory)
    return Qwen2ForCausalLM.from_pretrained(directory, torch_dtype=torch.float32, attn_implementation="eager").to(DEVICE)


def sample_rows(model: Qwen2ForCausalLM) -> list[dict]:
    """One sampled response per prompt, with the sampler's log-probs of each sampled token (temperature 1, no top-k/p)."""
    generator = torch.Generator(device="cpu").manual_seed(7)
    rows = []
    for index, prompt in enumerate(PROMPTS):
        tokens, logprobs = list(prompt), [0.0] * len(prompt)
        with torch.no_grad():
            for _ in range(RESPONSE_TOKENS):
                logits = model(torch.tensor([tokens], device=DEVICE)).logits[0, -1].float().cpu()
                distribution = torch.log_softmax(logits, dim=-1)
                token = int(torch.multinomial(distribution.exp(), 1, generator=generator))
                tokens.append(token)
                logprobs.append(float(distribution[token]))
        rows.append({"tokens": tokens, "lossMask": [0] * len(prompt) + [1] * RESPONSE_TOKENS, "samplerLogprobs": logprobs, "promptLength": len(prompt), "advantage": [1.0, -0.5, -0.5][index], "reward": [1.0, 0.0, 0.0][index], "groupKey": "t1:solver", "role": "solver"})
    return rows


def response_logprobs(model: Qwen2ForCausalLM, batch: DataProto) -> torch.Tensor:
    """Log-probs of the response tokens on verl's left-padded prompt + right-padded response layout, [B, R]."""
    tensors = batch.batch
    logits = model(input_ids=tensors["input_ids"].to(DEVICE), attention_mask=tensors["attention_mask"].to(DEVICE), position_ids=tensors["position_ids"].to(DEVICE)).logits
    width = tensors["responses"].shape[1]
    # The logit at position t predicts token t + 1: the response's predictions start one position before it.
    return logprobs_from_logits(logits[:, -width - 1 : -1].float(), tensors["responses"].to(DEVICE))


def check(name: str, passed: bool, detail: str) -> bool:
    print(f"{'ok  ' if passed else 'FAIL'} {name}: {detail}", flush=True)
    return passed


def engine_check(model_path: str, batch: DataProto, recorded: torch.Tensor, mask: torch.Tensor) -> bool:
    """Builds verl's FSDP engine for the model (CUDA only; one process, world size 1) and recomputes the sampled tokens'
    log-probs with the module the engine built: the same weights, so they must match the recorded ones."""
    if DEVICE != "cuda":
        return check(
            "verl FSDP engine",
            True,
            "skipped on CPU: verl 0.9.1 falls back to its CUDA platform when no accelerator is found, and the engine's "
            "device mesh calls torch.cuda.set_device (verl/workers/engine/fsdp/utils.py create_device_mesh)",
        )
    import torch.distributed as distributed
    from verl.trainer.config import CheckpointConfig
    from verl.workers.config import FSDPEngineConfig, FSDPOptimizerConfig, HFModelConfig
    from verl.workers.engine import EngineRegistry

    os.environ.update(RANK="0", WORLD_SIZE="1", LOCAL_RANK="0", MASTER_ADDR="127.0.0.1", MASTER_PORT=os.environ.get("MASTER_PORT", "29536"))
    if not distributed.is_initialized():
        distributed.init_process_group("nccl", rank=0, world_size=1)
    engine = EngineRegistry.new(
        model_type="language_model",
        backend="fsdp",
        # Eager attention: verl defaults to flash_attention_2, which needs the flash-attn package.
        model_config=HFModelConfig(path=model_path, load_tokenizer=False, override_config={"attn_implementation": "eager"}),
        engine_config=FSDPEngineConfig(strategy="fsdp"),
        optimizer_config=FSDPOptimizerConfig(lr=1e-3),
        checkpoint_config=CheckpointConfig(),
    )
    engine.initialize()
    check("verl FSDP engine", True, f"{type(engine).__name__} initialised on {DEVICE}")
    engine.module.eval()
    with torch.no_grad():
        through_engine = response_logprobs(engine.module, batch).float()
    difference = float(((through_engine - recorded).abs() * mask).max())
    # The engine runs its module in bf16 mixed precision (verl's default), so the match is to bf16's precision.
    return check("log-probs through verl's FSDP engine", difference <= 0.05, f"max |engine - recorded| = {difference:.2e} ({next(engine.module.parameters()).dtype} parameters)")


def main() -> int:
    torch.backends.cuda.matmul.allow_tf32 = False
    directory = tempfile.mkdtemp(prefix="rllm-tiny-qwen2-")
    model = tiny_model(directory)
    rows = sample_rows(model)
    tensors, non_tensors = rows_to_batch(rows)
    batch = DataProto.from_dict(tensors=tensors, non_tensors=non_tensors)
    batch.check_consistency()
    mask = batch.batch["response_mask"].to(DEVICE)
    recorded = batch.batch["rollout_log_probs"].to(DEVICE)

    model.eval()
    with torch.no_grad():
        recomputed = response_logprobs(model, batch)
    difference = float(((recomputed - recorded).abs() * mask).max())
    results = [check("log-probs of the sampled tokens", difference <= TOLERANCE, f"max |recomputed - recorded| = {difference:.2e} on {DEVICE} (limit {TOLERANCE:g})")]

    model.train()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    loss_config = OmegaConf.create({"clip_ratio": 0.2, "clip_ratio_low": 0.2, "clip_ratio_high": 0.28, "clip_ratio_c": 3.0, "global_batch_info": {}})
    log_probs = response_logprobs(model, batch)
    loss, _ = core_algos.compute_policy_loss_vanilla(old_log_prob=recorded, log_prob=log_probs, advantages=batch.batch["advantages"].to(DEVICE), response_mask=mask, loss_agg_mode="token-mean", config=loss_config)
    loss.backward()
    optimizer.step()
    results.append(check("policy loss", bool(torch.isfinite(loss)), f"verl vanilla PPO loss {float(loss):.6f}"))
    with torch.no_grad():
        after = response_logprobs(model, batch)
    moved = float(((after - recomputed).abs() * mask).max())
    # A positive advantage on row 0: one step must raise its sampled tokens' log-probs on average.
    gain = float(((after - recomputed)[0] * mask[0]).sum() / mask[0].sum())
    results.append(check("one update", moved > 0 and gain > 0 and bool(torch.isfinite(after).all()), f"log-probs moved up to {moved:.2e}; row 0 (advantage +1) mean change {gain:+.2e}"))
    results.append(engine_check(directory, batch, recorded, mask))
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
