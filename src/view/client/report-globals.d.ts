/**
 * The contract between the report's browser scripts, which the page runs in order as plain scripts (no modules): the
 * `rllmView` namespace dom.js creates and the others fill, the data types they read (from the viewer's own
 * TypeScript), and uPlot's global. Checked by `tsc -p src/view/client` (npm run typecheck).
 */
import type uPlotConstructor from "uplot";
import type { ChatMessage } from "../../core/message.js";
import type { RunComparison } from "../compare-runs.js";
import type { SetReport } from "../render-report.js";
import type { RunData, TrainingRecord, ViewEpisode } from "../run-data.js";

declare global {
  /** An attribute value: `on*` names take a listener, `text` the text content, false/null/undefined leave it out. */
  type ViewAttributeValue = string | number | boolean | null | undefined | ((event: Event) => void);
  type ViewAttributes = Record<string, ViewAttributeValue>;
  /** A child, or children nested any deep: strings and numbers become text, false/null/undefined are skipped. */
  type ViewChild = Node | string | number | null | undefined | false | readonly ViewChild[];

  /** The helpers and page builders the scripts share. */
  interface RllmView {
    element<Tag extends keyof HTMLElementTagNameMap>(tag: Tag, attributes?: ViewAttributes, children?: ViewChild): HTMLElementTagNameMap[Tag];
    svgElement(tag: string, attributes?: Record<string, string | number>, children?: readonly Node[]): SVGElement;
    /** Takes any value: a missing or non-numeric figure prints "–". */
    percent(value: unknown, digits?: number): string;
    number(value: unknown, digits?: number): string;
    keyValueTable(rows: ReadonlyArray<readonly [string, ViewChild] | readonly string[] | false | null | undefined | "" | 0>, attributes?: ViewAttributes): HTMLTableElement;
    table(headers: readonly string[], rows: readonly (readonly ViewChild[])[], attributes?: ViewAttributes): HTMLTableElement;
    contentText(content: ChatMessage["content"] | undefined): string;
    episodeStatus(episode: ViewEpisode): "correct" | "wrong" | "unscored" | "error";
    episodeQuestion(episode: ViewEpisode): string;
    episodeAnswer(episode: ViewEpisode): string;
    targetText(target: unknown): string;
    summaryView(data: RunData): HTMLElement;
    renderCompare(app: HTMLElement, data: RunComparison): void;
    renderSet(app: HTMLElement, data: SetReport): void;
    renderTasks(panel: HTMLElement, episodes: readonly ViewEpisode[], isTraining: boolean): void;
    updateTasks(episodes: readonly ViewEpisode[]): void;
    renderTournaments(panel: HTMLElement, run: RunData): void;
    tickLabels(splits: readonly number[]): string[];
    renderTraining(panel: HTMLElement, records: readonly TrainingRecord[]): void;
    renderTranscript(container: HTMLElement, episode: ViewEpisode): void;
  }

  var rllmView: RllmView;
  /** uPlot's IIFE bundle, inlined before the scripts (render-report.ts). */
  const uPlot: typeof uPlotConstructor;
}
