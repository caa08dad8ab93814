/** Watches a run's episodes for an endpoint that has stopped answering, and counts the causes of its infra errors. */
import type { Episode } from "../core/episode.js";

/** The cause of an infra error without its attempt count, so that failures of one kind count as one cause. */
export function infraCause(error: string): string {
  return error.replace(/\s*\(gave up after \d+ attempts?\)\s*$/, "").trim() || "unknown";
}

/** What the watch says of a run so far. */
export interface InfraFailureWatch {
  /** Records a finished episode; returns the shared cause when the last `window` episodes all failed with it. */
  record(episode: Episode): string | undefined;
  /** The commonest infra cause and how many episodes it took, or undefined when none failed. */
  mostCommon(): { cause: string; count: number } | undefined;
}

/**
 * A watch over the last `window` episodes: when each is an infra error with one cause, every later episode would
 * spend the retry budget the same way, so the run should stop and say so.
 */
export function createInfraFailureWatch(window: number): InfraFailureWatch {
  const counts = new Map<string, number>();
  const recent: Array<string | null> = [];
  return {
    record(episode) {
      const cause = episode.errorClass === "infra_error" ? infraCause(episode.error ?? "") : null;
      if (cause !== null) counts.set(cause, (counts.get(cause) ?? 0) + 1);
      recent.push(cause);
      if (recent.length > window) recent.shift();
      const [first] = recent;
      return recent.length === window && first !== null && first !== undefined && recent.every((entry) => entry === first) ? first : undefined;
    },
    mostCommon() {
      let best: { cause: string; count: number } | undefined;
      for (const [cause, count] of counts) if (!best || count > best.count) best = { cause, count };
      return best;
    },
  };
}
