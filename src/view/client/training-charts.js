// @ts-check
/** @typedef {import("../run-data.js").TrainingRecord} TrainingRecord */
/**
 * One line of a chart: its values per step, read from records that may lack the field (null or undefined there).
 * @typedef {{ label: string, values: readonly unknown[], dash?: number[], color?: string }} Series
 */
// The training tab: curves per step from metrics.jsonl, drawn by uPlot (bundled into the report).
(() => {
  const view = globalThis.rllmView;
  const { element } = view;
  const colors = ["#2563eb", "#dc2626", "#16a34a", "#9333ea", "#ea580c", "#0891b2"];

  // Tick labels of a value axis, with as many decimals as the step between ticks needs: uPlot's default prints at most
  // three, so a logprob mismatch of 1e-7 read "0" on every tick. Tiny or huge values go to exponent notation.
  view.tickLabels = (splits) => {
    const finite = splits.filter((value) => Number.isFinite(value));
    const largest = Math.max(0, ...finite.map(Math.abs));
    const [firstTick, secondTick] = finite;
    const step = firstTick !== undefined && secondTick !== undefined ? Math.abs(secondTick - firstTick) : largest;
    if (largest !== 0 && (largest < 1e-3 || largest >= 1e6)) {
      const digits = step > 0 ? Math.max(0, Math.min(6, Math.ceil(Math.log10(largest / step)))) : 1;
      return splits.map((value) => (Number.isFinite(value) ? (value === 0 ? "0" : value.toExponential(digits)) : ""));
    }
    const decimals = step > 0 ? Math.max(0, Math.min(8, -Math.floor(Math.log10(step) + 1e-9))) : 3;
    return splits.map((value) => (Number.isFinite(value) ? (Object.is(value, -0) ? 0 : value).toFixed(decimals) : ""));
  };

  // A value axis as wide as its longest label: with uPlot's fixed 50 px the leading minus of "-0.005" was cut off.
  const measure = document.createElement("canvas").getContext("2d");
  /** @type {(target: HTMLElement) => import("uplot").Axis} */
  const valueAxis = (target) => ({
    values: (_plot, splits) => {
      const labels = view.tickLabels(splits);
      target.dataset.yTicks = labels.join(" ");
      return labels;
    },
    size: (plot, values) => {
      // uPlot keeps the axis font scaled by the device pixel ratio; the size it asks for is in CSS pixels.
      if (!measure) return 50; // no 2D canvas to measure with: uPlot's own default width
      measure.font = plot.axes[1]?.font?.[0] ?? "12px sans-serif";
      const widest = Math.max(0, ...(values ?? []).map((label) => measure.measureText(label).width)) / (globalThis.devicePixelRatio || 1);
      // Tick length (10) and the gap between tick and label (5) on the label's left, a few pixels of air on its right.
      const size = Math.ceil(widest) + 20;
      target.dataset.yAxisSize = String(size);
      return Math.max(40, size);
    },
  });

  // Each chart: a title, the x values and named series (null where a step has no value); skipped when all are null.
  /** @type {(container: HTMLElement, id: string, title: string, steps: number[], series: Series[], options?: { band?: [string, string] }) => void} */
  const chart = (container, id, title, steps, series, options = {}) => {
    const shown = series.filter((entry) => entry.values.some((value) => value !== null && value !== undefined));
    if (shown.length === 0 || steps.length === 0) return;
    const target = element("div", { class: "chart", id });
    container.append(element("div", { class: "chart-card" }, [element("h3", { text: title }), target]));
    const band = options.band;
    const width = Math.max(320, Math.min(560, container.clientWidth / 2 - 24));
    new uPlot(
      {
        width,
        height: 220,
        scales: { x: { time: false } },
        series: [{ label: "step" }, ...shown.map((entry, index) => ({ label: entry.label, stroke: entry.color ?? colors[index % colors.length], width: 2, dash: entry.dash, points: { show: steps.length < 60 }, spanGaps: true }))],
        // Whole steps on the x axis: uPlot would otherwise tick at 1.2, 1.4...
        axes: [{ label: "step", incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000] }, valueAxis(target)],
        bands: band ? [{ series: [shown.findIndex((entry) => entry.label === band[0]) + 1, shown.findIndex((entry) => entry.label === band[1]) + 1], fill: "rgba(37,99,235,0.12)" }] : undefined,
      },
      [steps, ...shown.map((entry) => entry.values.map((value) => (typeof value === "number" ? value : null)))],
      target,
    );
  };

  /**
   * The value at `path` (keys, or indices into arrays) inside a record, or null where the record has no such field:
   * the records are loose (run-data.ts), and a chart draws whichever fields a run wrote.
   * @type {(record: unknown, path: readonly (string | number)[]) => unknown}
   */
  const valueAt = (record, path) => path.reduce((value, key) => (typeof value === "object" && value !== null ? (Reflect.get(value, key) ?? null) : null), record);

  /** Builds the training tab in `panel` from the metrics.jsonl records. */
  view.renderTraining = (panel, records) => {
    const train = records.filter((record) => record.kind === "train").sort((first, second) => first.step - second.step);
    const validation = records.filter((record) => record.kind === "validation").sort((first, second) => first.step - second.step);
    const grid = element("div", { class: "charts" });
    panel.replaceChildren(element("p", { class: "muted", text: `${train.length} training steps, ${validation.length} validations` }), grid);
    const steps = train.map((record) => record.step);
    /** @param {readonly string[]} path */
    const field = (path) => train.map((record) => valueAt(record, path));
    // With 0/1 rewards the reward is the accuracy: one line says so, where two would hide one under the other.
    const reward = field(["reward"]);
    const accuracy = field(["accuracy"]);
    const isSameLine = reward.every((value, index) => value === accuracy[index]);
    chart(grid, "chart-reward", "Reward and accuracy", steps, [
      ...(isSameLine ? [{ label: "reward = accuracy", values: reward }] : [{ label: "reward", values: reward }, { label: "accuracy", values: accuracy, dash: [6, 4] }]),
      { label: "judge accuracy", values: field(["judgeAccuracy"]) },
    ]);
    const validationSteps = validation.map((record) => record.step);
    /** @param {readonly (string | number)[]} path */
    const validationField = (path) => validation.map((record) => valueAt(record, path));
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
    // Off-policy training (rllm train --async, --tis-cap): how many versions behind the trainer the batch's rollouts were
    // sampled, and the trainer-to-sampler probability ratio of their tokens (with TIS, the share cut to the cap).
    // A synchronous run's staleness is 0 throughout: no chart for it.
    const isOffPolicy = [...field(["staleness", "max"]), ...field(["staleness", "droppedGroups"])].some((value) => typeof value === "number" && value !== 0);
    if (isOffPolicy) {
      chart(grid, "chart-staleness", "Staleness (policy versions behind the trainer)", steps, [
        { label: "mean", values: field(["staleness", "mean"]) },
        { label: "max", values: field(["staleness", "max"]) },
        { label: "stale groups dropped", values: field(["staleness", "droppedGroups"]), dash: [6, 4] },
      ]);
    }
    chart(grid, "chart-importance-ratio", "Importance ratio (trainer ÷ sampler)", steps, [
      { label: "mean", values: field(["update", "importanceRatioMean"]) },
      { label: "max", values: field(["update", "importanceRatioMax"]) },
      { label: "clipped share", values: field(["update", "importanceRatioClippedShare"]), dash: [6, 4] },
    ]);
    // An RL step writes its policy update's loss under `update`; an SFT step (rllm sft's metrics.jsonl) at the top level.
    const updateLoss = field(["update", "loss"]);
    const loss = field(["loss"]).map((value, index) => updateLoss[index] ?? value);
    chart(grid, "chart-loss", "Loss", steps, [{ label: "loss", values: loss }]);
    // SFT's held-out loss, measured before the first step and every --val-every steps.
    chart(grid, "chart-validation-loss", "Validation loss", validationSteps, [{ label: "validation loss", values: validationField(["loss"]) }]);
  };
})();
