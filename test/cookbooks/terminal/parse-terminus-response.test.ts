import { describe, expect, it } from "vitest";
import { parseTerminusResponse } from "../../../cookbooks/terminal/agents/parse-terminus-response.js";
import { limitObservation } from "../../../cookbooks/terminal/agents/terminus-agent.js";
import table from "./terminus-cases.json" with { type: "json" };

describe("parseTerminusResponse", () => {
  it.each(table.cases)("$name", (entry) => {
    const reply = parseTerminusResponse(entry.reply);
    if ("error" in entry && entry.error !== undefined) {
      expect(reply).toMatchObject({ errors: expect.arrayContaining([expect.stringContaining(entry.error)]) });
      return;
    }
    if ("errors" in reply) throw new Error(`unexpected errors: ${reply.errors.join("; ")}`);
    expect(reply.commands.map((command) => command.keystrokes)).toEqual(entry.commands);
    if ("durations" in entry) expect(reply.commands.map((command) => command.duration)).toEqual(entry.durations);
    expect(reply.isTaskComplete).toBe(entry.complete);
    expect(reply.warnings).toHaveLength(entry.warnings!);
  });

  it("keeps the first and last 5,000 bytes of an observation over 10,000", () => {
    const limited = limitObservation(`${"a".repeat(6000)}${"b".repeat(6000)}`);
    expect(limited.startsWith("a".repeat(5000))).toBe(true);
    expect(limited.endsWith("b".repeat(5000))).toBe(true);
    expect(limited).toContain("2000 interior bytes omitted");
  });
});
