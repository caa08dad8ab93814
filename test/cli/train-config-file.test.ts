import { describe, expect, it } from "vitest";
import { cookbooks } from "../../cookbooks/registry.js";
import { trainConfigFile, withFlagOverrides } from "../../src/cli/commands/train.js";
import { TrainConfigSchema } from "../../src/training/train-config.js";

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

describe("rllm train's flags over the config", () => {
  const flags = { async: false, partialRollouts: false, maskTruncated: false };
  const parse = (raw: Record<string, unknown>, given: Partial<Parameters<typeof withFlagOverrides>[1]>) => TrainConfigSchema.parse(withFlagOverrides(raw, { ...flags, ...given }));

  it("--async alone allows one version of staleness, or the config's own when it allows more; --max-staleness sets it", () => {
    expect(parse({}, {}).async.maxStaleness).toBe(0);
    expect(parse({}, { async: true }).async.maxStaleness).toBe(1);
    expect(parse({ async: { maxStaleness: 3 } }, { async: true }).async.maxStaleness).toBe(3);
    expect(parse({ async: { maxStaleness: 3 } }, { maxStaleness: 0 }).async.maxStaleness).toBe(0);
    expect(parse({}, { maxStaleness: 2, partialRollouts: true, staleGroups: "drop" }).async).toEqual({ maxStaleness: 2, partialRollouts: true, staleGroups: "drop" });
  });

  it("puts --tis-cap and --mask-truncated into the loss and transform, keeping the config's other keys", () => {
    const config = parse({ loss: { kind: "cispo", clipHigh: 0.3 }, transform: { minGroupSize: 3 } }, { tisCap: 2, maskTruncated: true });
    expect(config.loss).toMatchObject({ kind: "cispo", clipHigh: 0.3, tisCap: 2 });
    expect(config.transform).toMatchObject({ minGroupSize: 3, maskTruncated: true });
  });

  it("refuses --partial-rollouts without the async loop, naming the flag", () => {
    expect(() => parse({}, { partialRollouts: true })).toThrow("--partial-rollouts: only the async loop has episodes in flight across an update");
    expect(() => parse({ async: { maxStaleness: 1 } }, { partialRollouts: true })).not.toThrow();
  });
});

describe("rllm train's async flags that the synchronous loop would ignore", () => {
  const flags = { async: false, partialRollouts: false, maskTruncated: false };
  const overrides = (raw: Record<string, unknown>, given: Partial<Parameters<typeof withFlagOverrides>[1]>) => withFlagOverrides(raw, { ...flags, ...given });

  it("refuses --async with --max-staleness 0 (the synchronous loop), naming both flags", () => {
    expect(() => overrides({}, { async: true, maxStaleness: 0 })).toThrow("--async with --max-staleness 0");
    expect(() => overrides({}, { async: true, maxStaleness: 1 })).not.toThrow();
  });

  it("refuses --stale-groups where no group can be stale (the synchronous loop), naming the flag", () => {
    expect(() => overrides({}, { staleGroups: "drop" })).toThrow("--stale-groups: only the async loop has stale groups");
    expect(() => overrides({ async: { maxStaleness: 2 } }, { maxStaleness: 0, staleGroups: "drop" })).toThrow("--stale-groups");
    expect(() => overrides({ async: { maxStaleness: 2 } }, { staleGroups: "drop" })).not.toThrow();
    expect(() => overrides({}, { async: true, staleGroups: "drop" })).not.toThrow();
  });
});
