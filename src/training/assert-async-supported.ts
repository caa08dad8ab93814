/**
 * The async settings of a train config checked against a backend: sampling while it trains needs async rollouts, and
 * a backend that holds one version at a time (its servers are updated in place) can only do partial rollouts.
 */
import type { BackendCapabilities } from "./backend.js";
import { UnsupportedRequestError } from "./errors/unsupported-request-error.js";
import type { TrainConfig } from "./train-config.js";

/** Throws UnsupportedRequestError naming the flag (and config key) `capabilities` cannot honour. */
export function assertAsyncSupported(capabilities: BackendCapabilities, config: Pick<TrainConfig, "async">): void {
  const { maxStaleness, partialRollouts } = config.async;
  if (maxStaleness === 0) return;
  if (!capabilities.asyncRollouts) {
    throw new UnsupportedRequestError(capabilities.name, "--async (async.maxStaleness)", String(maxStaleness), ["0 (the synchronous loop: it cannot sample while it trains)"]);
  }
  if (capabilities.asyncRollouts === "newest" && !partialRollouts) {
    throw new UnsupportedRequestError(capabilities.name, "--async without --partial-rollouts (async.partialRollouts)", "false", [
      "true (its rollout servers hold one policy version, updated in place, so an episode in flight across an update goes on with the new weights)",
    ]);
  }
}
