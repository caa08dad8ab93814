import { describe, expect, it } from "vitest";
import { InputError } from "../../src/core/errors/input-error.js";
import { UnknownNameError } from "../../src/core/errors/unknown-name-error.js";
import { createRegistry } from "../../src/core/registry.js";

/** A registry of numbers whose loads are recorded, so a test can see what was loaded. */
function recordedRegistry() {
  const loaded: string[] = [];
  const entry = (name: string, value: number) => ({
    summary: `the number ${value}`,
    load: async () => {
      loaded.push(name);
      return value;
    },
  });
  const registry = createRegistry("number", { one: entry("one", 1), two: entry("two", 2), three: entry("three", 3) });
  return { registry, loaded };
}

describe("createRegistry", () => {
  it("lists the names in registration order", () => {
    expect(recordedRegistry().registry.names()).toEqual(["one", "two", "three"]);
  });

  it("gives an entry's own fields without loading it", () => {
    const { registry, loaded } = recordedRegistry();
    expect(registry.get("two").summary).toBe("the number 2");
    expect(loaded).toEqual([]);
  });

  it("loads only the entry asked for", async () => {
    const { registry, loaded } = recordedRegistry();
    expect(await registry.load("three")).toBe(3);
    expect(loaded).toEqual(["three"]);
  });

  it("loads every entry in registration order", async () => {
    expect(await recordedRegistry().registry.loadAll()).toEqual([1, 2, 3]);
  });

  it("refuses an unknown name with a usage error that lists the available ones", async () => {
    const { registry } = recordedRegistry();
    expect(() => registry.get("four")).toThrow('unknown number "four"; available: one, two, three');
    await expect(registry.load("four")).rejects.toThrow(UnknownNameError);
    await expect(registry.load("four")).rejects.toThrow(InputError);
    expect(registry.has("four")).toBe(false);
  });

  it("does not take inherited object keys for names", () => {
    const { registry } = recordedRegistry();
    for (const name of ["constructor", "toString", "__proto__"]) expect(registry.has(name)).toBe(false);
    expect(() => registry.get("constructor")).toThrow(UnknownNameError);
  });

  it("ends the unknown-name message with the registry's hint", () => {
    const registry = createRegistry("cookbook", { math: { load: () => 1 } }, { unknownNameHint: "or give a module path" });
    expect(() => registry.get("maths")).toThrow('unknown cookbook "maths"; available: math; or give a module path');
  });

  it("keeps the structured fields on the error", () => {
    const error = new UnknownNameError("verifier", "nope", ["math", "code"]);
    expect({ kind: error.kind, unknownName: error.unknownName, available: error.available }).toEqual({ kind: "verifier", unknownName: "nope", available: ["math", "code"] });
  });
});
