"""Fixtures for driving `rllm serve --tinker --base-model smollm2-135m` (a real model: LoRA in a torch worker, sampling on
llama.cpp) with the official tinker SDK. The server is the same process a user starts, on 127.0.0.1; its torch worker
runs in this Python (the ml environment). The model must be pulled (`rllm models pull smollm2-135m`; the vitest wrapper
does it)."""

import importlib.util
import sys
from pathlib import Path

import pytest
import tinker

# The server process helper of the tiny-model suite, loaded under its own name (both folders have a conftest module).
_spec = importlib.util.spec_from_file_location("tinker_suite_conftest", Path(__file__).resolve().parents[1] / "tinker" / "conftest.py")
_suite = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_suite)
RllmTinkerServer = _suite.RllmTinkerServer

MODEL = "smollm2-135m"
API_KEY = "tml-local-real-model-suite"


@pytest.fixture(scope="session")
def server():
    # One thread: the test machine is shared; more threads than free cores make llama.cpp and torch spin.
    started = RllmTinkerServer("--base-model", MODEL, "--python", sys.executable, "--threads", "1")
    yield started
    started.stop()


@pytest.fixture(scope="session")
def service_client(server):
    return tinker.ServiceClient(base_url=server.url, api_key=API_KEY)


@pytest.fixture(scope="session")
def tokenizer():
    """The model's tokenizer as the server's worker wrote it beside the GGUF (tokenizer.json, chat template)."""
    from transformers import AutoTokenizer

    from smollm2_cookbook import tokenizer_directory

    return AutoTokenizer.from_pretrained(tokenizer_directory())
