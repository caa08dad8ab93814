/** The append-only episodes.jsonl of a run: one line per finished episode, written at once so a crash loses nothing finished. */
import { closeSync, existsSync, openSync, readFileSync, writeSync } from "node:fs";
import { EpisodeSchema, type Episode } from "../core/episode.js";
import { describeIssues, InputError } from "../core/errors/input-error.js";

/**
 * An open episodes.jsonl: each episode is one write() of one line, handed to the kernel at once, so a
 * killed process loses nothing it had finished. The descriptor stays open for the run (an open per
 * episode costs more than the write).
 */
export class EpisodeWriter {
  private readonly descriptor: number;
  constructor(readonly file: string) {
    this.descriptor = openSync(file, "a");
  }
  append(episode: Episode): void {
    writeSync(this.descriptor, JSON.stringify(episode) + "\n");
  }
  close(): void {
    closeSync(this.descriptor);
  }
}

/** Appends one episode to `file` (opening and closing it: for one-off writes). */
export function appendEpisode(file: string, episode: Episode): void {
  const writer = new EpisodeWriter(file);
  try {
    writer.append(episode);
  } finally {
    writer.close();
  }
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
