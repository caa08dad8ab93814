/** maj@k: per task, take the most common answer among the first k scored attempts; the task counts if that answer was graded correct. */

export interface AnsweredAttempt {
  attempt: number;
  answer: string | undefined;
  isCorrect: boolean;
}

/** Whether the majority answer of the first k attempts is correct (ties go to the answer seen first; no answers → false). */
export function majorityIsCorrect(attempts: readonly AnsweredAttempt[], k: number): boolean {
  const first = [...attempts].sort((a, b) => a.attempt - b.attempt).slice(0, k);
  const votes = new Map<string, { count: number; isCorrect: boolean; order: number }>();
  first.forEach((attempt, order) => {
    if (attempt.answer === undefined || attempt.answer === "") return;
    const entry = votes.get(attempt.answer) ?? { count: 0, isCorrect: attempt.isCorrect, order };
    entry.count += 1;
    votes.set(attempt.answer, entry);
  });
  let best: { count: number; isCorrect: boolean; order: number } | undefined;
  for (const entry of votes.values()) {
    if (!best || entry.count > best.count || (entry.count === best.count && entry.order < best.order)) best = entry;
  }
  return best?.isCorrect ?? false;
}

/** Mean maj@k over the tasks that have at least k scored attempts. */
export function meanMajorityAtK(tasks: readonly (readonly AnsweredAttempt[])[], k: number): { value: number; tasks: number } {
  const eligible = tasks.filter((attempts) => attempts.length >= k);
  if (eligible.length === 0) return { value: 0, tasks: 0 };
  const correct = eligible.filter((attempts) => majorityIsCorrect(attempts, k)).length;
  return { value: correct / eligible.length, tasks: eligible.length };
}
