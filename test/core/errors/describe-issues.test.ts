// describeIssues names the field that is wrong, also inside a union: the branch whose type the value has says what is
// wrong with it, instead of zod's "Invalid input" for the union as a whole.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { describeIssues } from "../../../src/core/errors/input-error.js";

const Service = z.union([z.string().url(), z.object({ url: z.string().url(), apiKeyEnv: z.string() }).strict()]);
const Config = z.object({ urls: z.array(Service) });

function describeParse(value: unknown): string {
  const parsed = Config.safeParse(value);
  if (parsed.success) throw new Error("parsed");
  return describeIssues("config.json", undefined, parsed.error);
}

describe("describeIssues", () => {
  it("names the fields of the union branch the value's type matched", () => {
    expect(describeParse({ urls: [{ url: "http://a:1", apiKey: "inline" }] }).split("\n")).toEqual([
      'config.json: field "urls.0.apiKeyEnv": Invalid input: expected string, received undefined',
      'config.json: field "urls.0": Unrecognized key: "apiKey"',
    ]);
    expect(describeParse({ urls: ["not a url"] })).toBe('config.json: field "urls.0": Invalid URL');
  });

  it("keeps the union's own issue when no branch matches the value's type", () => {
    expect(describeParse({ urls: [7] })).toBe('config.json: field "urls.0": Invalid input');
  });
});
