"""tinker-cookbook's tokenizer, renderer and datasets resolved locally for `rllm/tiny`, the local server's model: no hub.

The tokenizer is the tiny model's own vocabulary (read from src/models/tiny/tokenizer.ts through node, so there is one
table); the renderer writes the tiny model's chat template (`<|role|> text <|end|>`, src/models/tiny/chat-template.ts);
the datasets are arith questions in the shape the recipes read (no_robots `messages`, gsm8k `question`/`answer`).
Everything else a recipe does (its loop, datums, losses, checkpoints) is the recipe's own code, unchanged.
"""

import random
import re

import datasets
import tinker
from tinker_cookbook import model_info, renderers
from tinker_cookbook.renderers.base import Message, ParseTermination, RenderContext, RenderedMessage, Renderer, ensure_text
from tinker_cookbook.tokenizer_utils import register_tokenizer

from conftest import tiny_vocabulary

MODEL = "rllm/tiny"
RENDERER = "rllm/tiny"


class TinyTokenizer:
    """The tiny model's tokenizer with the Hugging Face surface the cookbook calls (encode, decode, special ids)."""

    def __init__(self, vocabulary: list[str]) -> None:
        self.vocabulary = vocabulary
        self.ids = {token: index for index, token in enumerate(vocabulary)}
        # Longest multi-character pieces first, as encodeText matches them.
        self.words = sorted((token for token in vocabulary if len(token) > 1), key=len, reverse=True)
        self.all_special_ids = [index for index, token in enumerate(vocabulary) if token.startswith("<|")]
        self.eos_token = "<|end|>"
        self.eos_token_id = self.ids["<|end|>"]
        self.bos_token = None
        self.bos_token_id = None
        self.pad_token_id = self.ids["<|pad|>"]
        self.name_or_path = MODEL
        self.vocab_size = len(vocabulary)

    def encode(self, text: str, add_special_tokens: bool = True) -> list[int]:
        ids, position = [], 0
        while position < len(text):
            word = next((w for w in self.words if text.startswith(w, position)), None) if text[position] in "<\\" else None
            piece = word or text[position]
            ids.append(self.ids.get(piece, self.ids["?"]))
            position += len(piece)
        return ids

    def decode(self, ids, skip_special_tokens: bool = False) -> str:
        ids = ids.tolist() if hasattr(ids, "tolist") else list(ids)
        return "".join(self.vocabulary[i] for i in ids if 0 <= i < len(self.vocabulary) and not (skip_special_tokens and i in self.all_special_ids))

    def convert_ids_to_tokens(self, ids):
        return [self.vocabulary[i] for i in ids]


QUESTION = re.compile(r"What is\s+(-?\d+(?:\s*[-+*]\s*-?\d+)+)\s*\?", re.IGNORECASE)


class TinyRenderer(Renderer):
    """The tiny model's chat template. Like the model's own template, a user turn that asks an arith question keeps only
    its expression, and a generation prompt keeps only the last user turn: the context is 104 tokens, so a few-shot
    prefix (rl_loop's strawberry example) cannot fit."""

    def render_message(self, message: Message, ctx: RenderContext) -> RenderedMessage:
        text = ensure_text(message["content"])
        if message["role"] == "user" and (question := QUESTION.search(text)):
            text = re.sub(r"\s+", "", question.group(1))
        header = tinker.types.EncodedTextChunk(tokens=[self.tokenizer.ids[f"<|{message['role']}|>"]])
        output = [tinker.types.EncodedTextChunk(tokens=self.tokenizer.encode(text) + [self.tokenizer.eos_token_id])] if text or message["role"] != "assistant" or not ctx.is_last else []
        return RenderedMessage(header=header, output=output)

    def build_generation_prompt(self, messages, role="assistant", prefill=None):
        last_user = max(index for index, message in enumerate(messages) if message["role"] == "user")
        return super().build_generation_prompt(messages[last_user:], role, prefill)

    def get_stop_sequences(self) -> list[str]:
        # A stop string, as role_colon's is: the local server matches it on the decoded sample.
        return ["<|end|>"]

    def parse_response(self, response: list[int]):
        ended = bool(response) and response[-1] == self.tokenizer.eos_token_id
        content = self.tokenizer.decode(response[:-1] if ended else response, skip_special_tokens=True)
        return Message(role="assistant", content=content), ParseTermination.STOP_SEQUENCE if ended else ParseTermination.MALFORMED


def arith_rows(count: int, seed: int) -> list[tuple[str, int]]:
    """Two-operand arith questions the tiny model was trained on, with their answers."""
    rng = random.Random(seed)
    rows = []
    for _ in range(count):
        a, b, op = rng.randint(0, 20), rng.randint(0, 20), rng.choice("+-")
        rows.append((f"What is {a}{op}{b}?", a + b if op == "+" else a - b))
    return rows


def install(count: int = 64) -> None:
    """Registers the tokenizer and renderer, points the recipes' model lookup and dataset loads at local data."""
    tokenizer = TinyTokenizer(tiny_vocabulary())
    register_tokenizer(MODEL, lambda: tokenizer)
    renderers.register_renderer(RENDERER, lambda tokenizer, image_processor=None: TinyRenderer(tokenizer))
    recommended = model_info.get_recommended_renderer_name
    model_info.get_recommended_renderer_name = lambda name: RENDERER if name == MODEL else recommended(name)

    rows = arith_rows(count, seed=0)
    local = {
        # sl_loop reads no_robots' `messages`; rl_loop reads gsm8k's `question` and `answer` ("... #### n").
        "HuggingFaceH4/no_robots": {"messages": [[{"role": "user", "content": q}, {"role": "assistant", "content": f"\\boxed{{{a}}}"}] for q, a in rows]},
        "openai/gsm8k": {"question": [q for q, _ in rows], "answer": [f"#### {a}" for _, a in rows]},
    }
    load = datasets.load_dataset

    def load_dataset(path, *args, **kwargs):
        if path in local:
            return datasets.DatasetDict({"train": datasets.Dataset.from_dict(local[path])})
        return load(path, *args, **kwargs)

    datasets.load_dataset = load_dataset
