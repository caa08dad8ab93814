"""Trainable LoRA models on a GGUF's weights: the base loaded once by transformers (dequantized to float32), one peft
adapter per Tinker model, each with its own AdamW. forward_backward adds the gradient of a summed loss until optim_step
applies it, as the Tinker service does."""

import copy
import json
import os

import torch
import torch.nn.functional as F
from peft import LoraConfig, get_peft_model
from transformers import AutoModelForCausalLM, AutoTokenizer

from lora_gguf import write_lora_gguf
from tinker_losses import LOSSES, UserError, forward_loss, token_loss

# LoRA's alpha, fixed as Tinker's "LoRA Without Regret" runs fix it, so the learning rate does not depend on the rank.
LORA_ALPHA = 32
# Padded tokens per forward pass: the logits of a pass take tokens x vocabulary x 4 bytes (49152 words: 200 MB at 1024).
MICRO_BATCH_TOKENS = 1024
ATTENTION = ["q_proj", "k_proj", "v_proj", "o_proj"]
MLP = ["gate_proj", "up_proj", "down_proj"]


class GgufLoraLearners:
    """The base model and the LoRA models trained on it, by Tinker model id."""

    def __init__(self, directory: str, file: str, threads: int) -> None:
        torch.set_num_threads(threads)
        # A CUDA GPU when torch sees one (RLLM_TORCH_DEVICE overrides), else the CPU.
        self.device = torch.device(os.environ.get("RLLM_TORCH_DEVICE") or ("cuda" if torch.cuda.is_available() else "cpu"))
        self.tokenizer = AutoTokenizer.from_pretrained(directory, gguf_file=file)
        self.base = AutoModelForCausalLM.from_pretrained(directory, gguf_file=file, dtype=torch.float32).to(self.device)
        self.base.requires_grad_(False)
        self.base.config.use_cache = False
        self.peft = None
        self.adapters: dict[str, str] = {}
        self.optimizers: dict[str, torch.optim.Optimizer] = {}
        self.pending: set[str] = set()
        self.ranks: dict[str, int] = {}
        self.saved: dict[str, dict] = {}
        self.count = 0

    def describe(self) -> dict:
        config = self.base.config
        return {
            "parameters": sum(parameter.numel() for parameter in self.base.parameters()),
            "vocabulary_size": config.vocab_size,
            "context_length": config.max_position_embeddings,
            "tied_embeddings": bool(config.tie_word_embeddings),
            "device": str(self.device),
        }

    def save_tokenizer(self, directory: str) -> None:
        """tokenizer.json and tokenizer_config.json (its chat_template included), for Hugging Face readers of the model."""
        self.tokenizer.save_pretrained(directory)
        path = os.path.join(directory, "tokenizer_config.json")
        with open(path) as handle:
            config = json.load(handle)
        config["chat_template"] = self.tokenizer.chat_template
        # transformers' GGUF tokenizer conversion takes the BOS token for the EOS too (SmolLM2: <|im_start|> for both);
        # the GGUF's own eos_token_id, which the model config carries, is the one that ends a turn.
        eos = self.base.config.eos_token_id
        if isinstance(eos, int):
            config["eos_token"] = self.tokenizer.convert_ids_to_tokens(eos)
            config["eos_token_id"] = eos
        with open(path, "w") as handle:
            json.dump(config, handle, indent=2)

    def create(self, model_id: str, rank: int, seed: int, train_attn: bool, train_mlp: bool) -> dict:
        targets = (ATTENTION if train_attn else []) + (MLP if train_mlp else [])
        if not targets:
            raise UserError("create_model: train_attn and train_mlp are both off, so LoRA would train nothing")
        config = LoraConfig(r=rank, lora_alpha=LORA_ALPHA, lora_dropout=0.0, target_modules=targets, bias="none")
        adapter = f"adapter{self.count}"
        self.count += 1
        torch.manual_seed(seed)
        if self.peft is None:
            self.peft = get_peft_model(self.base, config, adapter_name=adapter)
        else:
            self.peft.add_adapter(adapter, config)
        self.adapters[model_id] = adapter
        self.ranks[model_id] = rank
        return {"trainable_parameters": sum(parameter.numel() for parameter in self._parameters(model_id))}

    def _adapter(self, model_id: str) -> str:
        adapter = self.adapters.get(model_id)
        if adapter is None:
            raise UserError(f'unknown model "{model_id}"')
        self.peft.set_adapter(adapter)
        return adapter

    def _parameters(self, model_id: str) -> list[torch.nn.Parameter]:
        adapter = self.adapters[model_id]
        return [parameter for name, parameter in self.peft.named_parameters() if f".{adapter}." in name]

    def forward_backward(self, model_id: str, loss_fn: str, config: dict, rows: list[dict], forward_only: bool) -> dict:
        if loss_fn not in LOSSES:
            raise UserError(f'loss_fn "{loss_fn}": this server computes {", ".join(LOSSES)}')
        self._adapter(model_id)
        vocabulary = self.base.config.vocab_size
        for index, row in enumerate(rows):
            if any(token < 0 or token >= vocabulary for token in row["tokens"] + row["targets"]):
                raise UserError(f"datum {index}: a token id is outside the vocabulary ({vocabulary})")
        logprobs: list[list[float]] = [[] for _ in rows]
        total, clipped, trained = 0.0, 0, 0
        for batch in micro_batches(rows):
            with torch.set_grad_enabled(not forward_only):
                batch_logprobs, inputs, mask = self._target_logprobs(rows, batch)
                if forward_only:
                    loss = forward_loss(loss_fn, batch_logprobs * mask, inputs)
                else:
                    per_token, was_clipped = token_loss(loss_fn, batch_logprobs, inputs, config)
                    loss = (per_token * mask).sum()
                    loss.backward()
                    clipped += int((was_clipped & mask.bool()).sum())
                    trained += int(((inputs["advantages"] != 0) & mask.bool()).sum()) if loss_fn != "cross_entropy" else 0
            total += float(loss.detach())
            for slot, index in enumerate(batch):
                logprobs[index] = batch_logprobs[slot, : len(rows[index]["tokens"])].detach().tolist()
        if not forward_only:
            self.pending.add(model_id)
        metrics = {"loss:sum": total}
        if loss_fn in ("ppo", "cispo") and not forward_only:
            metrics["clip_fraction:mean"] = clipped / max(1, trained)
        return {"logprobs": logprobs, "metrics": metrics}

    def _target_logprobs(self, rows: list[dict], batch: list[int]) -> tuple[torch.Tensor, dict[str, torch.Tensor], torch.Tensor]:
        """Each target's logprob given its input prefix, padded on the right; the inputs padded with zeros; the mask."""
        width = max(len(rows[index]["tokens"]) for index in batch)
        pad = lambda values: values + [0] * (width - len(values))  # noqa: E731
        device = self.device
        input_ids = torch.tensor([pad(rows[index]["tokens"]) for index in batch], device=device)
        targets = torch.tensor([pad(rows[index]["targets"]) for index in batch], device=device)
        mask = torch.tensor([pad([1.0] * len(rows[index]["tokens"])) for index in batch], device=device)
        logits = self.peft(input_ids=input_ids, attention_mask=mask.long()).logits
        logprobs = -F.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1), reduction="none").reshape(targets.shape)
        inputs = {
            name: torch.tensor([pad(rows[index].get(name) or [0.0] * len(rows[index]["tokens"])) for index in batch], dtype=torch.float32, device=device)
            for name in ("weights", "advantages", "logprobs")
        }
        return logprobs, inputs, mask

    def optim_step(self, model_id: str, adam: dict) -> dict:
        self._adapter(model_id)
        if model_id not in self.pending:
            raise UserError("optim_step with no forward_backward since the last step")
        parameters = self._parameters(model_id)
        optimizer = self.optimizers.get(model_id)
        if optimizer is None:
            optimizer = torch.optim.AdamW(parameters, lr=adam["learning_rate"])
            self.optimizers[model_id] = optimizer
        for group in optimizer.param_groups:
            group.update(lr=adam["learning_rate"], betas=(adam["beta1"], adam["beta2"]), eps=adam["eps"], weight_decay=adam["weight_decay"])
        limit = adam["grad_clip_norm"] if adam["grad_clip_norm"] > 0 else float("inf")
        norm = torch.nn.utils.clip_grad_norm_(parameters, limit)
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        self.pending.discard(model_id)
        return {"grad_norm": float(norm)}

    def save_state(self, model_id: str, path: str) -> None:
        self._adapter(model_id)
        adapter = self.adapters[model_id]
        # Saved under a placeholder for the adapter's name, so that any model can load them.
        weights = {name.replace(f".{adapter}.", ".{adapter}."): parameter.detach().clone() for name, parameter in self.peft.named_parameters() if f".{adapter}." in name}
        optimizer = self.optimizers.get(model_id)
        self.saved[path] = {"rank": self.ranks[model_id], "weights": weights, "optimizer": copy.deepcopy(optimizer.state_dict()) if optimizer else None}

    def load_state(self, model_id: str, path: str, with_optimizer: bool) -> None:
        saved = self.saved.get(path)
        if saved is None:
            raise UserError(f'unknown checkpoint path "{path}"')
        self._adapter(model_id)
        adapter = self.adapters[model_id]
        parameters = dict(self.peft.named_parameters())
        with torch.no_grad():
            for name, value in saved["weights"].items():
                parameters[name.replace(".{adapter}.", f".{adapter}.")].copy_(value)
        if with_optimizer and saved["optimizer"] is not None:
            optimizer = torch.optim.AdamW(self._parameters(model_id), lr=1e-4)
            optimizer.load_state_dict(copy.deepcopy(saved["optimizer"]))
            self.optimizers[model_id] = optimizer

    def export_adapter(self, model_id: str, path: str) -> None:
        """The model's current adapter as a llama.cpp LoRA GGUF at `path`."""
        adapter = self._adapter(model_id)
        pairs = {}
        for name, module in self.peft.named_modules():
            if hasattr(module, "lora_A") and adapter in module.lora_A:
                pairs[name.removeprefix("base_model.model.")] = (module.lora_A[adapter].weight, module.lora_B[adapter].weight)
        config = self.base.config
        write_lora_gguf(path, pairs, LORA_ALPHA, config.num_attention_heads, config.num_key_value_heads)

    def unload(self, model_id: str) -> None:
        adapter = self.adapters.pop(model_id, None)
        self.optimizers.pop(model_id, None)
        self.pending.discard(model_id)
        # peft keeps at least one adapter; the last one stays loaded, unused, until another replaces it.
        if adapter is not None and len(self.peft.peft_config) > 1:
            self.peft.delete_adapter(adapter)


def micro_batches(rows: list[dict]) -> list[list[int]]:
    """Row indices grouped, longest first, so that each group's padded size stays within MICRO_BATCH_TOKENS."""
    order = sorted(range(len(rows)), key=lambda index: -len(rows[index]["tokens"]))
    batches: list[list[int]] = []
    for index in order:
        # The group's first row is its longest, so its length is the padded width.
        if batches and len(rows[batches[-1][0]]["tokens"]) * (len(batches[-1]) + 1) <= MICRO_BATCH_TOKENS:
            batches[-1].append(index)
        else:
            batches.append([index])
    return batches
