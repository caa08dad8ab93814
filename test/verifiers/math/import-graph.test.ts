import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { readPackageEntries } from "../../architecture/import-graph.js";

// The static imports (not `import type`) reachable from a module, split into our files and outside packages; the
// package's own entries (`rllm-ts/core`) are our files.
const root = fileURLToPath(new URL("../../../", import.meta.url));
const entries = readPackageEntries(root);

function staticImports(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const source = readFileSync(file, "utf8");
    for (const match of source.matchAll(/^\s*(?:import|export)\s+(?!type\b)[^;]*?from\s+"([^"]+)"/gm)) {
      const specifier = match[1]!;
      const entry = entries.get(specifier);
      if (entry !== undefined) visit(path.join(root, entry));
      else if (specifier.startsWith(".")) visit(path.resolve(path.dirname(file), specifier.replace(/\.js$/, ".ts")));
      else packages.add(specifier);
    }
  };
  visit(path.join(root, entry));
  return { files, packages };
}

describe("math verifier import graph", () => {
  it("loads only zod and node built-ins when imported; mathjs and nerdamer load on first use", () => {
    const { packages } = staticImports("verifiers/math/index.ts");
    expect([...packages].filter((name) => !name.startsWith("node:") && name !== "zod")).toEqual([]);
  });

  it("keeps the grade command's entry (row schema, policy, worker pool) free of the grading code", () => {
    const { files } = staticImports("verifiers/math/math-grade-verifier.ts");
    const names = [...files].map((file) => path.relative(root, file));
    expect(names.filter((name) => /grade-math\.ts|compare-|evaluate-expression|parse-answer|latex-to-mathjs/.test(name))).toEqual([]);
  });

  it("starts a grading worker thread without zod: the pool validates each job's policy before sending it", () => {
    const { packages } = staticImports("verifiers/math/math-worker.ts");
    expect([...packages].filter((name) => !name.startsWith("node:"))).toEqual([]);
  });
});
