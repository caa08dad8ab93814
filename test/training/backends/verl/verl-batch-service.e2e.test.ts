// The batch service's protocol rules over real HTTP on 127.0.0.1: token, stale trainers, long poll, and what happens
// to unfinished work when the trainer is replaced.
import { afterEach, describe, expect, it } from "vitest";
import { startVerlBatchService, type VerlBatchService } from "../../../../src/training/backends/verl/verl-batch-service.js";
import type { RegisterRequest } from "../../../../src/training/backends/verl/verl-bridge-protocol.js";

const token = "t0k3n";
const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
let service: VerlBatchService;

const registration = (instanceId: string, globalStep: number): RegisterRequest => ({
  instanceId,
  servedModel: "model",
  serverAddresses: ["127.0.0.1:9"],
  maxPromptLength: 10,
  maxResponseLength: 10,
  globalStep,
  settings: { lossMode: "vanilla", clipRatioLow: 0.2, clipRatioHigh: 0.2, lossAggMode: "token-mean", useKlLoss: false, klLossCoef: 0, learningRate: 1e-6, weightDecay: 0, gradClip: 1, ppoEpochs: 1, clipRatioC: 1e9 },
});
const register = (instanceId: string, globalStep: number) =>
  fetch(`${service.url}/bridge/v1/register`, { method: "POST", headers, body: JSON.stringify(registration(instanceId, globalStep)) });
const poll = (instanceId: string, waitSeconds = 0) => fetch(`${service.url}/bridge/v1/work?instanceId=${instanceId}&waitSeconds=${waitSeconds}`, { headers });
const finish = (id: string, instanceId: string, globalStep: number) =>
  fetch(`${service.url}/bridge/v1/results/${id}`, { method: "POST", headers, body: JSON.stringify({ instanceId, state: "done", globalStep, metrics: { loss: 1, logprobMismatchMean: 0 } }) });

afterEach(async () => {
  await service.close();
});

describe("verl batch service", () => {
  it("answers 401 without the bearer token", async () => {
    service = await startVerlBatchService({ host: "127.0.0.1", port: 0, token });
    const reply = await fetch(`${service.url}/bridge/v1/work?instanceId=a`);
    expect(reply.status).toBe(401);
  });

  it("answers a result for a work item id that is not valid percent-encoding with a 400, not a 500 (issue #44)", async () => {
    service = await startVerlBatchService({ host: "127.0.0.1", port: 0, token });
    await register("a", 0);
    const result = service.enqueue({ kind: "checkpoint" });
    const item = (await (await poll("a")).json()) as { id: string };
    const reply = await finish("%ZZ", "a", 0);
    expect(reply.status).toBe(400);
    expect(((await reply.json()) as { error: { message: string } }).error.message).toMatch(/work item id in the path is not valid percent-encoding/);
    await finish(item.id, "a", 0);
    expect((await result).state).toBe("done");
  });

  it("holds a poll open until work arrives, and answers 204 when none came in time", async () => {
    service = await startVerlBatchService({ host: "127.0.0.1", port: 0, token });
    await register("a", 0);
    expect((await poll("a", 0)).status).toBe(204);
    const pending = poll("a", 5);
    const result = service.enqueue({ kind: "checkpoint" });
    const item = (await (await pending).json()) as { id: string; kind: string };
    expect(item.kind).toBe("checkpoint");
    await finish(item.id, "a", 0);
    expect((await result).state).toBe("done");
  });

  it("hands a replaced trainer's unfinished work to its successor when no update was lost, and refuses the old one", async () => {
    service = await startVerlBatchService({ host: "127.0.0.1", port: 0, token });
    await register("a", 4);
    const result = service.enqueue({ kind: "train", policyVersion: 4, rows: [] });
    const leased = (await (await poll("a")).json()) as { id: string };
    // "a" is preempted mid-step; "b" resumed from the checkpoint at the same global step.
    await register("b", 4);
    const again = (await (await poll("b")).json()) as { id: string };
    expect(again.id).toBe(leased.id);
    const stale = await poll("a");
    expect(stale.status).toBe(409);
    expect(((await stale.json()) as { error: { param: string } }).error.param).toBe("instanceId");
    await finish(again.id, "b", 5);
    expect(await result).toMatchObject({ state: "done", globalStep: 5, instanceId: "b" });
  });

  it("fails the unfinished work, pointing to --resume, when the successor lost updates", async () => {
    service = await startVerlBatchService({ host: "127.0.0.1", port: 0, token });
    await register("a", 4);
    const result = service.enqueue({ kind: "train", policyVersion: 4, rows: [] });
    await poll("a");
    await register("b", 2);
    const failed = await result;
    expect(failed.state).toBe("failed");
    expect(failed.error).toContain("restarted at global step 2, but the run had reached step 4");
    expect(failed.error).toContain("--resume");
  });
});
