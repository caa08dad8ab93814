/** `rllm sandbox serve`'s action: the code sandbox behind SandboxFusion's API until Ctrl-C, SIGTERM or its parent's exit. */
import { InputError } from "../../core/errors/input-error.js";
import { startSandboxService } from "../../sandbox-service/sandbox-service.js";
import { CodeGrader } from "../../../verifiers/code/code-grader.js";
import { waitForStop } from "../wait-for-stop.js";
import type { SandboxServeFlags } from "./sandbox-flags.js";

/** Runs the service until Ctrl-C, SIGTERM or the exit of the process that started it (npx), as the other servers do. */
export async function sandboxServe(flags: SandboxServeFlags): Promise<void> {
  const apiKey = flags.apiKeyEnv ? process.env[flags.apiKeyEnv] : undefined;
  if (flags.apiKeyEnv && !apiKey) throw new InputError(`--api-key-env ${flags.apiKeyEnv}: that environment variable is not set`);
  const grader = await CodeGrader.create({
    concurrency: flags.concurrency,
    unsafeNoSandbox: flags.unsafeNoSandbox ?? false,
    limits: flags.memoryMb ? { memoryBytes: flags.memoryMb * 1024 * 1024 } : {},
  });
  const service = await startSandboxService({
    host: flags.host,
    port: flags.port,
    grader,
    apiKey,
    queueLimit: flags.queue,
    maxBodyBytes: Math.round(flags.maxBodyMb * 1024 * 1024),
    maxRunTimeoutSeconds: flags.maxRunTimeout,
  });
  console.log(`rllm sandbox on ${service.origin}/run_code (SandboxFusion API), ${grader.concurrency} slots, ${grader.host.kind === "unsafe" ? "NO SANDBOX (--unsafe-no-sandbox)" : "bubblewrap"}`);
  if (grader.notice) console.log(`  ${grader.notice}`);
  if (!apiKey && !["127.0.0.1", "localhost", "::1"].includes(flags.host)) console.log("  warning: listening beyond loopback without an API key (--api-key-env)");
  await waitForStop((parentPid) => console.error(`rllm: the process that started this sandbox service (pid ${parentPid}) is gone: stopping`));
  await service.close();
}
