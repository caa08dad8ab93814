/** Candidates grouped by their final answer under the task's verifier-free normaliser, so equal answers are one arm. */

/**
 * Groups candidate indices by answer, in order of first appearance. A candidate with no answer (`undefined`, or
 * `answers` absent) is a group of its own: nothing says it agrees with anyone. Answers are compared as given; the
 * caller passes them already normalised (`artifacts.comparableAnswer`, as majority vote does).
 */
export function groupByAnswer(count: number, answers?: ReadonlyArray<string | undefined>): number[][] {
  const groups: number[][] = [];
  const byAnswer = new Map<string, number[]>();
  for (let candidate = 0; candidate < count; candidate += 1) {
    const answer = answers?.[candidate];
    if (answer === undefined) {
      groups.push([candidate]);
      continue;
    }
    const group = byAnswer.get(answer);
    if (group) group.push(candidate);
    else {
      const created = [candidate];
      byAnswer.set(answer, created);
      groups.push(created);
    }
  }
  return groups;
}
