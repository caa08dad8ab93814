/**
 * TensorFlow.js is an optional dependency: installed by default, left out by `npm install --omit=optional` (a library
 * install that never runs the embedded model is ~290 MB lighter). Every path to the tiny model's TensorFlow code goes
 * through `needsTensorflow`, so that a missing TensorFlow is one line saying how to add it, not a module-resolution trace.
 */
import { readFileSync } from "node:fs";
import { packagePath } from "../../core/package-root.js";

/** The embedded model was asked for and TensorFlow.js is not installed. */
export class TensorflowMissingError extends Error {
  constructor(readonly install: string) {
    super(`the embedded tiny model needs TensorFlow.js, an optional dependency this install left out (--omit=optional); add it with: ${install}`);
    this.name = "TensorflowMissingError";
  }
}

/** Runs `load` (a dynamic import of a module that imports TensorFlow.js), turning a missing TensorFlow into a TensorflowMissingError. */
export async function needsTensorflow<Loaded>(load: () => Promise<Loaded>): Promise<Loaded> {
  try {
    return await load();
  } catch (error) {
    if (isMissingTensorflow(error)) throw new TensorflowMissingError(installCommand());
    throw error;
  }
}

function isMissingTensorflow(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") && /@tensorflow\//.test(String((error as Error).message));
}

// The exact versions this package pins, from its own package.json.
function installCommand(): string {
  const manifest = JSON.parse(readFileSync(packagePath("package.json"), "utf8")) as { optionalDependencies?: Record<string, string> };
  const packages = Object.entries(manifest.optionalDependencies ?? {}).filter(([name]) => name.startsWith("@tensorflow/"));
  return `npm install ${packages.map(([name, version]) => `${name}@${version}`).join(" ")}`;
}
