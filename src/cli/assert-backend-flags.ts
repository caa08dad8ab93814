/** Flags only some training backends read (`rllm train`, `rllm sft`): one given to a backend that ignores it is an error naming both. */
import { InputError } from "../core/errors/input-error.js";

const backendFlags: Record<string, { flag: string; backends: readonly string[] }> = {
  model: { flag: "--model", backends: ["tinker", "fireworks"] },
  loraRank: { flag: "--lora-rank", backends: ["tinker", "fireworks"] },
  baseUrl: { flag: "--base-url", backends: ["tinker", "fireworks"] },
  tokenizer: { flag: "--tokenizer", backends: ["tinker", "fireworks"] },
  checkpoint: { flag: "--checkpoint", backends: ["local"] },
};

/** Throws an InputError when `flags` sets a backend-specific flag that `flags.backend` does not read. */
export function assertBackendFlagsHonoured(flags: { backend: string } & Partial<Record<keyof typeof backendFlags, unknown>>): void {
  for (const [key, { flag, backends }] of Object.entries(backendFlags)) {
    if (flags[key] !== undefined && !backends.includes(flags.backend)) {
      throw new InputError(`${flag}: backend "${flags.backend}" cannot honour it (only ${backends.join(", ")})`);
    }
  }
}
