/**
 * Episodes and tournament verdicts → SFT rows with provenance. Solver rows replay a trajectory's conversation and keep
 * the sampler's token ids; judge rows are pairwise verdicts whose winner was truly correct and whose loser was not.
 */
import type { Episode } from "../../core/episode.js";
import { messageText, type ChatMessage } from "../../core/message.js";
import type { Step } from "../../core/step.js";
import type { Trajectory } from "../../core/trajectory.js";
import type { RowProvenance } from "../local-dataset.js";
import type { SampledCall, SftMessage, SftRow } from "../sft-row.js";

/** A curated row and where it came from (its split is decided later). */
export interface CuratedRow {
  row: SftRow;
  taskId: string;
  source: Omit<RowProvenance, "id" | "split">;
}

const textMessages = (messages: readonly ChatMessage[]): SftMessage[] => messages.map((message) => ({ role: message.role, content: messageText(message.content) }));

/** Each step's token ids, when every step of the trajectory recorded them. */
function sampledCalls(steps: readonly Step[]): SampledCall[] | undefined {
  const calls = steps.map((step) => ({ promptTokenIds: step.promptTokenIds ?? [], completionTokenIds: step.completionTokenIds ?? [] }));
  return calls.every((call) => call.promptTokenIds.length > 0 && call.completionTokenIds.length > 0) ? calls : undefined;
}

/** The conversation of a trajectory: the last call's input (which carries the earlier turns) and its reply. */
function conversation(steps: readonly Step[]): SftMessage[] {
  const last = steps.at(-1)!;
  return [...textMessages(last.input), { role: "assistant", content: last.output }];
}

/**
 * A row from trajectory `name` of `episode`, or undefined when the episode has no such trajectory with steps. The row
 * also carries the task as a question (its first user message) and the ground truth, so `rllm eval` can run it.
 */
export function solverRow(episode: Episode, name: string, run: string): CuratedRow | undefined {
  const trajectory = episode.trajectories.find((candidate) => candidate.name === name && candidate.steps.length > 0);
  if (!trajectory) return undefined;
  const messages = conversation(trajectory.steps);
  const question = messages.find((message) => message.role === "user")?.content;
  const sampled = sampledCalls(trajectory.steps);
  const row: SftRow = {
    id: `${episode.id}/${name}`,
    messages,
    ...(sampled ? { sampled } : {}),
    ...(question !== undefined && episode.target !== undefined ? { question, ground_truth: Array.isArray(episode.target) ? String(episode.target[0]) : String(episode.target) } : {}),
    reward: episode.score.value,
  };
  return { row, taskId: episode.taskId, source: { run, episode: episode.id, trajectory: name } };
}

/** One saved tournament: the task, its judge trajectory (one step per judge call, verdict in `info`). */
export interface TournamentVerdicts {
  taskId: string;
  method: string;
  judgeTrajectory: Trajectory;
}

/**
 * Judge rows of one tournament: pairwise calls whose winner was graded correct and whose loser was not (a verdict on
 * two right or two wrong answers teaches nothing about telling them apart). `candidates` are the task's episodes in
 * the tournament's slot order (scored attempts, infra failures left out, by attempt) — how `rllm eval --rerank` built it.
 */
export function judgeRows(tournament: TournamentVerdicts, candidates: readonly Episode[], run: string): CuratedRow[] {
  const rows: CuratedRow[] = [];
  tournament.judgeTrajectory.steps.forEach((step, index) => {
    const info = step.info as { type?: unknown; slotA?: unknown; slotB?: unknown; winner?: unknown; parseError?: unknown };
    if (info.type !== "pair" || info.parseError === true || (info.winner !== "A" && info.winner !== "B")) return;
    const first = candidates[Number(info.slotA)];
    const second = candidates[Number(info.slotB)];
    if (!first || !second) return;
    const [winner, loser] = info.winner === "A" ? [first, second] : [second, first];
    if (!winner.score.isCorrect || loser.score.isCorrect) return;
    const sampled = sampledCalls([step]);
    rows.push({
      row: { id: `${tournament.taskId}/${tournament.method}/judge-${index}`, messages: conversation([step]), ...(sampled ? { sampled } : {}) },
      taskId: tournament.taskId,
      source: { run, episode: first.id, trajectory: "judge", step: index },
    });
  });
  return rows;
}
