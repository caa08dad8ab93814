/** The append-only episodes.jsonl of a run: one line per finished episode, written at once so a crash loses nothing finished. */
import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { EpisodeSchema, type Episode } from "../core/episode.js";
import { describeIssues, InputError } from "../core/errors/input-error.js";

/** Appends one episode as a JSON line (a single write call, so lines never interleave). */
export function appendEpisode(file: string, episode: Episode): void {
  appendFileSync(file, JSON.stringify(episode) + "\n");
}

/**
 * Reads a run's episodes; a later line for the same id replaces an earlier one (a resumed infra
 * failure). A torn last line, left by a crash mid-write, is skipped; a bad line elsewhere is an error.
 */
export function readEpisodes(file: string): Episode[] {
  if (!existsSync(file)) return [];
  const lines = readFileSync(file, "utf8").split("\n");
  const byId = new Map<string, Episode>();
  lines.forEach((line, index) => {
    if (line.trim() === "") return;
    const isLastLine = lines.slice(index + 1).every((rest) => rest.trim() === "");
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      if (isLastLine) return;
      throw new InputError(`${file}:${index + 1}: not valid JSON (${(error as Error).message})`);
    }
    const parsed = EpisodeSchema.safeParse(value);
    if (!parsed.success) throw new InputError(describeIssues(file, index + 1, parsed.error));
    byId.delete(parsed.data.id);
    byId.set(parsed.data.id, parsed.data);
  });
  return [...byId.values()];
}
