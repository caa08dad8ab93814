// The test tiers: `npm test` needs nothing downloaded from PyPI, so every test file that builds or finds a pinned Python
// environment (pythonEnv, or the pytest runner on top of it) is a *.sdk.test.ts, which only `npm run test:sdk` runs.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const repository = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const testFiles = readdirSync(path.join(repository, "test"), { recursive: true })
  .map(String)
  .filter((file) => file.endsWith(".test.ts"))
  .map((file) => path.join("test", file));
const usesPythonEnvironment = (file: string) => /helpers\/(python-env|run-pytest-suite)\.js"/.test(readFileSync(path.join(repository, file), "utf8"));
const manifest = JSON.parse(readFileSync(path.join(repository, "package.json"), "utf8")) as { scripts: Record<string, string> };

describe("test tiers", () => {
  it("names every test file that needs a downloaded Python environment *.sdk.test.ts", () => {
    const misnamed = testFiles.filter((file) => usesPythonEnvironment(file) && !file.endsWith(".sdk.test.ts"));
    expect(misnamed).toEqual([]);
    expect(testFiles.filter((file) => file.endsWith(".sdk.test.ts")).length).toBeGreaterThan(0);
  });

  it("keeps npm test to the unit and e2e projects, with nothing built from PyPI before it", () => {
    expect(manifest.scripts.test).toBe("vitest run --project unit --project e2e");
    expect(manifest.scripts.pretest).toBeUndefined();
    expect(manifest.scripts["test:sdk"]).toBe("bash scripts/test-sdk.sh");
  });
});
