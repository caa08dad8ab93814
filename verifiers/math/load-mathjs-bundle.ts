/**
 * Loads mathjs from its single-file bundle, which loads in a tenth of the time of its ES module tree (hundreds of
 * modules): each call gives a fresh, independent instance. The build saves V8's code cache for the bundle after a
 * warm-up (`saveMathjsCodeCache`), so that a grading thread of the build skips compiling what the warm-up compiled.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { Script } from "node:vm";
import type { MathJsInstance } from "mathjs";

const require = createRequire(import.meta.url);
const bundlePath = require.resolve("mathjs/lib/browser/math.js");
// The package's root found through its own "./package.json" export (the checkout, or the installed package), not
// through rllm-ts/core's packagePath: a grading thread loads this module, and importing core would load zod there too.
const packageRoot = path.dirname(require.resolve("rllm-ts/package.json"));
const cachePath = path.join(packageRoot, "dist", "mathjs-bundle.code-cache");
// V8 checks a cache against the source's length only, so the cache is used only for the exact bundle and V8 it was
// made from: its key names both.
const keyPath = `${cachePath}.json`;
let script: Script | undefined;
let cacheKey: string | undefined;

/** A new mathjs instance (default configuration). */
export function loadMathjsBundle(): MathJsInstance {
  script ??= compileBundle();
  const module = { exports: {} as MathJsInstance };
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(module.exports, module.exports, require, module, bundlePath, path.dirname(bundlePath));
  return module.exports;
}

/** Writes V8's code cache for the bundle as compiled so far (call it after a warm-up), keyed to this bundle and V8. */
export function saveMathjsCodeCache(): void {
  script ??= compileBundle();
  writeFileSync(cachePath, script.createCachedData());
  writeFileSync(keyPath, JSON.stringify({ key: cacheKey }));
}

function compileBundle(): Script {
  const source = readFileSync(bundlePath, "utf8");
  cacheKey = `${process.versions.v8} ${createHash("sha256").update(source).digest("hex")}`;
  const cachedData = existsSync(keyPath) && readCacheKey() === cacheKey ? readFileSync(cachePath) : undefined;
  // The CommonJS wrapper, as require() compiles a module.
  const wrapped = `(function (exports, require, module, __filename, __dirname) { ${source}\n})`;
  return new Script(wrapped, { filename: bundlePath, cachedData });
}

function readCacheKey(): string | undefined {
  try {
    return (JSON.parse(readFileSync(keyPath, "utf8")) as { key?: string }).key;
  } catch {
    return undefined;
  }
}
