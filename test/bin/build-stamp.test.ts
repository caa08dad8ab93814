/** The build stamp decides whether bin/rllm.js may run dist/: any change to the sources must make it stale. */
import { mkdirSync, mkdtempSync, rmSync, statSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { contentDigest, fileStates, isBuildFresh, sourceFiles, stampPath, writeStamp } from "../../bin/build-stamp.js";

let root: string;

/** Stamps the tree as the build does after compiling it. */
async function stamp(): Promise<void> {
  const files = sourceFiles(root);
  writeStamp(root, await contentDigest(root, files), fileStates(root, files));
}

const write = (file: string, text: string) => writeFileSync(path.join(root, file), text);

beforeEach(async () => {
  root = mkdtempSync(path.join(tmpdir(), "rllm-stamp-"));
  for (const folder of ["src/cli", "verifiers", "benchmarks", "cookbooks", "dist"]) mkdirSync(path.join(root, folder), { recursive: true });
  for (const file of ["package.json", "tsconfig.json", "tsconfig.build.json"]) write(file, "{}");
  write("src/cli/main.ts", "export const answer = 42;\n");
  write("benchmarks/rows.jsonl", "{}\n");
  await stamp();
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("isBuildFresh", () => {
  it("is fresh right after the build stamps the sources", async () => {
    expect(await isBuildFresh(root)).toBe(true);
  });

  it("is stale after an edit that keeps the size and puts the modification time back", async () => {
    const file = path.join(root, "src/cli/main.ts");
    const before = statSync(file);
    write("src/cli/main.ts", "export const answer = 43;\n");
    utimesSync(file, before.atime, before.mtime);
    expect(await isBuildFresh(root)).toBe(false);
  });

  it("stays fresh when a file is rewritten with the same content (a checkout, a branch switch and back)", async () => {
    write("src/cli/main.ts", "export const answer = 42;\n");
    expect(await isBuildFresh(root)).toBe(true);
  });

  it("is stale when a source file is added or deleted, or a config file changes", async () => {
    write("verifiers/new-verifier.ts", "export {};\n");
    expect(await isBuildFresh(root)).toBe(false);
    unlinkSync(path.join(root, "verifiers/new-verifier.ts"));
    expect(await isBuildFresh(root)).toBe(true);
    unlinkSync(path.join(root, "src/cli/main.ts"));
    expect(await isBuildFresh(root)).toBe(false);
    write("src/cli/main.ts", "export const answer = 42;\n");
    write("tsconfig.build.json", '{"compilerOptions":{}}');
    expect(await isBuildFresh(root)).toBe(false);
  });

  it("ignores data files, which the build does not compile", async () => {
    write("benchmarks/rows.jsonl", "{}\n{}\n");
    expect(await isBuildFresh(root)).toBe(true);
  });

  it("is stale with no stamp or an unreadable one", async () => {
    write(stampPath, "not json");
    expect(await isBuildFresh(root)).toBe(false);
    unlinkSync(path.join(root, stampPath));
    expect(await isBuildFresh(root)).toBe(false);
  });
});
