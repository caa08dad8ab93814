/**
 * A real rllm-ts batch service for integrations/verl's pytest: it serves on --port (with --token), waits for a
 * trainer, queues a train batch, a checkpoint and a stop, and prints each registration and result as a JSON line.
 */
import type { BridgeRow } from "../../../../src/training/backends/verl/verl-bridge-protocol.js";
import { startVerlBatchService } from "../../../../src/training/backends/verl/verl-batch-service.js";

const argument = (name: string) => {
  const index = process.argv.indexOf(name);
  return index < 0 ? undefined : process.argv[index + 1];
};
const print = (line: unknown) => process.stdout.write(JSON.stringify(line) + "\n");

const service = await startVerlBatchService({ host: "127.0.0.1", port: Number(argument("--port") ?? 0), token: argument("--token") });
print({ url: service.url });
print({ registered: await service.waitForTrainer(60_000) });
const rows: BridgeRow[] = [
  { tokens: [11, 12, 13, 21, 22], lossMask: [0, 0, 0, 1, 1], samplerLogprobs: [0, 0, 0, -0.5, -0.25], promptLength: 3, advantage: 0.5, reward: 1, groupKey: "t1:solver", role: "solver" },
  { tokens: [14, 15, 24], lossMask: [0, 0, 1], samplerLogprobs: [0, 0, -2], promptLength: 2, advantage: -1, reward: 0, groupKey: "t1:judge", role: "judge" },
];
print({ result: await service.enqueue({ kind: "train", policyVersion: 0, rows }) });
print({ result: await service.enqueue({ kind: "checkpoint" }) });
print({ result: await service.enqueue({ kind: "stop" }) });
await service.close();
