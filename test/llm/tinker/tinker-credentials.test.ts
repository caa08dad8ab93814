import { describe, expect, it } from "vitest";
import { InputError } from "../../../src/core/errors/input-error.js";
import { tinkerCredentials } from "../../../src/llm/tinker/tinker-credentials.js";

describe("tinkerCredentials", () => {
  it("refuses a missing key as an input error (exit 2) naming the variables to set", () => {
    const attempt = () => tinkerCredentials({});
    expect(attempt).toThrow(InputError);
    expect(attempt).toThrow(/TINKER_API_KEY.*TINKER_CREDENTIAL_CMD/);
  });

  it("refuses a key of the wrong form as an input error naming TINKER_API_KEY", () => {
    expect(() => tinkerCredentials({ TINKER_API_KEY: "sk-123" })).toThrow(InputError);
    expect(() => tinkerCredentials({ TINKER_API_KEY: "sk-123" })).toThrow(/TINKER_API_KEY is not a Tinker API key/);
  });

  it("gives a tml- key unchanged", () => {
    expect(tinkerCredentials({ TINKER_API_KEY: "tml-abc" })()).toBe("tml-abc");
  });
});
