// @ts-check
/** @typedef {import("../render-report.js").ReportPayload} ReportPayload */
/** @typedef {import("../run-data.js").TrainingRecord} TrainingRecord */
// Starts the report: reads the inline data, builds the header and tabs, and in a live view polls for new lines.
(async () => {
  const view = globalThis.rllmView;
  const { element } = view;
  const payload = await readPayload(requiredElement("report-data").textContent ?? "");
  const app = requiredElement("app");

  /** The summary tab: summary.json's figures, or counts from the episodes while a run has none yet. */
  view.summaryView = (data) => {
    const summary = data.summary;
    const statusCounts = { correct: 0, wrong: 0, unscored: 0, error: 0 };
    for (const episode of data.episodes) statusCounts[view.episodeStatus(episode)] += 1;
    const children = [];
    if (summary) {
      const metrics = summary.metrics;
      const accuracy = metrics.accuracy;
      const rerank = summary.rerank ?? {};
      children.push(
        view.keyValueTable(
          [
            ["status", summary.status ?? "complete"],
            ["accuracy", `${view.percent(accuracy.mean)} ± ${view.percent(accuracy.stderr)} (95% CI ${view.percent(accuracy.ci95[0])} – ${view.percent(accuracy.ci95[1])}, n = ${accuracy.n})`],
            ...Object.entries(metrics["pass@k"] ?? {}).map(([k, value]) => [`pass@${k}`, view.percent(value)]),
            ...Object.entries(metrics["maj@k"] ?? {}).map(([k, value]) => [`maj@${k}`, view.percent(value)]),
            ...Object.entries(rerank).map(([method, figures]) => [
              `rerank@1 [${method}]`,
              figures.status === "failed" ? `FAILED (${figures.parseErrors} of ${figures.judgeCalls} verdicts unreadable)` : `${view.percent(figures["rerank@1"])} · ${figures.tasksReranked}/${figures.tasksExpected} tasks · ${figures.judgeCalls} judge calls`,
            ]),
            ["mean reward", view.number(metrics.reward.mean)],
            ["episodes", `${summary.counts.episodes} (${summary.counts.scored} scored, ${summary.counts.unscored} unscored) over ${summary.counts.tasks} tasks`],
            [
              "errors",
              // infraRate is absent from summary.json files written before it existed: computed from the counts then.
              `${summary.errors.infra} infra (${view.percent(summary.errors.infraRate ?? (summary.counts.episodes > 0 ? summary.errors.infra / summary.counts.episodes : 0))} of episodes, not scored), ${summary.errors.model} model (scored wrong)`,
            ],
            ["tokens", `${summary.tokens.prompt} prompt + ${summary.tokens.completion} completion`],
            ["latency", `p50 ${(summary.latency.p50Ms / 1000).toFixed(2)} s · p95 ${(summary.latency.p95Ms / 1000).toFixed(2)} s`],
            ...Object.entries(metrics.signals ?? {}).map(([name, value]) => [`signal ${name}`, view.number(value)]),
          ],
          { id: "summary-figures" },
        ),
      );
    } else if (data.kind === "training") {
      children.push(trainingSummary(data.training));
    } else {
      children.push(element("p", { class: "muted", text: "No summary.json yet: the figures below are counted from the episodes written so far." }));
    }
    const scored = statusCounts.correct + statusCounts.wrong;
    children.push(
      element("h2", { text: "Episodes in this report" }),
      view.keyValueTable([
        ["episodes", String(data.episodes.length)],
        ["correct / wrong", `${statusCounts.correct} / ${statusCounts.wrong}${scored ? ` (${view.percent(statusCounts.correct / scored)} of scored)` : ""}`],
        ["unscored", String(statusCounts.unscored)],
        ["errors", String(statusCounts.error)],
      ]),
      element("h2", { text: "Config" }),
      element("pre", { class: "config", text: JSON.stringify(data.config, null, 2) }),
    );
    return element("div", {}, children);
  };

  if (payload.kind === "compare") {
    view.renderCompare(app, payload.compare);
    return;
  }
  if (payload.kind === "set") {
    view.renderSet(app, payload.set);
    return;
  }

  const run = payload.run;
  /** @type {{ key: string, label: string, render: () => void }[]} */
  const tabs = [
    { key: "summary", label: "Summary", render: () => renderSummary() },
    { key: "tasks", label: "Tasks", render: () => view.renderTasks(tasksPanel, run.episodes, run.kind === "training") },
    ...(run.tournaments.length > 0 ? [{ key: "tournaments", label: "Tournaments", render: () => view.renderTournaments(tournamentsPanel, run) }] : []),
    ...(run.training.length > 0 ? [{ key: "training", label: "Training", render: () => view.renderTraining(trainingPanel, run.training) }] : []),
  ];
  const summaryPanel = element("section", { id: "panel-summary", class: "panel" });
  const tasksPanel = element("section", { id: "panel-tasks", class: "panel" });
  const tournamentsPanel = element("section", { id: "panel-tournaments", class: "panel" });
  const trainingPanel = element("section", { id: "panel-training", class: "panel" });
  const panels = { summary: summaryPanel, tasks: tasksPanel, tournaments: tournamentsPanel, training: trainingPanel };
  const rendered = new Set();

  /** @param {string} name */
  const show = (name) => {
    for (const [key, panel] of Object.entries(panels)) panel.hidden = key !== name;
    for (const button of app.querySelectorAll("nav button")) button.classList.toggle("active", button.getAttribute("data-tab") === name);
    if (!rendered.has(name)) {
      rendered.add(name);
      tabs.find(({ key }) => key === name)?.render();
    }
    if (location.hash.slice(1) !== name) history.replaceState(null, "", `#${name}`);
  };

  /** @type {Partial<import("../../core/run-config.js").RunConfig>} */
  const config = run.config ?? {};
  const liveBadge = payload.live ? element("span", { class: "badge live", id: "live-badge", text: "live" }) : null;
  app.append(
    element("header", {}, [
      element("h1", {}, [`${config.benchmark ?? config.cookbook ?? "run"} · ${config.model ?? (config.agent ? `agent ${config.agent}` : (config.backend ?? ""))}`, liveBadge]),
      element("div", { class: "muted", text: run.directory }),
      ...(config.sandbox ? [element("div", { class: "muted", text: sandboxLine(config) })] : []),
      element("nav", {}, tabs.map(({ key, label }) => element("button", { "data-tab": key, text: label, onclick: () => show(key) }))),
    ]),
    summaryPanel,
    tasksPanel,
    tournamentsPanel,
    trainingPanel,
  );

  /**
   * "sandbox local (bubblewrap, seccomp and cgroups) · python 3.12.1, the pinned sandbox environment (sandbox.txt) · pools: code sandbox local slots 2".
   * @param {Partial<import("../../core/run-config.js").RunConfig>} given
   */
  function sandboxLine(given) {
    const setting = given.sandbox;
    if (!setting) return "";
    const record = given.resources?.sandbox;
    const parts = [`sandbox ${setting.provider === "remote" ? setting.urls.join(", ") : setting.provider}${record?.isolation ? ` (${record.isolation})` : ""}`];
    if (record?.python) parts.push(`python ${record.python.version}, ${record.python.source}`);
    const pools = Object.entries(given.resources?.pools ?? {}).map(([name, pool]) => `${name} ${Object.entries(pool).filter(([, value]) => typeof value !== "object").map(([key, value]) => `${key} ${value}`).join(" ")}`);
    if (pools.length > 0) parts.push(`pools: ${pools.join("; ")}`);
    return parts.join(" · ");
  }

  function renderSummary() {
    summaryPanel.replaceChildren(view.summaryView(run));
  }

  const initial = location.hash.slice(1);
  show(tabs.some(({ key }) => key === initial) ? initial : "summary");

  if (payload.live) {
    let cursors = payload.live.cursors;
    const poll = async () => {
      const query = `episodes=${cursors.episodes.offset}:${cursors.episodes.line}&metrics=${cursors.metrics.offset}:${cursors.metrics.line}`;
      const response = await fetch(`updates?${query}`, { cache: "no-store" });
      if (!response.ok) return;
      /** @type {import("../run-data.js").RunUpdate} */
      const update = await response.json();
      cursors = update.cursors;
      run.summary = update.summary;
      if (update.training.length > 0) {
        run.training.push(...update.training);
        if (rendered.has("training")) view.renderTraining(trainingPanel, run.training);
      }
      if (update.episodes.length > 0) {
        const byId = new Map(run.episodes.map((episode, index) => [episode.id, index]));
        for (const episode of update.episodes) {
          const index = byId.get(episode.id);
          if (index === undefined) run.episodes.push(episode);
          else run.episodes[index] = episode;
        }
        if (rendered.has("tasks")) view.updateTasks(run.episodes);
      }
      if (rendered.has("summary")) renderSummary();
      requiredElement("live-badge").textContent = `live · ${run.episodes.length} episodes`;
    };
    setInterval(() => poll().catch(() => undefined), 1000);
  }
  /**
   * A training run has no summary.json: its latest step and validation from metrics.jsonl stand in.
   * @param {readonly TrainingRecord[]} records
   */
  function trainingSummary(records) {
    /** @param {TrainingRecord["kind"]} kind */
    const lastOf = (kind) => records.filter((record) => record.kind === kind).sort((first, second) => first.step - second.step).at(-1);
    const train = lastOf("train");
    const validation = lastOf("validation");
    /** @param {NonNullable<TrainingRecord["judgeAccuracy"]>} stats an interval; a bare number where a line has only the mean */
    const interval = (stats) =>
      typeof stats === "number"
        ? view.percent(stats)
        : `${view.percent(stats.mean)} ± ${view.percent(stats.stderr)} (95% CI ${view.percent(stats.ci95?.[0])} – ${view.percent(stats.ci95?.[1])}, n = ${stats.n})`;
    return view.keyValueTable(
      [
        train && ["last step", `${train.step} · reward ${view.number(train.reward)} · accuracy ${view.percent(train.accuracy)}`],
        validation?.passAt1 && [`validation pass@1 (step ${validation.step})`, interval(validation.passAt1)],
        validation?.passAt1Gain && ["gain since step 0", `${(100 * validation.passAt1Gain.mean).toFixed(1)} ± ${(100 * validation.passAt1Gain.stderr).toFixed(1)} points over ${validation.passAt1Gain.tasks} tasks`],
        validation?.judgeAccuracy && ["judge accuracy", interval(validation.judgeAccuracy)],
        validation?.rerankAt1 && ["rerank@1", interval(validation.rerankAt1)],
      ],
      { id: "summary-figures" },
    );
  }

  /**
   * The inline data: base64 of gzipped JSON (render-report.ts), inflated by the browser's DecompressionStream.
   * @param {string} base64
   * @returns {Promise<ReportPayload>}
   */
  async function readPayload(base64) {
    const binary = atob(base64.trim());
    const bytes = new Uint8Array(binary.length);
    for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return JSON.parse(await new Response(stream).text());
  }

  /** The element with `id`, which the page (render-report.ts) or this script always creates. */
  function requiredElement(/** @type {string} */ id) {
    const found = document.getElementById(id);
    if (!found) throw new Error(`the report page has no #${id}`);
    return found;
  }
})();
