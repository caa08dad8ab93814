"""tinker-cookbook's tokenizer, renderer and datasets resolved locally for `smollm2-135m`, the real model the local
server trains: no hub. The tokenizer is the model's own (the files the server's torch worker writes beside the pulled
GGUF); the renderer is the cookbook's own ChatML renderer `qwen3_instruct` (SmolLM2's template without its default
system prompt), named explicitly since the model is not in model_info's table; the datasets are one-digit additions in
the shapes the recipes read (no_robots `messages`, gsm8k `question`/`answer`)."""

import os
import random
from pathlib import Path

import datasets
from tinker_cookbook import model_info
from tinker_cookbook.tokenizer_utils import register_tokenizer

MODEL = "smollm2-135m"
RENDERER = "qwen3_instruct"


def tokenizer_directory() -> str:
    home = os.environ.get("RLLM_HOME") or str(Path.home() / ".cache" / "rllm-ts")
    return str(Path(home) / "models" / MODEL / "tokenizer")


def addition_rows(count: int, seed: int) -> list[tuple[str, int]]:
    rng = random.Random(seed)
    return [(f"What is {a} + {b}?", a + b) for a, b in ((rng.randint(0, 9), rng.randint(0, 9)) for _ in range(count))]


def install(count: int = 64) -> None:
    """Registers the tokenizer, names the renderer for the model, and points the recipes' dataset loads at local rows."""
    from transformers import AutoTokenizer

    register_tokenizer(MODEL, lambda: AutoTokenizer.from_pretrained(tokenizer_directory()))
    recommended = model_info.get_recommended_renderer_name
    model_info.get_recommended_renderer_name = lambda name: RENDERER if name == MODEL else recommended(name)
    rows = addition_rows(count, seed=0)
    local = {
        "HuggingFaceH4/no_robots": {"messages": [[{"role": "user", "content": q}, {"role": "assistant", "content": f"The answer is {a}."}] for q, a in rows]},
        "openai/gsm8k": {"question": [q for q, _ in rows], "answer": [f"#### {a}" for _, a in rows]},
    }
    load = datasets.load_dataset

    def load_dataset(path, *args, **kwargs):
        if path in local:
            return datasets.DatasetDict({"train": datasets.Dataset.from_dict(local[path])})
        return load(path, *args, **kwargs)

    datasets.load_dataset = load_dataset
