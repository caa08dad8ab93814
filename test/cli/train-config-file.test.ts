import { describe, expect, it } from "vitest";
import { trainConfigFile } from "../../src/cli/commands/train.js";

describe("rllm train's config file", () => {
  it("defaults to the cookbook's shipped train.json, which --config overrides", () => {
    expect(trainConfigFile(undefined, "arith")).toMatch(/cookbooks[\\/]arith[\\/]train\.json$/);
    expect(trainConfigFile("mine.json", "arith")).toBe("mine.json");
  });

  it("falls back to the built-in defaults for a cookbook without one or a user module", () => {
    expect(trainConfigFile(undefined, "qa")).toBeUndefined();
    expect(trainConfigFile(undefined, "./arith.ts")).toBeUndefined();
  });
});
