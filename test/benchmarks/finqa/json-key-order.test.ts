// Column order survives pandas JSON even for year-named columns, which JSON.parse would move to the front.
import { describe, expect, it } from "vitest";
import { jsonKeyOrder } from "../../../benchmarks/finqa/json-key-order.js";

describe("jsonKeyOrder", () => {
  it("lists top-level keys as written, skipping nested values and escaped quotes", () => {
    const json = '{"label":{"0":"a \\"quoted\\" {x}"},"2015":[1,[2,3]],"2014":{"0":null}, "note" : "x,y"}';
    expect(Object.keys(JSON.parse(json))).toEqual(["2014", "2015", "label", "note"]);
    expect(jsonKeyOrder(json)).toEqual(["label", "2015", "2014", "note"]);
  });

  it("uses the first record of an array", () => {
    expect(jsonKeyOrder('[{"item":"a","2023":1},{"item":"b","2023":2}]')).toEqual(["item", "2023"]);
  });
});
