/** `rllm gateway --upstream URL --port P`'s action: runs the token-capturing model gateway until Ctrl-C. */
import { startGateway } from "../../gateway/gateway-server.js";
import { waitForStop } from "../wait-for-stop.js";
import type { GatewayFlags } from "./gateway-flags.js";

/** Runs the gateway until Ctrl-C, SIGTERM or its parent's exit. */
export async function gatewayAction(flags: GatewayFlags): Promise<void> {
  const gateway = await startGateway({
    upstream: flags.upstream,
    host: flags.host,
    port: flags.port,
    model: flags.model,
    sampling: { temperature: flags.temperature, topP: flags.topP, maxTokens: flags.maxTokens },
    apiKey: flags.apiKeyEnv ? process.env[flags.apiKeyEnv] : undefined,
    traceFile: flags.traceFile,
    maxTracesInMemory: flags.maxTraces,
  });
  console.log(`rllm gateway on ${gateway.url} → ${flags.upstream}`);
  console.log(`  traces: up to ${flags.maxTraces} in memory${flags.traceFile ? `, every one appended to ${flags.traceFile}` : " (no --trace-file: evicted traces are lost)"}`);
  console.log(`  agent base URL: ${gateway.url}/sessions/<session-id>/v1   steps: GET ${gateway.url}/sessions/<session-id>/steps`);
  await waitForStop((parentPid) => console.error(`rllm: the process that started this gateway (pid ${parentPid}) is gone: stopping`));
  await gateway.close();
}
