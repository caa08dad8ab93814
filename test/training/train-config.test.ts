import { describe, expect, it } from "vitest";
import { TrainConfigSchema } from "../../src/training/train-config.js";

describe("train config", () => {
  it("fills defaults for an empty config", () => {
    const config = TrainConfigSchema.parse({});
    expect(config.loss.kind).toBe("ppo");
    expect(config.joint.enabled).toBe(false);
    expect(config.transform.minGroupSize).toBe(2);
  });

  it("uses the same Adam moments whether the optimizer is left out or given with a learning rate only", () => {
    const absent = TrainConfigSchema.parse({}).optimizer;
    const given = TrainConfigSchema.parse({ optimizer: { learningRate: 3e-4 } }).optimizer;
    expect({ ...given, gradClipNorm: absent.gradClipNorm }).toEqual(absent);
    expect(given.gradClipNorm).toBeUndefined();
  });

  it("refuses async settings the synchronous loop would ignore, naming the field", () => {
    const reweight = TrainConfigSchema.safeParse({ async: { staleGroups: "reweight" }, loss: { tisCap: 2 } });
    expect(reweight.success).toBe(false);
    expect(reweight.error?.issues.map((issue) => issue.path.join("."))).toEqual(["async.staleGroups"]);
    expect(TrainConfigSchema.safeParse({ async: { maxStaleness: 1, staleGroups: "reweight" }, loss: { tisCap: 2 } }).success).toBe(true);
    expect(TrainConfigSchema.safeParse({ async: { partialRollouts: true } }).success).toBe(false);
  });

  it("rejects unknown keys at every level, naming the path", () => {
    for (const bad of [{ stepz: 3 }, { sampling: { temprature: 1 } }, { joint: { lambda: 1 } }, { loss: { kind: "ppo", clip: 0.2 } }]) {
      const result = TrainConfigSchema.safeParse(bad);
      expect(result.success).toBe(false);
    }
    const result = TrainConfigSchema.safeParse({ validation: { evry: 2 } });
    expect(result.success || result.error.issues[0]!.path).toEqual(["validation"]);
  });

  it("rejects a loss or estimator name no backend knows", () => {
    expect(TrainConfigSchema.safeParse({ loss: { kind: "grpo" } }).success).toBe(false);
    expect(TrainConfigSchema.safeParse({ advantages: { estimator: "gae" } }).success).toBe(false);
  });

  it("defaults to the paper's judge pairs and no KL penalty, and rejects an unknown pairing or a negative KL weight", () => {
    const config = TrainConfigSchema.parse({});
    expect(config.joint.pairing).toBe("any-correct");
    expect(config.trainSplit).toBe("train");
    expect(config.loss.klCoef).toBe(0);
    const badPairing = TrainConfigSchema.safeParse({ joint: { pairing: "balanced" } });
    expect(badPairing.success || badPairing.error.issues[0]!.path).toEqual(["joint", "pairing"]);
    const badKl = TrainConfigSchema.safeParse({ loss: { kind: "ppo", klCoef: -1 } });
    expect(badKl.success || badKl.error.issues[0]!.path).toEqual(["loss", "klCoef"]);
  });
});
