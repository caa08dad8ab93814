/** `rllm train --capabilities`: a Markdown table of what every registered backend's capabilities() says it can do. */
import type { BackendCapabilities } from "../backend.js";
import { trainingBackends } from "./training-backends.js";

const yesNo = (value: boolean) => (value ? "yes" : "no");

// "pinned": an episode can keep its version (or take the newest with --partial-rollouts); "newest": partial only.
const asyncLabel = (mode: BackendCapabilities["asyncRollouts"]) =>
  mode === "pinned" ? "yes (versions pinned or partial)" : mode === "newest" ? "--partial-rollouts only" : "no";

/** One table row per backend, from its capabilities (a backend that learns its context from the server says so). */
export function formatCapabilitiesMatrix(capabilities: readonly BackendCapabilities[]): string {
  const header = ["backend", "losses", "aggregations", "merges", "weights", "sampling", "KL to reference", "entropy selection", "dual-clip", "TIS", "async rollouts", "checkpoints", "max context"];
  const rows = capabilities.map((entry) => [
    entry.name,
    entry.losses.join(", "),
    entry.lossAggregations.join(", "),
    entry.merges.join(", "),
    [entry.fullFineTune ? "full" : "", entry.lora ? "LoRA" : ""].filter(Boolean).join(", "),
    entry.sampling,
    yesNo(entry.referenceKl),
    yesNo(entry.entropySelection),
    yesNo(entry.dualClip ?? false),
    yesNo(entry.truncatedImportanceSampling ?? false),
    asyncLabel(entry.asyncRollouts),
    yesNo(entry.checkpoints),
    entry.maxContext > 0 ? `${entry.maxContext} tokens` : "per base model, from the server",
  ]);
  return [header, header.map(() => "---"), ...rows].map((row) => `| ${row.join(" | ")} |`).join("\n");
}

/** The matrix of every registered backend, built without opening any (no model loaded, no request sent). */
export async function capabilitiesMatrix(): Promise<string> {
  const capabilities: BackendCapabilities[] = [];
  for (const create of await trainingBackends.loadAll()) {
    const { backend } = await create();
    capabilities.push(backend.capabilities());
    await backend.close();
  }
  return formatCapabilitiesMatrix(capabilities);
}
