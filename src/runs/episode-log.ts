/** The append-only episodes.jsonl of a run: one line per finished episode, written at once so a crash loses nothing finished. */
import { EpisodeSchema, type Episode } from "../core/episode.js";
import { JsonlAppender, readJsonl } from "./append-only-jsonl.js";

/** Opens episodes.jsonl for appending; a torn tail left by a kill is cut off first (kept in episodes.jsonl.torn). */
export function openEpisodeLog(file: string): JsonlAppender<Episode> {
  return new JsonlAppender<Episode>(file);
}

/** Appends one episode to `file` (opening and closing it: for one-off writes). */
export function appendEpisode(file: string, episode: Episode): void {
  const log = openEpisodeLog(file);
  try {
    log.append(episode);
  } finally {
    log.close();
  }
}

/**
 * Reads a run's episodes; a later line for the same id replaces an earlier one (a resumed infra failure). A torn
 * tail left by a crash mid-write is skipped; any other bad line is an error naming the file and the line.
 */
export function readEpisodes(file: string): Episode[] {
  const byId = new Map<string, Episode>();
  for (const { record } of readJsonl(file, EpisodeSchema)) {
    byId.delete(record.id);
    byId.set(record.id, record);
  }
  return [...byId.values()];
}
