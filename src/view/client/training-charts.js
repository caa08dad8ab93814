// The training tab: curves per step from metrics.jsonl, drawn by uPlot (bundled into the report).
(() => {
  const view = globalThis.rllmView;
  const { element } = view;
  const colors = ["#2563eb", "#dc2626", "#16a34a", "#9333ea", "#ea580c", "#0891b2"];

  // Each chart: a title, the x values and named series (null where a step has no value); skipped when all are null.
  const chart = (container, id, title, steps, series, options = {}) => {
    const shown = series.filter((entry) => entry.values.some((value) => value !== null && value !== undefined));
    if (shown.length === 0 || steps.length === 0) return;
    const target = element("div", { class: "chart", id });
    container.append(element("div", { class: "chart-card" }, [element("h3", { text: title }), target]));
    const width = Math.max(320, Math.min(560, container.clientWidth / 2 - 24));
    new uPlot(
      {
        width,
        height: 220,
        scales: { x: { time: false } },
        series: [{ label: "step" }, ...shown.map((entry, index) => ({ label: entry.label, stroke: entry.color ?? colors[index % colors.length], width: 2, dash: entry.dash, points: { show: steps.length < 60 }, spanGaps: true }))],
        // Whole steps on the x axis: uPlot would otherwise tick at 1.2, 1.4...
        axes: [{ label: "step", incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000] }, {}],
        bands: options.band ? [{ series: [shown.findIndex((entry) => entry.label === options.band[0]) + 1, shown.findIndex((entry) => entry.label === options.band[1]) + 1], fill: "rgba(37,99,235,0.12)" }] : undefined,
      },
      [steps, ...shown.map((entry) => entry.values.map((value) => (value === undefined ? null : value)))],
      target,
    );
  };

  /** Builds the training tab in `panel` from the metrics.jsonl records. */
  view.renderTraining = (panel, records) => {
    const train = records.filter((record) => record.kind === "train").sort((first, second) => first.step - second.step);
    const validation = records.filter((record) => record.kind === "validation").sort((first, second) => first.step - second.step);
    const grid = element("div", { class: "charts" });
    panel.replaceChildren(element("p", { class: "muted", text: `${train.length} training steps, ${validation.length} validations` }), grid);
    const steps = train.map((record) => record.step);
    const field = (path) => train.map((record) => path.reduce((value, key) => (value === null || value === undefined ? null : value[key]), record) ?? null);
    chart(grid, "chart-reward", "Reward and accuracy", steps, [
      { label: "reward", values: field(["reward"]) },
      { label: "accuracy", values: field(["accuracy"]) },
      { label: "judge accuracy", values: field(["judgeAccuracy"]) },
    ]);
    const validationSteps = validation.map((record) => record.step);
    const validationField = (path) => validation.map((record) => path.reduce((value, key) => (value === null || value === undefined ? null : value[key]), record) ?? null);
    chart(
      grid,
      "chart-validation",
      "Validation pass@1 with 95% interval",
      validationSteps,
      [
        { label: "pass@1", values: validationField(["passAt1", "mean"]) },
        { label: "95% high", values: validationField(["passAt1", "ci95", 1]), dash: [4, 4], color: "#93c5fd" },
        { label: "95% low", values: validationField(["passAt1", "ci95", 0]), dash: [4, 4], color: "#93c5fd" },
        { label: "judge accuracy", values: validationField(["judgeAccuracy", "mean"]) },
        { label: "rerank@1", values: validationField(["rerankAt1", "mean"]) },
      ],
      { band: ["95% high", "95% low"] },
    );
    chart(grid, "chart-advantage", "Advantage", steps, [
      { label: "mean", values: field(["advantage", "mean"]) },
      { label: "std", values: field(["advantage", "std"]) },
      { label: "min", values: field(["advantage", "min"]) },
      { label: "max", values: field(["advantage", "max"]) },
    ]);
    chart(grid, "chart-groups", "Groups kept and dropped", steps, [
      { label: "kept", values: field(["transform", "keptGroups"]) },
      { label: "dropped: uniform", values: field(["transform", "droppedUniformGroups"]) },
      { label: "dropped: too small", values: field(["transform", "droppedSmallGroups"]) },
    ]);
    chart(grid, "chart-mismatch", "Learner–sampler logprob mismatch", steps, [
      { label: "mean", values: field(["update", "logprobMismatchMean"]) },
      { label: "max", values: field(["update", "logprobMismatchMax"]) },
    ]);
    chart(grid, "chart-loss", "Loss", steps, [{ label: "loss", values: field(["update", "loss"]) }]);
  };
})();
