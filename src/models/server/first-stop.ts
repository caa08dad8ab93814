/** Where the earliest stop string starts in a completion's text. */

/** The index of the first occurrence of any of `stops` in `text`, or undefined when none occurs. */
export function firstStop(text: string, stops: readonly string[]): number | undefined {
  let first: number | undefined;
  for (const stop of stops) {
    const at = text.indexOf(stop);
    if (at >= 0 && (first === undefined || at < first)) first = at;
  }
  return first;
}
