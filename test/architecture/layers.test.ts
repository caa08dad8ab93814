/**
 * The architecture test: imports follow the data flow (dataset → task → flow → episode → verifier → scored
 * episode → metrics / reranker / trainer), no two folders import each other, no two files do, and the built-in
 * benchmarks, verifiers and cookbooks import the rest of the package only through its public entries, as a user's own
 * would.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import {
  findFileCycles,
  findFolderCycles,
  findLayerViolations,
  findPluginInternalImports,
  findPrivatePluginImports,
  readPackageEntries,
  scanImports,
  type ImportEdge,
  type LayerTable,
} from "./import-graph.js";

/**
 * The allowed layers, lowest first. A file may import its own layer and every layer of a lower rank; layers in one
 * rank sit beside each other and may not import each other. Where this differs from the first plan
 * (core ← llm ← http ← benchmarks, verifiers ← cookbooks ← engine ← metrics ← tournament ← training ← cli):
 * - `src/datasets` (hub downloads and the local cache) sits beside `src/llm`: benchmarks pull their data with it,
 *   and it needs only core.
 * - `src/metrics` sits below the engine: metrics are pure functions over episodes that need only core, and the
 *   engine computes a run's summary.json with them.
 * - `src/engine` sits below `cookbooks`: the engine runs any cookbook through the Cookbook contract in core and
 *   imports none, while cookbooks build their flows on its `singleTurnFlow`.
 * - `src/models/llama-cpp` (GGUF models on node-llama-cpp behind the model server) sits beside the tiny model, the
 *   other model the server runs; it needs core and the model server.
 * - `src/models/tiny` sits beside the engine, above benchmarks: the embedded model is trained and measured on the
 *   arith benchmark's problems. It may not import the engine, cookbooks or anything above.
 * - `src/testing` (the recording LlmClient users' tests build on) sits beside `src/http`: it needs only core.
 * - `src/view` (`rllm view` and `rllm compare` reports) sits beside training: it reads run folders and tournament
 *   records, and imports nothing of training.
 * - `src/sandbox` (the sandbox providers: local, docker, remote; and a run's resources, the pools opened on its
 *   sandbox) sits beside `src/llm`: it needs only core, and the verifiers, cookbooks, the engine and the CLI all use it.
 * - `src/sandbox-service` (`rllm sandbox serve`) sits beside the gateway: it puts the local sandbox's program slots
 *   behind SandboxFusion's HTTP API with the shared server helpers, and needs nothing else.
 * - `src/runs` (the run folder: its paths, the append-only JSONL files and their readers) sits beside `src/llm`: it
 *   needs only core, and the engine, training and the viewer all write or read run folders through it.
 * - `src/models/catalog` (models pullable by name and the local store under $RLLM_HOME/models) sits beside
 *   `src/datasets`, its counterpart for data: it needs only core.
 * - `src/models/server` (the OpenAI-compatible server in front of any served model) sits beside the gateway: it
 *   needs core and the shared HTTP helpers, and the models it serves (tiny, llama.cpp) sit above it.
 * - `src/gateway` (the recording proxy behind `rllm gateway` and training's rollouts) sits beside benchmarks: it
 *   needs core, llm and the shared HTTP helpers, and nothing of training.
 * - `src/datasets/curation` (scored episodes → SFT rows) sits beside the engine, above the rest of `src/datasets`:
 *   it selects episodes by pass@k and majority@k from `src/metrics`.
 * - `src/llm/tinker` (the Tinker wire, its HTTP client and sampling policy, the chat renderers) sits beside cookbooks,
 *   above the rest of `src/llm`: its chat endpoint needs the shared HTTP helpers, and its tiny renderer the embedded
 *   model's chat template.
 * - `src/evaluation` (the eval application: endpoint planning, the model call pipeline, cookbook configuration) sits
 *   below training, beside the viewer: `--backend tinker` reaches its policy through `src/llm/tinker`, and nothing of
 *   an eval needs training.
 * - `src/tinker-server` (the Tinker emulator over the tiny model) sits above training: it trains with training's losses.
 * - `src/index.ts` (the package's root entry) sits just below the CLI: it re-exports from every layer but the CLI.
 *
 * The package's subpath entries (`rllm-ts/core`, `/flows`, `/datasets`, `/llm`, `/verifiers/math`, …; tsconfig.json
 * lists them all) are each the index.ts of the folder whose modules it lists, so each sits in the layer of what it
 * re-exports: `rllm-ts/core` (src/core/index.ts) in core, `rllm-ts/flows` (src/engine/index.ts) in the engine,
 * `rllm-ts/verifiers/math` in verifiers. An entry above a plugin's layer is one the plugin may not import, and the
 * scanner resolves entry names to their files, so the layer check covers imports by name too: no plugin can import
 * the root entry, which re-exports the eval application, which loads the plugins' registries (a cycle).
 */
const layers: LayerTable = [
  [{ name: "core", paths: ["src/core"] }],
  [
    { name: "llm", paths: ["src/llm"] },
    { name: "datasets", paths: ["src/datasets"] },
    { name: "runs", paths: ["src/runs"] },
    { name: "model catalog", paths: ["src/models/catalog"] },
    { name: "sandbox", paths: ["src/sandbox"] },
  ],
  [
    { name: "http", paths: ["src/http"] },
    { name: "testing", paths: ["src/testing"] },
  ],
  [
    { name: "benchmarks", paths: ["benchmarks"] },
    { name: "verifiers", paths: ["verifiers"] },
    { name: "gateway", paths: ["src/gateway"] },
    { name: "model server", paths: ["src/models/server"] },
    { name: "sandbox service", paths: ["src/sandbox-service"] },
  ],
  [{ name: "metrics", paths: ["src/metrics"] }],
  [
    { name: "engine", paths: ["src/engine"] },
    { name: "tiny", paths: ["src/models/tiny"] },
    { name: "llama.cpp", paths: ["src/models/llama-cpp"] },
    { name: "curation", paths: ["src/datasets/curation"] },
  ],
  [
    { name: "cookbooks", paths: ["cookbooks"] },
    { name: "tinker client", paths: ["src/llm/tinker"] },
  ],
  [{ name: "tournament", paths: ["src/tournament"] }],
  [
    { name: "evaluation", paths: ["src/evaluation"] },
    { name: "view", paths: ["src/view"] },
  ],
  [{ name: "training", paths: ["src/training"] }],
  [{ name: "tinker-server", paths: ["src/tinker-server"] }],
  [{ name: "package entry", paths: ["src/index.ts"] }],
  [{ name: "cli", paths: ["src/cli"] }],
];

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const entries = readPackageEntries(root);
const edges = scanImports(root, ["src", "verifiers", "benchmarks", "cookbooks"], entries);
// The folders of the built-in plugins, which must be built the way a user's own benchmark, verifier or cookbook is.
const pluginFolders = ["benchmarks", "verifiers", "cookbooks"];

describe("layers", () => {
  it("finds the imports it checks", () => {
    // Guards against a scanner that silently reads nothing and so passes everything.
    expect(edges.length).toBeGreaterThan(300);
    expect(edges).toContainEqual({ from: "src/engine/run-eval.ts", to: "src/core/task.js" });
    expect(edges).toContainEqual({ from: "cookbooks/arith/index.ts", to: "src/engine/index.ts", entry: "rllm-ts/flows" });
  });

  it("has no plugin that imports src/ internals or another plugin kind's files by path", () => {
    expect(findPrivatePluginImports(pluginFolders, edges)).toEqual([]);
  });

  it("has no src/ file that reaches inside a plugin other than through its kind's registry or its public entry", () => {
    expect(findPluginInternalImports(pluginFolders, entries, edges)).toEqual([]);
  });

  it("has no import that runs against the layers", () => {
    expect(findLayerViolations(layers, edges)).toEqual([]);
  });

  it("has no cycle between folders", () => {
    expect(findFolderCycles(edges)).toEqual([]);
  });

  it("has no import cycle between files", () => {
    expect(findFileCycles(edges)).toEqual([]);
  });
});

describe("the layer checker itself", () => {
  const fixture: ImportEdge[] = [
    { from: "src/engine/run-eval.ts", to: "src/core/task.js" },
    { from: "cookbooks/math/index.ts", to: "src/engine/index.ts", entry: "rllm-ts/flows" },
  ];

  it("accepts imports that flow downwards", () => {
    expect(findLayerViolations(layers, fixture)).toEqual([]);
  });

  it("reports an import that runs against the flow, naming both files and layers", () => {
    const backwards = [...fixture, { from: "src/core/episode.ts", to: "src/tournament/judge.js" }];
    expect(findLayerViolations(layers, backwards)).toEqual([
      'src/core/episode.ts imports src/tournament/judge.js: layer "core" may not import "tournament", which sits above it',
    ]);
  });

  it("reports an import between two layers that sit beside each other", () => {
    const sideways = [{ from: "src/models/tiny/server.ts", to: "src/engine/run-eval.js" }];
    expect(findLayerViolations(layers, sideways)).toEqual([
      'src/models/tiny/server.ts imports src/engine/run-eval.js: layer "tiny" may not import "engine", which sits beside it',
    ]);
  });

  it("reports a file in a folder that no layer claims", () => {
    const unclaimed = [{ from: "src/plugins/loader.ts", to: "src/core/task.js" }];
    expect(findLayerViolations(layers, unclaimed)).toEqual([
      "src/plugins/loader.ts: no layer claims this file; add its folder to the layer table",
    ]);
  });

  it("reports a plugin file that reaches src/ or another plugin kind by path, and accepts entries and its own kind", () => {
    const imports: ImportEdge[] = [
      ...fixture,
      { from: "cookbooks/math/index.ts", to: "src/engine/single-turn-flow.js" },
      { from: "cookbooks/math/math-evaluator.ts", to: "verifiers/math/grade-math.js" },
      { from: "cookbooks/math/math-evaluator.ts", to: "verifiers/math/index.ts", entry: "rllm-ts/verifiers/math" },
      { from: "cookbooks/finqa/finqa-tools.ts", to: "cookbooks/math/math-evaluator.js" },
      { from: "verifiers/math/math-grade-verifier.ts", to: "verifiers/grade-verifier.js" },
    ];
    expect(findPrivatePluginImports(pluginFolders, imports)).toEqual([
      "cookbooks/math/index.ts imports src/engine/single-turn-flow.js: a file under cookbooks/ may import other folders only through the package's entries (rllm-ts/…)",
      "cookbooks/math/math-evaluator.ts imports verifiers/math/grade-math.js: a file under cookbooks/ may import other folders only through the package's entries (rllm-ts/…)",
    ]);
  });

  it("reports a src/ file that reaches inside a plugin, and accepts a kind's registry and a plugin's entry, by name or by path", () => {
    const imports: ImportEdge[] = [
      { from: "src/evaluation/resolve-cookbook.ts", to: "cookbooks/registry.js" },
      { from: "src/cli/commands/train.ts", to: "benchmarks/resolve-benchmark.js" },
      { from: "src/tournament/majority-answers.ts", to: "verifiers/math/index.js" },
      { from: "src/tournament/other.ts", to: "verifiers/math/index.ts", entry: "rllm-ts/verifiers/math" },
      { from: "src/tournament/cookbook-judge-kind.ts", to: "cookbooks/deepcoder/index.js" },
      { from: "src/tournament/majority-answers.ts", to: "verifiers/math/extract-math-answer.js" },
      { from: "src/cli/commands/train.ts", to: "cookbooks/arith/train.json" },
      // Plugins importing plugins are the other rule's.
      { from: "cookbooks/math/math-evaluator.ts", to: "verifiers/math/grade-math.js" },
    ];
    expect(findPluginInternalImports(pluginFolders, entries, imports)).toEqual([
      "src/tournament/cookbook-judge-kind.ts imports cookbooks/deepcoder/index.js: outside cookbooks/, a plugin is reached only through cookbooks/'s registry or a public entry (rllm-ts/…)",
      "src/tournament/majority-answers.ts imports verifiers/math/extract-math-answer.js: outside verifiers/, a plugin is reached only through verifiers/'s registry or a public entry (rllm-ts/…)",
      "src/cli/commands/train.ts imports cookbooks/arith/train.json: outside cookbooks/, a plugin is reached only through cookbooks/'s registry or a public entry (rllm-ts/…)",
    ]);
  });

  it("reports a cycle between two folders, but not between a folder and its subfolder", () => {
    const cycle = [
      { from: "verifiers/math/grade-math.ts", to: "verifiers/code/extract-code.js" },
      { from: "verifiers/code/code-grader.ts", to: "verifiers/math/normalize.js" },
      { from: "verifiers/index.ts", to: "verifiers/math/index.js" },
      { from: "verifiers/math/math-grade-verifier.ts", to: "verifiers/grade-verifier.js" },
    ];
    expect(findFolderCycles(cycle)).toEqual([["verifiers/code", "verifiers/math"]]);
  });

  it("reports a cycle between files through type-only and dynamic imports, and not a chain that never returns", () => {
    const cycles = [
      // A definition loads its action lazily, and the action imports the definition's flag type back.
      { from: "src/cli/commands/view-command.ts", to: "src/cli/commands/view.js" },
      { from: "src/cli/commands/view.ts", to: "src/cli/commands/view-command.js" },
      // A registry loads a backend, which imports a type from the registry.
      { from: "src/training/backends/training-backends.ts", to: "src/training/backends/verl/create-verl-training-backend.js" },
      { from: "src/training/backends/verl/create-verl-training-backend.ts", to: "src/training/backends/verl/verl-backend.js" },
      { from: "src/training/backends/verl/verl-backend.ts", to: "src/training/backends/training-backends.js" },
      // A chain: each file imports the next, none imports back.
      { from: "src/cli/commands/sft-command.ts", to: "src/cli/commands/sft-flags.js" },
      { from: "src/cli/commands/sft.ts", to: "src/cli/commands/sft-flags.js" },
      { from: "src/cli/commands/sft-command.ts", to: "src/cli/commands/sft.js" },
    ];
    expect(findFileCycles(cycles)).toEqual([
      ["src/cli/commands/view", "src/cli/commands/view-command"],
      [
        "src/training/backends/training-backends",
        "src/training/backends/verl/create-verl-training-backend",
        "src/training/backends/verl/verl-backend",
      ],
    ]);
  });

  describe("scanning files on disk", () => {
    const folder = mkdtempSync(path.join(tmpdir(), "rllm-layers-"));
    afterAll(() => rmSync(folder, { recursive: true, force: true }));

    it("reads static, type-only, re-export and dynamic imports and skips packages", () => {
      mkdirSync(path.join(folder, "src/core"), { recursive: true });
      writeFileSync(
        path.join(folder, "src/core/episode.ts"),
        [
          'import { z } from "zod";',
          'import type { Task } from "./task.js";',
          'export { judge } from "../tournament/judge.js";',
          'const engine = await import("../engine/run-eval.js");',
        ].join("\n"),
      );
      const scanned = scanImports(folder, ["src"]);
      expect(scanned).toEqual([
        { from: "src/core/episode.ts", to: "src/core/task.js" },
        { from: "src/core/episode.ts", to: "src/tournament/judge.js" },
        { from: "src/core/episode.ts", to: "src/engine/run-eval.js" },
      ]);
      expect(findLayerViolations(layers, scanned)).toHaveLength(2);
    });

    it("resolves the package's entries to their files, and a plugin's import of the root entry runs against the layers", () => {
      mkdirSync(path.join(folder, "cookbooks/mine"), { recursive: true });
      writeFileSync(
        path.join(folder, "cookbooks/mine/index.ts"),
        [
          'import { singleTurnFlow } from "rllm-ts/flows";',
          'import { runEval } from "rllm-ts";',
          'import { scored } from "../../src/core/score.js";',
          'import { z } from "zod";',
        ].join("\n"),
      );
      const scanned = scanImports(folder, ["cookbooks"], entries);
      expect(scanned).toEqual([
        { from: "cookbooks/mine/index.ts", to: "src/engine/index.ts", entry: "rllm-ts/flows" },
        { from: "cookbooks/mine/index.ts", to: "src/index.ts", entry: "rllm-ts" },
        { from: "cookbooks/mine/index.ts", to: "src/core/score.js" },
      ]);
      expect(findLayerViolations(layers, scanned)).toEqual([
        'cookbooks/mine/index.ts imports src/index.ts: layer "cookbooks" may not import "package entry", which sits above it',
      ]);
      expect(findPrivatePluginImports(pluginFolders, scanned)).toEqual([
        "cookbooks/mine/index.ts imports src/core/score.js: a file under cookbooks/ may import other folders only through the package's entries (rllm-ts/…)",
      ]);
    });
  });
});
