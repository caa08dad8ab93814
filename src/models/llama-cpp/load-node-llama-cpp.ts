/**
 * node-llama-cpp, loaded only when a GGUF model runs. It is an optional dependency (its prebuilt llama.cpp binaries
 * take about 730 MB, 540 MB of them CUDA builds), so a missing install is a usage error that says how to add it.
 */
import { InputError } from "../../core/errors/input-error.js";

/** The version the lock pins; newer releases' builds for other platforms can make `npm ci` refuse the lock. */
export const NODE_LLAMA_CPP_VERSION = "3.21.1";

/** The module, or a usage error naming the install command when it is absent. */
export async function loadNodeLlamaCpp(): Promise<typeof import("node-llama-cpp")> {
  try {
    return await import("node-llama-cpp");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ERR_MODULE_NOT_FOUND") throw error;
    throw new InputError(
      `GGUF models run on node-llama-cpp, an optional dependency that is not installed: npm install -E node-llama-cpp@${NODE_LLAMA_CPP_VERSION} ` +
        "(prebuilt llama.cpp for CPU, CUDA and Vulkan; nothing is compiled)",
    );
  }
}
