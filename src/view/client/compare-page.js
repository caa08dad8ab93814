// @ts-check
// The `rllm compare` page: paired figures of run B against run A, and the tasks each run alone solved.
(() => {
  const view = globalThis.rllmView;
  const { element } = view;

  /** @param {number} value a difference in accuracy, 0..1 */
  const points = (value) => `${value >= 0 ? "+" : ""}${(100 * value).toFixed(1)}`;

  /** Builds the comparison page in `app`. */
  view.renderCompare = (app, data) => {
    const figures = data.comparison;
    /** @type {(run: import("../compare-runs.js").ComparedRun, label: string) => string} */
    const side = (run, label) => `${label}: ${run.directory} (${run.benchmark ?? "?"} · ${run.model ?? "?"} · ${run.episodes} episodes over ${run.tasks} tasks)`;
    /** @type {(id: string, title: string, tasks: readonly string[]) => HTMLElement} */
    const taskList = (id, title, tasks) =>
      element("div", { class: "solved-list" }, [element("h3", { text: `${title} (${tasks.length})` }), element("ul", { id }, tasks.map((taskId) => element("li", { text: taskId })))]);
    app.append(
      element("header", {}, [element("h1", { text: "rllm compare" }), element("div", { class: "muted", text: side(data.a, "A") }), element("div", { class: "muted", text: side(data.b, "B") })]),
      element("section", { class: "panel" }, [
        view.keyValueTable(
          [
            ["shared tasks", String(figures.tasks)],
            ["accuracy A", view.percent(figures.accuracyA)],
            ["accuracy B", view.percent(figures.accuracyB)],
            ["B − A", `${points(figures.difference)} ± ${(100 * figures.stderr).toFixed(1)} points (paired SE; 95% CI ${points(figures.ci95[0])} to ${points(figures.ci95[1])})`],
            ["McNemar", `${figures.mcnemar.onlyA} tasks solved by A alone, ${figures.mcnemar.onlyB} by B alone: exact p = ${figures.mcnemar.pValue.toPrecision(3)}`],
            // Runs made with --rerank: each method both used, paired over the tasks both reranked.
            ...data.rerank.flatMap(({ method, rerankAt1, judgeCalls }) => [
              [
                `rerank@1 ${method}`,
                `A ${view.percent(rerankAt1.accuracyA)}, B ${view.percent(rerankAt1.accuracyB)} over ${rerankAt1.tasks} tasks: B − A ${points(rerankAt1.difference)} ± ${(100 * rerankAt1.stderr).toFixed(1)} points (paired SE); McNemar p = ${rerankAt1.mcnemar.pValue.toPrecision(3)}`,
              ],
              [
                `judge calls ${method}`,
                `A ${judgeCalls.meanA.toFixed(1)}, B ${judgeCalls.meanB.toFixed(1)} per task: B − A ${judgeCalls.difference >= 0 ? "+" : ""}${judgeCalls.difference.toFixed(1)} ± ${judgeCalls.stderr.toFixed(1)} (paired SE)`,
              ],
            ]),
          ],
          { id: "compare-figures" },
        ),
        element("div", { class: "solved-lists" }, [taskList("solved-only-a", "Solved by A alone", figures.solvedOnlyByA), taskList("solved-only-b", "Solved by B alone", figures.solvedOnlyByB)]),
        element("h2", { text: "Per task (accuracy over scored attempts)" }),
        view.table(
          ["task", "A", "B", "B − A"],
          data.taskRows.map(([taskId, a, b]) => [taskId, view.percent(a, 0), view.percent(b, 0), points(b - a)]),
          { id: "compare-tasks" },
        ),
      ]),
    );
  };
})();
