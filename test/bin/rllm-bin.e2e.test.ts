/**
 * bin/rllm.js in a copy of the checkout: it runs dist/ only while the build stamp matches the sources, and the
 * sources through tsx otherwise. The copy's dist/ is a one-line stand-in that says it ran, so no test compiles.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contentDigest, fileStates, sourceFiles, writeStamp } from "../../bin/build-stamp.js";

const repository = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const folder = mkdtempSync(path.join(tmpdir(), "rllm-bin-"));
const checkout = path.join(folder, "checkout");
const mainSource = path.join(checkout, "src/cli/main.ts");

/** `rllm --version` in the copy: the stand-in build prints "the build ran", the sources print the version. */
function version(): string {
  const result = spawnSync(process.execPath, [path.join(checkout, "bin/rllm.js"), "--version"], { encoding: "utf8" });
  expect(result.status, result.stderr).toBe(0);
  return result.stdout.trim();
}

async function stampBuild(): Promise<void> {
  const files = sourceFiles(checkout);
  writeStamp(checkout, await contentDigest(checkout, files), fileStates(checkout, files));
}

beforeAll(async () => {
  for (const file of [...sourceFiles(repository), "bin/rllm.js", "bin/build-stamp.js"]) {
    mkdirSync(path.dirname(path.join(checkout, file)), { recursive: true });
    cpSync(path.join(repository, file), path.join(checkout, file));
  }
  symlinkSync(path.join(repository, "node_modules"), path.join(checkout, "node_modules"));
  mkdirSync(path.join(checkout, "dist/src/cli"), { recursive: true });
  writeFileSync(path.join(checkout, "dist/src/cli/main.js"), 'console.log("the build ran");\n');
  await stampBuild();
});

afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe("bin/rllm.js", () => {
  it("runs the build when its stamp matches the sources", () => {
    expect(version()).toBe("the build ran");
  });

  it("runs the sources, never the stale build, once a source is edited (even with its modification time put back)", async () => {
    const before = statSync(mainSource);
    writeFileSync(mainSource, `${readFileSync(mainSource, "utf8")}// edited\n`);
    utimesSync(mainSource, before.atime, before.mtime);
    expect(version()).toBe("0.1.0");
    await stampBuild();
    expect(version()).toBe("the build ran");
  });

  it("runs the sources when a source file is added after the build", () => {
    writeFileSync(path.join(checkout, "src/cli/added-after-the-build.ts"), "export {};\n");
    expect(version()).toBe("0.1.0");
  });
});
