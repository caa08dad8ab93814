/** Tolerant parsing of judge ratings: a reply we cannot read is a `parseError`, which counts as a tie, never a crash. */
import type { Winner } from "./tournament-record.js";

export interface ParsedPairRatings {
  ratingA: number | null;
  ratingB: number | null;
  winner: Winner;
  parseError: boolean;
}

const numberPattern = String.raw`(\d+(?:\.\d+)?)(?:\s*/\s*10)?`;

/**
 * The last rating for `label` in the text. Accepts `<rating_A>8</rating_A>`, `<rating_a> 8/10 </rating_a>`,
 * `<rating_A>8` without a closing tag, and "Rating A: 8" / "rating_A = 8" as a fallback. Values outside 1..10 do not count.
 */
function lastRating(text: string, label: string): number | null {
  const patterns = [
    new RegExp(String.raw`<\s*rating[_\s-]*${label}\s*>\s*\**\s*${numberPattern}`, "gi"),
    new RegExp(String.raw`\brating[_\s-]*(?:for\s+)?(?:solution\s+)?${label}\b\s*\**\s*[:=]\s*\**\s*${numberPattern}`, "gi"),
  ];
  for (const pattern of patterns) {
    const matches = [...text.matchAll(pattern)];
    const last = matches[matches.length - 1];
    if (last) {
      const value = Math.round(Number(last[1]));
      if (value >= 1 && value <= 10) return value;
    }
  }
  return null;
}

/** Both ratings and the verdict of a pairwise reply; a missing or out-of-range rating makes a tie with parseError. */
export function parsePairRatings(text: string): ParsedPairRatings {
  const ratingA = lastRating(text, "A");
  const ratingB = lastRating(text, "B");
  if (ratingA === null || ratingB === null) return { ratingA: null, ratingB: null, winner: "tie", parseError: true };
  return { ratingA, ratingB, winner: ratingA > ratingB ? "A" : ratingA < ratingB ? "B" : "tie", parseError: false };
}

/** The rating of a pointwise reply (`<rating>n</rating>` or "Rating: n"), or null with parseError. */
export function parsePointRating(text: string): { rating: number | null; parseError: boolean } {
  const patterns = [
    new RegExp(String.raw`<\s*rating\s*>\s*\**\s*${numberPattern}`, "gi"),
    new RegExp(String.raw`\brating\s*\**\s*[:=]\s*\**\s*${numberPattern}`, "gi"),
  ];
  for (const pattern of patterns) {
    const matches = [...text.matchAll(pattern)];
    const last = matches[matches.length - 1];
    if (last) {
      const value = Math.round(Number(last[1]));
      if (value >= 1 && value <= 10) return { rating: value, parseError: false };
    }
  }
  return { rating: null, parseError: true };
}
