import { describe, expect, it } from "vitest";
import { normalizeAnswer } from "../../../verifiers/math/normalize-answer.js";

describe("normalizeAnswer", () => {
  it.each([
    ["\\left( \\dfrac{1}{2} \\right)", "( \\frac{1}{2} )"],
    ["7,425,000", "7425000"],
    ["1 000", "1000"],
    ["1{,}000", "1000"],
    ["14 {, }916", "14916"],
    ["0,111", "0,111"],
    ["2\\pi cm", "2\\pi"],
    ["\\frac{1}{2}cm", "\\frac{1}{2}"],
    ["(11,7)or(7,11)", "(11,7), (7,11)"],
    ["\\$10.50", "10.50"],
    ["865 \\mbox{ inches}^2", "865"],
    ["12 square units", "12"],
    ["\\text{Monday}", "Monday"],
    [".5", "0.5"],
    ["$\\frac{3}{4}$", "\\frac{3}{4}"],
  ])("normalises %s to %s", (input, expected) => {
    expect(normalizeAnswer(input).text).toBe(expected);
  });

  it("records percent and degree decorations it removes", () => {
    expect(normalizeAnswer("25\\%")).toEqual({ text: "25", percent: true, degrees: false });
    expect(normalizeAnswer("25 percent").percent).toBe(true);
    expect(normalizeAnswer("30^{\\circ}")).toEqual({ text: "30", percent: false, degrees: true });
    expect(normalizeAnswer("30°").degrees).toBe(true);
  });

  it.each([
    ["4 cents", "cent"],
    ["4 \\text{ Dollars}", "dollar"],
    ["12 square units", "unit^2"],
    ["12 \\text{ sq units}", "unit^2"],
    ["3 \\text{ boxes}", "box"],
    ["42 meters per second", "meter per second"],
    ["4 km", "km"],
    ["12\\text{ (rounded)}", undefined],
    ["12", undefined],
  ])("records the words of the unit it removes from %s: %s", (input, unitWords) => {
    expect(normalizeAnswer(input).unitWords).toBe(unitWords);
  });

  it.each([
    ["60 mph", "length·time^-1", "0.44704"],
    ["60 miles per hour", "length·time^-1", "(1609.344)*(3600)^-1"],
    ["100 km/hr", "length·time^-1", "(1000)*(3600)^-1"],
    ["9.8 \\text{ m/s}^2", "length·time^-2", "(1)*(1)^-2"],
    ["9.8 meters per second squared", "length·time^-2", "(1)*(1)^-2"],
    ["12 cc", "length^3", "0.000001"],
    ["2 \\text{ liters}", "length^3", "0.001"],
    ["400 cents", "money", "0.01"],
  ])("reads the physical unit of %s", (input, dimension, factor) => {
    const { text, unit } = normalizeAnswer(input);
    expect(unit?.dimension).toBe(dimension);
    expect(unit?.factor).toBe(factor);
    expect(text).toMatch(/^[\d.]+$/);
  });

  it.each([["5 x/y"], ["5 apples/s"], ["5 \\text{ apples per day}"]])("reads no physical unit in %s", (input) => {
    expect(normalizeAnswer(input).unit).toBeUndefined();
  });

  it("keeps a dollar sign with no other unit, for amounts of money on the other side", () => {
    expect(normalizeAnswer("\\$4").dollars).toBe(true);
    expect(normalizeAnswer("\\$4 per hour").dollars).toBeUndefined();
  });

  it("keeps the base of a subscripted literal", () => {
    expect(normalizeAnswer("204_{5}")).toEqual({ text: "204", percent: false, degrees: false, base: 5 });
  });
});
