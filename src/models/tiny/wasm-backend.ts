/** Puts tfjs on the wasm backend, loading the .wasm binaries from the installed @tensorflow/tfjs-backend-wasm package. */
import * as tf from "@tensorflow/tfjs";
import { setWasmPaths } from "@tensorflow/tfjs-backend-wasm";
import { createRequire } from "node:module";
import path from "node:path";

let ready: Promise<void> | undefined;

/** Resolves once tfjs runs on wasm; safe to call many times. */
export function useWasmBackend(): Promise<void> {
  ready ??= (async () => {
    const require = createRequire(import.meta.url);
    const packageJson = require.resolve("@tensorflow/tfjs-backend-wasm/package.json");
    setWasmPaths(path.join(path.dirname(packageJson), "dist") + path.sep);
    if (!(await tf.setBackend("wasm"))) throw new Error("tfjs could not start its wasm backend");
    await tf.ready();
  })();
  return ready;
}
