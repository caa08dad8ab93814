import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parsePairRatings, parsePointRating } from "../../src/tournament/parse-ratings.js";

interface Cases {
  pair: Array<{ text: string; ratingA: number | null; ratingB: number | null; winner: string; parseError?: boolean }>;
  point: Array<{ text: string; rating: number | null; parseError?: boolean }>;
}
const cases: Cases = JSON.parse(readFileSync(new URL("./fixtures/rating-cases.json", import.meta.url), "utf8"));

describe("parsePairRatings", () => {
  it.each(cases.pair)("reads %j", ({ text, ratingA, ratingB, winner, parseError }) => {
    expect(parsePairRatings(text)).toEqual({ ratingA, ratingB, winner, parseError: parseError ?? false });
  });
});

describe("parsePointRating", () => {
  it.each(cases.point)("reads %j", ({ text, rating, parseError }) => {
    expect(parsePointRating(text)).toEqual({ rating, parseError: parseError ?? false });
  });
});
