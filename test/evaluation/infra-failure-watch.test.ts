import { describe, expect, it } from "vitest";
import { EpisodeSchema } from "../../src/core/episode.js";
import { createInfraFailureWatch, infraCause } from "../../src/evaluation/infra-failure-watch.js";

const failed = (error: string) => EpisodeSchema.parse({ id: "t:0", taskId: "t", attempt: 0, errorClass: "infra_error", error });
const scored = () => EpisodeSchema.parse({ id: "t:0", taskId: "t", attempt: 0, score: { value: 1, isCorrect: true, status: "scored" } });

describe("createInfraFailureWatch", () => {
  it("says to stop once the last window of episodes all failed with one cause, attempt counts aside", () => {
    const watch = createInfraFailureWatch(3);
    expect(watch.record(failed("connection failed: connection refused (gave up after 9 attempts)"))).toBeUndefined();
    expect(watch.record(failed("connection failed: connection refused (gave up after 2 attempts)"))).toBeUndefined();
    expect(watch.record(failed("connection failed: connection refused (gave up after 1 attempt)"))).toBe("connection failed: connection refused");
  });

  it("does not stop while successes or other causes are among the recent episodes", () => {
    const watch = createInfraFailureWatch(3);
    for (const episode of [failed("HTTP 500: a"), scored(), failed("HTTP 500: a"), failed("HTTP 503: b"), failed("HTTP 500: a")]) expect(watch.record(episode)).toBeUndefined();
  });

  it("names the commonest cause with its count", () => {
    const watch = createInfraFailureWatch(10);
    for (const error of ["HTTP 500: a", "connection failed: connection reset", "HTTP 500: a (gave up after 3 attempts)"]) watch.record(failed(error));
    watch.record(scored());
    expect(watch.mostCommon()).toEqual({ cause: "HTTP 500: a", count: 2 });
    expect(createInfraFailureWatch(3).mostCommon()).toBeUndefined();
    expect(infraCause("")).toBe("unknown");
  });
});
