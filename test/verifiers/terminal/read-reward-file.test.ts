import { describe, expect, it } from "vitest";
import { readRewardFile } from "../../../verifiers/terminal/read-reward-file.js";
import table from "./reward-cases.json" with { type: "json" };

describe("readRewardFile", () => {
  it.each(table.cases)("$name", (entry) => {
    const reading = readRewardFile(entry.json ?? undefined, entry.txt ?? undefined);
    if ("error" in entry && entry.error !== undefined) {
      expect(reading).toMatchObject({ error: expect.stringContaining(entry.error) });
    } else {
      expect(reading).toMatchObject({ reward: entry.reward, ...("signals" in entry ? { signals: entry.signals } : {}) });
    }
  });
});
