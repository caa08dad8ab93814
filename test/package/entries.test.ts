/**
 * The package's entries are spelled in two places: package.json's `exports` (the build, for an installed package and
 * the build's own imports) and tsconfig.json's `paths` (the sources, for tsc, tsx and vitest). They must name the same
 * entries, each the same module.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { readPackageEntries } from "../architecture/import-graph.js";

const repository = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const manifest = JSON.parse(readFileSync(path.join(repository, "package.json"), "utf8")) as { exports: Record<string, unknown> };

/** What `exports` maps each import name to, as the source file the build compiled it from. */
function exportedSources(): Map<string, string> {
  const sources = new Map<string, string>();
  for (const [key, target] of Object.entries(manifest.exports)) {
    if (key === "./package.json") continue;
    const { types, import: module } = target as { types: string; import: string };
    // types and import must be the same module's two halves, or TypeScript would check against another file.
    expect(types.replace(/\.d\.ts$/, "")).toBe(module.replace(/\.js$/, ""));
    sources.set(key === "." ? "rllm-ts" : `rllm-ts/${key.slice(2)}`, module.replace(/^\.\/dist\//, "").replace(/\.js$/, ".ts"));
  }
  return sources;
}

describe("the package's entries", () => {
  it("are the same names and modules in package.json's exports and tsconfig.json's paths", () => {
    const paths = readPackageEntries(repository);
    expect(new Map([...exportedSources()].sort())).toEqual(new Map([...paths].sort()));
    expect(paths.get("rllm-ts/core")).toBe("src/core/index.ts");
  });
});
