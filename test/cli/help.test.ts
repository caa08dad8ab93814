import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";

describe("rllm --help", () => {
  it("says how to run the command outside a project that installs rllm-ts", { timeout: 30_000 }, async () => {
    const result = await runCli(["--help"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("npx -p rllm-ts rllm <command>");
    expect(result.stdout).toContain("npm i -g rllm-ts");
  });
});
