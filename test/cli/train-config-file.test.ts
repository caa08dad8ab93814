import { describe, expect, it } from "vitest";
import { cookbooks } from "../../cookbooks/registry.js";
import { trainConfigFile } from "../../src/cli/commands/train.js";

describe("rllm train's config file", () => {
  it("defaults to the config the cookbook itself ships (arith's train.json), which --config overrides", async () => {
    const arith = await cookbooks.load("arith");
    expect(trainConfigFile(undefined, arith)).toMatch(/cookbooks[\\/]arith[\\/]train\.json$/);
    expect(trainConfigFile("mine.json", arith)).toBe("mine.json");
  });

  it("reads it from the cookbook, not from a folder named after it: a user's cookbook names its own, or none", async () => {
    expect(trainConfigFile(undefined, await cookbooks.load("qa"))).toBeUndefined();
    expect(trainConfigFile(undefined, { name: "arith", description: "", flow: async () => ({ name: "solver", steps: [] }) as never, evaluate: () => ({}) as never })).toBeUndefined();
    expect(trainConfigFile(undefined, { ...(await cookbooks.load("qa")), trainConfig: "/my/project/train.json" })).toBe("/my/project/train.json");
  });
});
