import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { parseFlags } from "../../src/cli/parse-flags.js";

const schema = z.object({ rows: z.coerce.number().int().positive(), maxTokens: z.coerce.number().int().positive() });
const command = new Command("show").option("-n, --rows <n>", "how many").option("--max-tokens <n>", "limit");

describe("parseFlags", () => {
  it("names an option with a short form by both spellings, since the user may have typed -n", () => {
    expect(() => parseFlags(schema, { rows: "0", maxTokens: "1" }, command)).toThrow(/^-n\/--rows: Too small/);
  });

  it("names a long-only option by its long form", () => {
    expect(() => parseFlags(schema, { rows: "1", maxTokens: "0" }, command)).toThrow(/^--max-tokens: Too small/);
    expect(() => parseFlags(schema, { rows: "1", maxTokens: "0" })).toThrow(/^--max-tokens: Too small/);
  });
});
