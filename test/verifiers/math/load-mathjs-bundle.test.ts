/** Each mathjs instance from the bundle is independent: the 64-digit instance's configuration must not leak. */
import { describe, expect, it } from "vitest";
import { loadMathjsBundle } from "../../../verifiers/math/load-mathjs-bundle.js";

describe("loadMathjsBundle", () => {
  it("gives a fresh instance each call, so configuring one for BigNumbers leaves the other in floats", () => {
    const float = loadMathjsBundle();
    const big = loadMathjsBundle();
    big.config({ number: "BigNumber", precision: 64 });
    expect(float).not.toBe(big);
    expect(typeof float.evaluate("1/3")).toBe("number");
    expect(big.format(big.evaluate("1/3"), { precision: 40 })).toBe("0.3333333333333333333333333333333333333333");
  });
});
