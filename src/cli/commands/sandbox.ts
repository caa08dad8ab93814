/** `rllm sandbox serve`'s action: the local sandbox's program slots behind SandboxFusion's API until Ctrl-C, SIGTERM or its parent's exit. */
import { InputError } from "../../core/errors/input-error.js";
import { startSandboxService } from "../../sandbox-service/sandbox-service.js";
import { createLocalSandbox, LocalProgramSlots } from "../../sandbox/index.js";
import { waitForStop } from "../wait-for-stop.js";
import type { SandboxServeFlags } from "./sandbox-flags.js";

/** Runs the service until Ctrl-C, SIGTERM or the exit of the process that started it (npx), as the other servers do. */
export async function sandboxServe(flags: SandboxServeFlags): Promise<void> {
  const apiKey = flags.apiKeyEnv ? process.env[flags.apiKeyEnv] : undefined;
  if (flags.apiKeyEnv && !apiKey) throw new InputError(`--api-key-env ${flags.apiKeyEnv}: that environment variable is not set`);
  const sandbox = createLocalSandbox({ provider: "local", ...(flags.python !== undefined ? { python: flags.python } : {}), ...(flags.unsafeNoSandbox ? { unsafeNoSandbox: true } : {}) });
  const programs = await sandbox.openPrograms({ concurrency: flags.concurrency, limits: flags.memoryMb ? { memoryBytes: flags.memoryMb * 1024 * 1024 } : {} });
  if (!(programs instanceof LocalProgramSlots)) throw new Error("the local sandbox opened no local slots");
  const service = await startSandboxService({
    host: flags.host,
    port: flags.port,
    programs,
    apiKey,
    queueLimit: flags.queue,
    maxBodyBytes: Math.round(flags.maxBodyMb * 1024 * 1024),
    maxRunTimeoutSeconds: flags.maxRunTimeout,
  });
  const { python } = sandbox.record();
  console.log(`rllm sandbox on ${service.origin}/run_code (SandboxFusion API), ${programs.concurrency} slots, ${programs.host.kind === "unsafe" ? "NO SANDBOX (--unsafe-no-sandbox)" : "bubblewrap"}`);
  if (python) console.log(`  python ${python.version} (${python.executable}; ${python.source})`);
  if (programs.notice) console.log(`  ${programs.notice}`);
  if (!apiKey && !["127.0.0.1", "localhost", "::1"].includes(flags.host)) console.log("  warning: listening beyond loopback without an API key (--api-key-env)");
  await waitForStop((parentPid) => console.error(`rllm: the process that started this sandbox service (pid ${parentPid}) is gone: stopping`));
  await service.close();
}
