// `npm run build` (also npm's prepare: `npm ci`, `npm pack`): compiles the sources into dist/ and stamps the build with
// what it was compiled from, so that bin/rllm.js runs dist/ only while it matches the sources.
import { spawnSync } from "node:child_process";
import { copyFileSync, cpSync, existsSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { contentDigest, fileStates, sourceFiles, stampPath, writeStamp } from "../bin/build-stamp.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
// Plain modules the compiled code loads beside itself, which tsc does not copy.
const copied = ["src/core/worker-bootstrap.mjs", "benchmarks/finqa/sql-query-process.mjs"];
// The viewer's browser code and stylesheet, which the report generator reads beside itself and inlines; the local Tinker
// server's Python worker, which it starts from beside itself.
const copiedFolders = ["src/view/client", "src/tinker-server/torch-worker"];

const files = sourceFiles(root);
const digest = await contentDigest(root, files);
const stampFile = path.join(root, stampPath);
const stamp = existsSync(stampFile) ? JSON.parse(readFileSync(stampFile, "utf8")) : undefined;
if (stamp?.contentDigest === digest) {
  // Built from these very contents: recompiling would only delete files that running commands may be loading.
  writeStamp(root, digest, fileStates(root, files));
  console.log("dist/ is up to date with the sources");
} else {
  const states = fileStates(root, files);
  rmSync(path.join(root, "dist"), { recursive: true, force: true });
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  const result = spawnSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
  for (const file of copied) copyFileSync(path.join(root, file), path.join(root, "dist", file));
  // Python's bytecode caches stay behind (a run of the worker from the sources may have left some).
  for (const folder of copiedFolders) cpSync(path.join(root, folder), path.join(root, "dist", folder), { recursive: true, filter: (source) => !source.includes("__pycache__") });
  // V8's code cache for the mathjs bundle, made after the grading threads' warm-up (verifiers/math/load-mathjs-bundle.ts).
  const dist = (file) => JSON.stringify(pathToFileURL(path.join(root, "dist", file)).href);
  const warmUp = `
    const { warmUpMathGrading } = await import(${dist("verifiers/math/warm-up-math-grading.js")});
    const { defaultMathPolicy } = await import(${dist("verifiers/math/math-policy.js")});
    const { saveMathjsCodeCache } = await import(${dist("verifiers/math/load-mathjs-bundle.js")});
    warmUpMathGrading(defaultMathPolicy);
    saveMathjsCodeCache();`;
  const cache = spawnSync(process.execPath, ["--input-type=module", "-e", warmUp], { cwd: root, stdio: "inherit" });
  if (cache.status !== 0) process.exit(cache.status ?? 1);
  // A source written while tsc ran may not be in the build: leave it unstamped, so the sources run instead.
  const after = sourceFiles(root);
  const statesAfter = fileStates(root, after);
  if (after.length !== files.length || after.some((file) => statesAfter[file] !== states[file])) {
    console.error("sources changed during the build: dist/ is left unstamped (bin/rllm.js runs the sources); build again");
    process.exit(1);
  }
  writeStamp(root, digest, states);
}
