// Waiting for a trainer job, against a scripted control plane on 127.0.0.1 and a fake clock (no wall-clock waits): a
// notice per state, the SDK's two limits (capacity while PENDING, readiness once placed), stopped states as errors.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { FireworksNotReadyError } from "../../../../src/training/backends/fireworks/fireworks-errors.js";
import { FireworksRestClient } from "../../../../src/training/backends/fireworks/fireworks-rest-client.js";
import { createTrainerJob, type ReadyWait } from "../../../../src/training/backends/fireworks/trainer-job-lifecycle.js";

let server: Server | undefined;
afterEach(() => server?.close());

/** A control plane whose job answers `states` one per GET (the last repeats); healthz answers once it runs. */
async function controlPlane(states: readonly string[]): Promise<{ client: FireworksRestClient; requests: string[] }> {
  const requests: string[] = [];
  let polls = 0;
  server = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    const reply = (body: unknown) => response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
    if (request.url?.endsWith("/api/v1/healthz")) return reply({});
    if (request.method === "POST") return reply({ name: "accounts/a/rlorTrainerJobs/job-1" });
    const state = states[Math.min(polls++, states.length - 1)];
    reply({ name: "accounts/a/rlorTrainerJobs/job-1", state, status: { message: state === "JOB_STATE_FAILED" ? "out of memory" : "" }, trainingConfig: { maxContextLength: 4096 } });
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { client: new FireworksRestClient(`http://127.0.0.1:${port}`, () => "fw-key"), requests };
}

/** A wait whose clock moves only when it sleeps. */
function fakeClockWait(notices: string[]): ReadyWait {
  let clock = 0;
  return {
    pollMs: 60_000,
    pendingTimeoutMs: 48 * 3_600_000,
    readyTimeoutMs: 15 * 60_000,
    deploymentTimeoutMs: 600_000,
    hotLoadTimeoutMs: 400_000,
    notify: (message) => notices.push(message),
    now: () => clock,
    sleep: async (milliseconds) => {
      clock += milliseconds;
    },
  };
}

const settings = { baseModel: "accounts/fireworks/models/qwen3-8b", loraRank: 16, learningRate: 1e-5, displayName: "test" };

describe("createTrainerJob", () => {
  it("waits through the states with one notice each, and answers the gateway and context once it runs", async () => {
    const { client, requests } = await controlPlane(["JOB_STATE_CREATING", "JOB_STATE_PENDING", "JOB_STATE_PENDING", "JOB_STATE_RUNNING"]);
    const notices: string[] = [];
    const job = await createTrainerJob(client, "a", "job-1", settings, fakeClockWait(notices));
    expect(job).toEqual({ account: "a", jobId: "job-1", gatewayUrl: `${client.baseUrl}/training/v1/rlorTrainerJobs/a/job-1`, maxContext: 4096 });
    expect(notices).toEqual([
      "Fireworks: created trainer job job-1; waiting for it to run",
      "Fireworks: trainer job job-1 is JOB_STATE_CREATING (0 s)",
      "Fireworks: trainer job job-1 is JOB_STATE_PENDING (60 s)",
    ]);
    expect(requests[0]).toBe("POST /v1/accounts/a/rlorTrainerJobs?skipValidations=true&rlorTrainerJobId=job-1");
    expect(requests.at(-1)).toBe("GET /training/v1/rlorTrainerJobs/a/job-1/api/v1/healthz");
  });

  it("waits for capacity longer than the readiness limit, but not for a placed job that never runs", async () => {
    // 20 PENDING polls (20 min) are within the capacity limit; after placement, CREATING past 15 min is not.
    const { client } = await controlPlane([...Array<string>(20).fill("JOB_STATE_PENDING"), "JOB_STATE_CREATING"]);
    const failure = await createTrainerJob(client, "a", "job-1", settings, fakeClockWait([])).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(FireworksNotReadyError);
    expect((failure as Error).message).toBe("Fireworks trainer job job-1 did not become ready (state JOB_STATE_CREATING): not running 900 s after placement");
  });

  it("fails at once on a stopped state, with the control plane's detail", async () => {
    const { client } = await controlPlane(["JOB_STATE_PENDING", "JOB_STATE_FAILED"]);
    await expect(createTrainerJob(client, "a", "job-1", settings, fakeClockWait([]))).rejects.toThrow("did not become ready (state JOB_STATE_FAILED): out of memory");
  });
});
