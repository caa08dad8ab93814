// llama.cpp's threads spin while waiting for each other, so the count must not pass the cores the machine has free.
import { describe, expect, it } from "vitest";
import { chooseThreadCount } from "../../../src/models/llama-cpp/choose-thread-count.js";

describe("chooseThreadCount", () => {
  it("takes the cores the load average leaves free", () => {
    expect(chooseThreadCount({ cores: 16, loadAverage: 3.6 })).toBe(12);
    expect(chooseThreadCount({ cores: 2, loadAverage: 0.2 })).toBe(2);
  });

  it("takes one thread on a machine busier than its cores", () => {
    expect(chooseThreadCount({ cores: 2, loadAverage: 21.5 })).toBe(1);
  });

  it("takes the requested count when one is given, free cores or not", () => {
    expect(chooseThreadCount({ cores: 2, loadAverage: 21.5, requested: 4 })).toBe(4);
  });
});
