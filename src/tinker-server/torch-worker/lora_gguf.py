"""A peft LoRA adapter written as a llama.cpp LoRA adapter GGUF, so that llama.cpp samples with the trained weights.

The layout is what llama.cpp's own converter (convert_lora_to_gguf.py) writes and its adapter loader checks:
general.type "adapter", adapter.type "lora", adapter.lora.alpha, and for each adapted matrix W (out x in) the tensors
<gguf name>.weight.lora_a (rank x in) and .lora_b (out x rank). llama.cpp stores q and k rows permuted for its rotary
embedding (transformers undoes it when it reads a GGUF), so lora_b of q_proj and k_proj gets the same permutation.
"""

import gguf
import torch

# Hugging Face Llama module names and llama.cpp's tensor names for them.
GGUF_NAMES = {
    "self_attn.q_proj": "attn_q",
    "self_attn.k_proj": "attn_k",
    "self_attn.v_proj": "attn_v",
    "self_attn.o_proj": "attn_output",
    "mlp.gate_proj": "ffn_gate",
    "mlp.up_proj": "ffn_up",
    "mlp.down_proj": "ffn_down",
}


def rotary_permute(rows: torch.Tensor, heads: int) -> torch.Tensor:
    """llama.cpp's row order for q/k (convert_hf_to_gguf's LlamaModel.permute), applied to a matrix's output rows."""
    size = rows.shape[0] // heads // 2
    return rows.reshape(heads, 2, size, *rows.shape[1:]).swapaxes(1, 2).reshape(rows.shape)


def write_lora_gguf(path: str, adapters: dict[str, tuple[torch.Tensor, torch.Tensor]], alpha: float, heads: int, kv_heads: int) -> None:
    """Writes `adapters` ({"model.layers.3.self_attn.q_proj": (A, B)}) as a llama adapter GGUF at `path`."""
    writer = gguf.GGUFWriter(path, arch="llama")
    writer.add_type(gguf.GGUFType.ADAPTER)
    writer.add_string(gguf.Keys.Adapter.TYPE, "lora")
    writer.add_float32(gguf.Keys.Adapter.LORA_ALPHA, float(alpha))
    for module, (lora_a, lora_b) in sorted(adapters.items()):
        layer = int(module.split(".")[2])
        local = ".".join(module.split(".")[3:])
        if local == "self_attn.q_proj":
            lora_b = rotary_permute(lora_b, heads)
        elif local == "self_attn.k_proj":
            lora_b = rotary_permute(lora_b, kv_heads)
        name = f"blk.{layer}.{GGUF_NAMES[local]}.weight"
        writer.add_tensor(f"{name}.lora_a", lora_a.detach().to("cpu", torch.float32).contiguous().numpy())
        writer.add_tensor(f"{name}.lora_b", lora_b.detach().to("cpu", torch.float32).contiguous().numpy())
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
