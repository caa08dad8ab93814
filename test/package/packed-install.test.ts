/**
 * The package as a user gets it: `npm pack`, unpacked into a project folder outside the repository, imported by plain
 * Node (no tsx) and used by a cookbook of the user's own through `rllm eval`.
 */
import { execFileSync, spawn } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codeBlockTextAfter } from "../helpers/doc-code-block.js";
import { createLoadRecorder } from "../helpers/record-loads.js";
import { startScriptedServer, type ScriptedServer } from "../helpers/scripted-openai-server.js";

const repository = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const folder = mkdtempSync(path.join(tmpdir(), "rllm-packed-"));
const project = path.join(folder, "project");

/**
 * Unpacks the tarball as node_modules/rllm-ts, as npm install would. The dependencies are links to the repository's
 * own node_modules (same pinned versions): installing them would need the network, which tests may not use.
 */
function installTarball(tarball: string, into: string, omitted: readonly string[] = []): void {
  const modules = path.join(into, "node_modules");
  mkdirSync(modules, { recursive: true });
  execFileSync("tar", ["-xzf", tarball, "-C", modules]);
  renameSync(path.join(modules, "package"), path.join(modules, "rllm-ts"));
  for (const entry of readdirSync(path.join(repository, "node_modules"))) {
    if (entry.startsWith(".") || entry === "rllm-ts" || omitted.includes(entry)) continue;
    symlinkSync(path.join(repository, "node_modules", entry), path.join(modules, entry));
  }
}

function runNode(args: string[], environment: NodeJS.ProcessEnv = {}, cwd = project): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, args, { cwd, env: { ...process.env, ...environment }, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

let server: ScriptedServer;
let tarball: string;

beforeAll(async () => {
  // prepack builds dist/ first; --silent leaves only the tarball's file name on stdout.
  const packed = execFileSync("npm", ["pack", "--pack-destination", folder, "--silent"], { cwd: repository, encoding: "utf8" }).trim();
  tarball = path.join(folder, packed.split("\n").at(-1)!);
  mkdirSync(project);
  installTarball(tarball, project);
  server = await startScriptedServer(() => ({ text: "the answer is 4" }));
}, 300_000);

afterAll(async () => {
  await server?.close();
  rmSync(folder, { recursive: true, force: true });
});

describe("the packed package", () => {
  it("ships the build, the data and the bin, and no tests or sources", () => {
    const root = path.join(project, "node_modules/rllm-ts");
    const shipped = readdirSync(root).sort();
    expect(shipped).toEqual(["README.md", "benchmarks", "bin", "cookbooks", "dist", "package.json", "src"]);
    // Only data read from the package root: the tiny model's checkpoint, the Tinker wire schema and the sandbox's Python runtime.
    expect(readdirSync(path.join(root, "src")).sort()).toEqual(["llm", "models", "sandbox"]);
    expect(readdirSync(path.join(root, "src/llm"), { recursive: true }).filter((file) => String(file).includes("."))).toEqual([
      path.join("tinker", "tinker-public.proto"),
    ]);
    const runtime = readdirSync(path.join(root, "src/sandbox"), { recursive: true }).filter((file) => String(file).includes("."));
    expect(runtime.every((file) => String(file).startsWith(path.join("local", "python")) && String(file).endsWith(".py"))).toBe(true);
    expect(readdirSync(path.join(root, "dist/src"))).not.toContain("testing.test.js");
    expect(readdirSync(root, { recursive: true }).some((file) => String(file).startsWith("test"))).toBe(false);
  });

  it("imports with plain Node, with no tsx and no TensorFlow loaded by the root entry", async () => {
    const recorder = createLoadRecorder(folder, "root");
    const script = 'const m = await import("rllm-ts"); console.log(typeof m.runEval, typeof m.createOpenAiClient, typeof m.stepFromChat);';
    const result = await runNode([...recorder.args, "--input-type=module", "-e", script], recorder.environment);
    expect(result.stderr).toBe("");
    expect(result.stdout.trim()).toBe("function function function");
    const loaded = recorder.loaded();
    expect(loaded.some((url) => url.includes("/node_modules/rllm-ts/dist/src/index.js"))).toBe(true);
    expect(loaded.filter((url) => url.includes("@tensorflow"))).toEqual([]);
    expect(loaded.filter((url) => url.includes("/tsx/"))).toEqual([]);
  });

  it("resolves every subpath to the build, with types beside it", async () => {
    const manifest = JSON.parse(readFileSync(path.join(project, "node_modules/rllm-ts/package.json"), "utf8"));
    // Every entry the manifest lists (the plugins' own, rllm-ts/core and the rest, among them), bar the root and the manifest.
    const subpaths = Object.keys(manifest.exports)
      .filter((key) => key !== "." && key !== "./package.json")
      .map((key) => `rllm-ts/${key.slice(2)}`);
    expect(subpaths).toEqual(expect.arrayContaining(["rllm-ts/core", "rllm-ts/flows", "rllm-ts/verifiers/math", "rllm-ts/benchmarks/finqa"]));
    const script = `for (const name of ${JSON.stringify(subpaths)}) console.log(name, Object.keys(await import(name)).length > 0);`;
    const result = await runNode(["--input-type=module", "-e", script]);
    expect(result.stderr).toBe("");
    expect(result.stdout.trim().split("\n")).toEqual(subpaths.map((name) => `${name} true`));
    for (const entry of Object.values(manifest.exports as Record<string, { types?: string }>)) {
      if (typeof entry === "object") readFileSync(path.join(project, "node_modules/rllm-ts", entry.types!));
    }
  });

  it("grades math rows under rllm grade with no tsx and no TensorFlow, in the main thread or the grading threads", async () => {
    const rows = path.join(folder, "math-rows.jsonl");
    writeFileSync(rows, `${JSON.stringify({ id: 1, response: "\\boxed{\\frac{1}{2}}", ground_truth: "0.5" })}\n`);
    const recorder = createLoadRecorder(folder, "grade");
    const bin = path.join(project, "node_modules/rllm-ts/bin/rllm.js");
    const result = await runNode([...recorder.args, bin, "grade", "--verifier", "math", "--input", rows], recorder.environment);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout.split("\n")[0]!)).toMatchObject({ id: 1, isCorrect: true });
    const loaded = recorder.loaded();
    expect(loaded.some((url) => url.endsWith("/dist/verifiers/math/math-worker.js"))).toBe(true);
    expect(loaded.filter((url) => url.includes("/tsx/") || url.includes("@tensorflow"))).toEqual([]);
  });

  for (const moduleType of ["module", "commonjs"] as const) {
    it(`runs a cookbook of the user's own that imports rllm-ts under rllm eval (package type ${moduleType})`, async () => {
      writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "user-project", private: true, type: moduleType }));
      copyFileSync(path.join(repository, "test/fixtures/user-cookbook.ts"), path.join(project, "my-cookbook.ts"));
      const out = path.join(folder, `run-${moduleType}`);
      const bin = path.join(project, "node_modules/rllm-ts/bin/rllm.js");
      const args = [bin, "eval", "qa", "--cookbook", "./my-cookbook.ts", "--base-url", server.url, "--model", "scripted", "--limit", "2", "--out", out];
      const result = await runNode(args);
      expect(result.code, result.stderr).toBe(0);
      const episode = JSON.parse(readFileSync(path.join(out, "episodes.jsonl"), "utf8").split("\n")[0]!);
      expect(episode.trajectories[0].name).toBe("shouter");
      expect(episode.trajectories[0].output).toBe("THE ANSWER IS 4");
    });
  }

  it("runs docs/package.md's library eval example as written in a project made by npm init -y, and again after a failed first run", async () => {
    const library = path.join(folder, "library-project");
    mkdirSync(library);
    installTarball(tarball, library);
    // What `npm init -y` writes: a CommonJS project.
    writeFileSync(path.join(library, "package.json"), JSON.stringify({ name: "library-project", version: "1.0.0", main: "index.js", type: "commonjs" }));
    const page = readFileSync(path.join(repository, "docs/package.md"), "utf8");
    writeFileSync(path.join(library, "my-cookbook.ts"), codeBlockTextAfter(page, "`my-cookbook.ts`:"));
    writeFileSync(path.join(library, "lib-eval.ts"), codeBlockTextAfter(page, "### Running an eval from code"));
    // `npx tsx lib-eval.ts`: npm puts tsx (a dependency of rllm-ts) on the path; here it is run by its file.
    const tsx = path.join(library, "node_modules/tsx/dist/cli.mjs");
    const home = path.join(folder, "library-home");

    // The first run meets an endpoint that refuses the key: the run stops, and its folder holds a run.
    const refusing = createServer((_request, response) => response.writeHead(401, { "content-type": "application/json" }).end('{"error":{"message":"bad key"}}'));
    await new Promise<void>((resolve) => refusing.listen(0, "127.0.0.1", resolve));
    const refusingUrl = `http://127.0.0.1:${(refusing.address() as AddressInfo).port}/v1`;
    const failed = await runNode([tsx, "lib-eval.ts"], { OPENAI_BASE_URL: refusingUrl, RLLM_HOME: home }, library).finally(() => refusing.close());
    expect(failed.code, failed.stdout + failed.stderr).toBe(1);
    expect(failed.stderr).not.toContain("Top-level await");
    expect(readdirSync(path.join(library, "runs/echo-upper"))).toContain("config.json");

    // Run as it is again, against a working endpoint, it finishes that run.
    const rerun = await runNode([tsx, "lib-eval.ts"], { OPENAI_BASE_URL: server.url, RLLM_HOME: home }, library);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stderr).not.toContain("already holds a run");
    expect(rerun.stdout).toMatch(/^complete /);
    const summary = JSON.parse(readFileSync(path.join(library, "runs/echo-upper/summary.json"), "utf8"));
    expect(summary).toMatchObject({ status: "complete", counts: { tasks: 2 } });
  });

  it("installed without its optional TensorFlow.js and node-llama-cpp, loads every entry but rllm-ts/tiny, and the embedded model says in one line how to add it", async () => {
    // What `npm install rllm-ts --omit=optional` leaves out: the @tensorflow packages and node-llama-cpp.
    const lean = path.join(folder, "lean-project");
    mkdirSync(lean);
    installTarball(tarball, lean, ["@tensorflow", "node-llama-cpp"]);
    writeFileSync(path.join(lean, "package.json"), JSON.stringify({ name: "lean-project", private: true, type: "module" }));
    const manifest = JSON.parse(readFileSync(path.join(lean, "node_modules/rllm-ts/package.json"), "utf8"));
    expect(Object.keys(manifest.optionalDependencies)).toEqual(["@tensorflow/tfjs", "@tensorflow/tfjs-backend-wasm", "node-llama-cpp"]);
    expect(Object.keys(manifest.dependencies).filter((name) => name.startsWith("@tensorflow/") || name === "node-llama-cpp")).toEqual([]);
    const entries = Object.keys(manifest.exports)
      .filter((key) => key !== "./package.json" && key !== "./tiny")
      .map((key) => (key === "." ? "rllm-ts" : `rllm-ts/${key.slice(2)}`));
    const imported = await runNode(["--input-type=module", "-e", `for (const name of ${JSON.stringify(entries)}) await import(name); console.log("loaded");`], {}, lean);
    expect(imported.stderr).toBe("");
    expect(imported.stdout.trim()).toBe("loaded");

    const bin = path.join(lean, "node_modules/rllm-ts/bin/rllm.js");
    const needsTensorflow = /^rllm: the embedded tiny model needs TensorFlow\.js, an optional dependency this install left out \(--omit=optional\); add it with: npm install @tensorflow\/tfjs@4\.22\.0 @tensorflow\/tfjs-backend-wasm@4\.22\.0$/;
    for (const args of [["eval", "arith", "--limit", "1", "--out", path.join(folder, "lean-run")], ["serve", "--model", "tiny", "--port", "0"]]) {
      const result = await runNode([bin, ...args], { RLLM_HOME: path.join(folder, "lean-home") }, lean);
      expect(result.code, args.join(" ")).toBe(1);
      expect(result.stderr.trim()).toMatch(needsTensorflow);
    }
    // An endpoint of your own needs no TensorFlow.
    const remote = await runNode([bin, "eval", "qa", "--limit", "1", "--base-url", server.url, "--model", "scripted", "--out", path.join(folder, "lean-remote")], { RLLM_HOME: path.join(folder, "lean-home") }, lean);
    expect(remote.code, remote.stderr).toBe(0);
  });

  it("writes a run's report with the browser code the build copies beside the compiled viewer", async () => {
    const bin = path.join(project, "node_modules/rllm-ts/bin/rllm.js");
    const report = path.join(folder, "report.html");
    const result = await runNode([bin, "view", path.join(folder, "run-module"), "--out", report]);
    expect(result.code, result.stderr).toBe(0);
    expect(readFileSync(report, "utf8")).toContain("view.renderTasks = ");
  });
});
