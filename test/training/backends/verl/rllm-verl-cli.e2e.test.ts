// `rllm verl launch | status | logs | stop` against a fake Ray dashboard, for what a real one (ray-cluster.sdk) cannot
// show cheaply: the exact submission body, a refused token, an address where nothing answers. The binary for the exit
// codes, the actions in process for the rest (one CLI start costs seconds; main.ts maps InputError to exit 2 and
// any other error to exit 1).
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { launchVerlJob, verlJobStatus } from "../../../../src/cli/commands/verl.js";
import { VerlLaunchFlagsSchema, VerlStatusFlagsSchema } from "../../../../src/cli/commands/verl-flags.js";
import { InputError } from "../../../../src/core/errors/input-error.js";
import { runCli } from "../../../helpers/run-cli.js";
import { startFakeRayDashboard, type FakeRayDashboard } from "./fake-ray-dashboard.js";

const token = "ray-secret";
let dashboard: FakeRayDashboard;

beforeAll(async () => {
  dashboard = await startFakeRayDashboard(token);
});
afterAll(async () => {
  await dashboard.close();
});

// Captures what an action prints to stdout.
async function capture(action: () => Promise<void>): Promise<{ output: string; error?: unknown }> {
  let output = "";
  const write = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
    output += String(chunk);
    return true;
  });
  const log = vi.spyOn(console, "log").mockImplementation((...values) => {
    output += `${values.join(" ")}\n`;
  });
  const quiet = vi.spyOn(console, "error").mockImplementation(() => {});
  try {
    await action();
    return { output };
  } catch (error) {
    return { output, error };
  } finally {
    write.mockRestore();
    log.mockRestore();
    quiet.mockRestore();
  }
}

const connection = () => ({ address: dashboard.address, token });

describe("rllm verl", () => {
  it("launch --follow submits the bridge trainer, streams its logs through the status changes and exits 0 on SUCCEEDED", async () => {
    dashboard.nextStatuses = ["PENDING", "RUNNING", "RUNNING", "SUCCEEDED"];
    const cli = await runCli(
      ["verl", "launch", "--bridge-url", "http://10.0.0.2:8377", "--model", "Qwen/Qwen3-0.6B", "--train-config", "cookbooks/arith/train.json", "--pip", "/shared/rllm-ts/integrations/verl", "--metadata", "run=arith", "--set", "trainer.n_gpus_per_node=4", "--follow", "--poll", "0.05"],
      { RAY_ADDRESS: dashboard.address, RAY_JOBS_TOKEN: token, RLLM_VERL_BRIDGE_TOKEN: "bridge-secret" },
    );
    expect(cli.code, cli.stderr).toBe(0);
    expect(cli.stdout).toBe("raysubmit_1\nline 1\nline 2\nline 3\nline 4\n");
    const submission = dashboard.jobs.get("raysubmit_1")!.submission as { entrypoint: string; runtime_env: unknown; metadata: unknown };
    expect(submission.entrypoint).toMatch(/^python3 -m rllm_verl\.main /);
    // §2.3's canonical overrides, the train.json's actor settings, the bridge URL, then --set last.
    for (const override of ["algorithm.adv_estimator=grpo", "actor_rollout_ref.model.path=Qwen/Qwen3-0.6B", "actor_rollout_ref.actor.optim.lr=0.0002", "actor_rollout_ref.actor.clip_ratio_high=0.28", "+rllm.bridge_url=http://10.0.0.2:8377"]) {
      expect(submission.entrypoint).toContain(` ${override}`);
    }
    expect(submission.entrypoint.endsWith(" trainer.n_gpus_per_node=4")).toBe(true);
    expect(submission.runtime_env).toEqual({ pip: ["/shared/rllm-ts/integrations/verl"], env_vars: { RLLM_VERL_BRIDGE_TOKEN: "bridge-secret" } });
    expect(submission.metadata).toEqual({ launcher: "rllm verl launch", model: "Qwen/Qwen3-0.6B", run: "arith" });
  });

  it("exits 2 for an unknown job and for a dashboard that refuses the missing token", async () => {
    const unknown = await runCli(["verl", "status", "raysubmit_404", "--address", dashboard.address, "--token", token]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("answered 404 (no such job)");
    const refused = await capture(() => verlJobStatus(VerlStatusFlagsSchema.parse({ address: dashboard.address }), ["raysubmit_1"]));
    expect(refused.error).toBeInstanceOf(InputError);
    expect((refused.error as Error).message).toContain("answered 401 (give its token with --token or RAY_JOBS_TOKEN)");
  });

  it("exits 2 with one line when nothing answers at the dashboard's address", async () => {
    const closed = await runCli(["verl", "status", "raysubmit_1", "--address", "http://127.0.0.1:1"]);
    expect(closed.code).toBe(2);
    expect(closed.stderr.trim()).toBe("rllm: Ray dashboard http://127.0.0.1:1 does not answer (ECONNREFUSED): is `ray start --head` running there? Check --address or RAY_ADDRESS");
  });

  it("refuses a local --working-dir (the REST API takes only URIs)", async () => {
    const result = await capture(() => launchVerlJob(VerlLaunchFlagsSchema.parse({ ...connection(), bridgeUrl: "http://b:1", model: "m", workingDir: "integrations/verl" })));
    expect(result.error).toBeInstanceOf(InputError);
    expect((result.error as Error).message).toContain("--working-dir integrations/verl: the Ray Jobs REST API takes a URI");
  });
});
