/** The response cache's store: one SQLite file under $RLLM_HOME/cache/, keyed by request hash; a corrupt file is set aside and rebuilt. */
import { existsSync, mkdirSync, renameSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import type { ChatResponse } from "../core/llm-client.js";

/** Entries and size of a cache file, for `rllm cache stats`. */
export interface CacheStats {
  file: string;
  entries: number;
  bytes: number;
  oldest?: number;
  newest?: number;
}

/** The cache file under an rllm home directory. */
export function cacheFile(home: string): string {
  return path.join(home, "cache", "responses.sqlite");
}

/** SQLite's codes for a file that is not, or no longer, a valid database. */
const corruptionCodes = new Set(["SQLITE_CORRUPT", "SQLITE_NOTADB"]);

function isCorruption(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && [...corruptionCodes].some((prefix) => code.startsWith(prefix));
}

/** A response cache in one SQLite file. Reads that fail count as misses: the cache never fails a run. */
export class ResponseCache {
  private database: Database.Database;
  /** Set when the file was corrupt on opening: what was done about it, for the CLI to print. */
  readonly recovery?: string;

  private constructor(
    readonly file: string,
    database: Database.Database,
    recovery?: string,
  ) {
    this.database = database;
    this.recovery = recovery;
  }

  /** Opens (or creates) the cache file; a corrupt one is renamed to `<file>.corrupt-<time>` and a fresh one made. */
  static open(file: string, now: number = Date.now()): ResponseCache {
    mkdirSync(path.dirname(file), { recursive: true });
    try {
      return new ResponseCache(file, openDatabase(file));
    } catch (error) {
      if (!isCorruption(error)) throw error;
      const aside = `${file}.corrupt-${now}`;
      renameSync(file, aside);
      for (const suffix of ["-wal", "-shm"]) if (existsSync(file + suffix)) renameSync(file + suffix, aside + suffix);
      const reason = error instanceof Error ? error.message : String(error);
      return new ResponseCache(file, openDatabase(file), `cache file ${file} was corrupt (${reason}): moved to ${aside} and rebuilt`);
    }
  }

  /** The stored reply for `key`, unless absent, older than `ttlMs`, or unreadable. */
  get(key: string, ttlMs: number | undefined, now: number = Date.now()): ChatResponse | undefined {
    try {
      const row = this.database.prepare("SELECT response, created FROM responses WHERE key = ?").get(key) as { response: string; created: number } | undefined;
      if (!row || (ttlMs !== undefined && now - row.created > ttlMs)) return undefined;
      return JSON.parse(row.response) as ChatResponse;
    } catch {
      return undefined;
    }
  }

  /** Stores a reply; a failed write is skipped (the run has its reply either way). */
  put(key: string, response: ChatResponse, now: number = Date.now()): void {
    try {
      this.database.prepare("INSERT OR REPLACE INTO responses (key, response, created) VALUES (?, ?, ?)").run(key, JSON.stringify(response), now);
    } catch {
      // A full disk or a file corrupted mid-run costs the cache an entry, not the run.
    }
  }

  /** Entry count, size on disk and the age range of entries. */
  stats(): CacheStats {
    const row = this.database.prepare("SELECT COUNT(*) AS entries, MIN(created) AS oldest, MAX(created) AS newest FROM responses").get() as {
      entries: number;
      oldest: number | null;
      newest: number | null;
    };
    const pages = this.database.pragma("page_count", { simple: true }) as number;
    const pageSize = this.database.pragma("page_size", { simple: true }) as number;
    return { file: this.file, entries: row.entries, bytes: pages * pageSize, ...(row.oldest !== null ? { oldest: row.oldest } : {}), ...(row.newest !== null ? { newest: row.newest } : {}) };
  }

  /** Deletes every entry, or those older than `olderThanMs`; returns how many went. */
  clear(olderThanMs?: number, now: number = Date.now()): number {
    const result =
      olderThanMs === undefined
        ? this.database.prepare("DELETE FROM responses").run()
        : this.database.prepare("DELETE FROM responses WHERE created < ?").run(now - olderThanMs);
    this.database.exec("VACUUM");
    return result.changes;
  }

  close(): void {
    this.database.close();
  }
}

/** Opens the file and touches it, so that a file that is not a database fails here rather than on the first read. */
function openDatabase(file: string): Database.Database {
  const database = new Database(file);
  try {
    // WAL: concurrent runs sharing one cache read while another writes.
    database.pragma("journal_mode = WAL");
    database.exec("CREATE TABLE IF NOT EXISTS responses (key TEXT PRIMARY KEY, response TEXT NOT NULL, created INTEGER NOT NULL)");
    database.prepare("SELECT COUNT(*) FROM responses").get();
    return database;
  } catch (error) {
    database.close();
    throw error;
  }
}
