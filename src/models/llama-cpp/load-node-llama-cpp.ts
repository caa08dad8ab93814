/**
 * node-llama-cpp, loaded only when a GGUF model runs. It is an optional dependency (its prebuilt llama.cpp binaries
 * take about 730 MB, 540 MB of them CUDA builds), so a missing install is a usage error that says how to add it.
 */
import { readFileSync } from "node:fs";
import { InputError } from "../../core/errors/input-error.js";
import { packagePath } from "../../core/package-root.js";

type NodeLlamaCpp = typeof import("node-llama-cpp");

/** The module (`load` imports it), or a usage error naming the install command when it is absent. */
export async function loadNodeLlamaCpp(load: () => Promise<NodeLlamaCpp> = () => import("node-llama-cpp")): Promise<NodeLlamaCpp> {
  try {
    return await load();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if ((code !== "ERR_MODULE_NOT_FOUND" && code !== "MODULE_NOT_FOUND") || !/['"]node-llama-cpp['"]/.test(String((error as Error).message))) throw error;
    throw new InputError(
      `GGUF models run on node-llama-cpp, an optional dependency this install left out: npm install -E ${pinnedPackage()} ` +
        "(prebuilt llama.cpp for CPU, CUDA and Vulkan; nothing is compiled)",
    );
  }
}

// The exact version package.json pins: newer releases' builds for other platforms can make `npm ci` refuse the lock.
function pinnedPackage(): string {
  const manifest = JSON.parse(readFileSync(packagePath("package.json"), "utf8")) as { optionalDependencies?: Record<string, string> };
  const version = manifest.optionalDependencies?.["node-llama-cpp"];
  return version ? `node-llama-cpp@${version}` : "node-llama-cpp";
}
