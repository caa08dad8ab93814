// Cells as FinQA prints them become numbers; labels stay text.
import { describe, expect, it } from "vitest";
import { parseCell } from "../../../benchmarks/finqa/parse-cell.js";

describe("parseCell", () => {
  it.each([
    ["$ 5735", 5735, false],
    ["-32 ( 32 )", -32, false],
    ["( 1,234.5 )", -1234.5, false],
    ["4.7%", 4.7, true],
    ["-18.2 ( 18.2 )", -18.2, false],
    ["$ 1,171", 1171, false],
    [12.5, 12.5, false],
  ])("reads %j as %j", (raw, value, isPercent) => {
    expect(parseCell(raw)).toEqual({ value, isPercent });
  });

  it("keeps labels and dates as text and blanks as NULL", () => {
    expect(parseCell("2014 net revenue").value).toBe("2014 net revenue");
    expect(parseCell("12/11").value).toBe("12/11");
    expect(parseCell(" — ").value).toBeNull();
    expect(parseCell("").value).toBeNull();
  });
});
