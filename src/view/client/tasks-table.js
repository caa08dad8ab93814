// @ts-check
/** @typedef {import("../run-data.js").ViewEpisode} ViewEpisode */
/**
 * One episode as the table shows, filters and searches it.
 * @typedef {{ episode: ViewEpisode, question: string, answer: string, target: string, signals: Record<string, number>, status: string, tokens: number, latency: number, haystack: string }} Row
 */
/** @typedef {{ key: string, label: string, value: (row: Row) => string | number, width: string, trainingOnly?: boolean }} Column */
// The tasks table: every episode, filtered by verdict and signal, searched over questions and answers, sorted, and
// virtualised (only the rows in view exist in the page), so that 10,000 episodes stay fast.
(() => {
  const view = globalThis.rllmView;
  const { element } = view;
  const rowHeight = 28;
  const overscan = 10;

  /** @type {Column[]} */
  const columns = [
    { key: "id", label: "episode", value: (row) => row.episode.id, width: "minmax(9em, 1.2fr)" },
    { key: "step", label: "step", value: (row) => row.episode.step ?? 0, width: "4em", trainingOnly: true },
    { key: "status", label: "verdict", value: (row) => row.status, width: "6em" },
    { key: "value", label: "value", value: (row) => row.episode.score.value, width: "4.5em" },
    { key: "question", label: "question", value: (row) => row.question, width: "minmax(10em, 3fr)" },
    { key: "answer", label: "answer", value: (row) => row.answer, width: "minmax(6em, 1.4fr)" },
    { key: "target", label: "target", value: (row) => row.target, width: "minmax(4em, 1fr)" },
    { key: "tokens", label: "tokens", value: (row) => row.tokens, width: "5em" },
    { key: "latency", label: "ms", value: (row) => row.latency, width: "5em" },
    { key: "termination", label: "end", value: (row) => row.episode.terminationReason, width: "6em" },
  ];

  /**
   * What the table shows now; the filters' names are the keys `setFilter` writes.
   * @type {{ rows: Row[], filtered: Row[], status: string, signal: string, search: string, sortKey: string | null, sortDescending: boolean, selectedId: string | null }}
   */
  const state = { rows: [], filtered: [], status: "all", signal: "", search: "", sortKey: null, sortDescending: false, selectedId: null };
  /** @type {{ scroller: HTMLElement, spacer: HTMLElement, count: HTMLElement, transcript: HTMLElement, visibleColumns: Column[], template: string } | null} */
  let parts = null;

  /** @type {(episode: ViewEpisode) => Row} */
  const toRow = (episode) => {
    const question = view.episodeQuestion(episode);
    const answer = view.episodeAnswer(episode);
    const target = view.targetText(episode.target);
    const signals = { ...episode.signals, ...episode.score.signals };
    return {
      episode,
      question,
      answer,
      target,
      signals,
      status: view.episodeStatus(episode),
      tokens: episode.usage.promptTokens + episode.usage.completionTokens,
      latency: Math.round(episode.timings.totalMs ?? 0),
      haystack: `${episode.id}\n${question}\n${answer}\n${target}`.toLowerCase(),
    };
  };

  // Unsorted rows read in a fixed order, not the order episodes completed in: step, then task id (numbers inside ids
  // compared as numbers, so task-2 comes before task-10), then attempt.
  const naturalOrder = new Intl.Collator("en", { numeric: true });
  /** @type {(first: Row, second: Row) => number} */
  const byTaskAndAttempt = (first, second) =>
    (first.episode.step ?? 0) - (second.episode.step ?? 0) || naturalOrder.compare(first.episode.taskId, second.episode.taskId) || first.episode.attempt - second.episode.attempt;

  /** Re-applies the filters, search and sort, and redraws the rows in view. */
  const refresh = () => {
    if (!parts) return;
    const search = state.search.trim().toLowerCase();
    let rows = state.rows.filter(
      (row) =>
        (state.status === "all" || row.status === state.status) &&
        (state.signal === "" || (row.signals[state.signal] ?? 0) !== 0) &&
        (search === "" || row.haystack.includes(search)),
    );
    const column = columns.find((candidate) => candidate.key === state.sortKey);
    if (column) {
      const direction = state.sortDescending ? -1 : 1;
      rows = rows
        .map((row, index) => ({ row, index, key: column.value(row) }))
        .sort((first, second) => (first.key < second.key ? -direction : first.key > second.key ? direction : first.index - second.index))
        .map((entry) => entry.row);
    }
    state.filtered = rows;
    parts.count.textContent = `${rows.length} of ${state.rows.length} episodes`;
    parts.spacer.style.height = `${rows.length * rowHeight}px`;
    drawVisibleRows();
  };

  const drawVisibleRows = () => {
    if (!parts) return;
    const { visibleColumns, template } = parts;
    const first = Math.max(0, Math.floor(parts.scroller.scrollTop / rowHeight) - overscan);
    const last = Math.min(state.filtered.length, Math.ceil((parts.scroller.scrollTop + parts.scroller.clientHeight) / rowHeight) + overscan);
    const nodes = [];
    for (let index = first; index < last; index++) {
      const row = state.filtered[index];
      if (!row) continue;
      const cells = visibleColumns.map((column) => {
        const value = column.value(row);
        const text = column.key === "value" ? view.number(value) : String(value);
        // An id past the column's widest (360 px) is cut with an ellipsis, so id cells always carry the whole id as a tooltip.
        const title = column.key === "id" || text.length > 40 ? text.slice(0, 400) : null;
        return element("span", { class: `cell ${column.key === "status" ? `status-${row.status}` : ""}`, title, text: text.slice(0, 200) });
      });
      nodes.push(
        element(
          "div",
          {
            class: `row${row.episode.id === state.selectedId ? " selected" : ""}`,
            role: "row",
            "data-episode-id": row.episode.id,
            style: `top:${index * rowHeight}px;grid-template-columns:${template}`,
            onclick: () => select(row.episode),
          },
          cells,
        ),
      );
    }
    parts.spacer.replaceChildren(...nodes);
  };

  /** @type {(name: "status" | "signal" | "search", event: Event) => void} */
  const setFilter = (name, event) => {
    const control = event.target;
    if (control instanceof HTMLInputElement || control instanceof HTMLSelectElement) state[name] = control.value;
    refresh();
  };

  /** @param {ViewEpisode} episode */
  const select = (episode) => {
    state.selectedId = episode.id;
    drawVisibleRows();
    if (parts) view.renderTranscript(parts.transcript, episode);
  };

  /**
   * The episode column's width: the longest id in the page's font, plus the cell's padding, so no id is cut (a fixed
   * share of the table cut `arith-test-00002:0` to `arith-test-000…`); past 360 px the tooltip holds the rest.
   * @param {Row[]} rows
   */
  const episodeColumnWidth = (rows) => {
    const context = document.createElement("canvas").getContext("2d");
    if (!context || rows.length === 0) return "minmax(9em, 1.2fr)";
    context.font = getComputedStyle(document.body).font;
    const widest = Math.max(...rows.map((row) => context.measureText(row.episode.id).width));
    // 12 px of padding and 2 px so that rounding never brings the ellipsis back.
    return `${Math.ceil(Math.min(widest, 360)) + 14}px`;
  };

  /** Builds the tasks tab in `panel` over `episodes`. */
  view.renderTasks = (panel, episodes, isTraining) => {
    state.rows = episodes.map(toRow).sort(byTaskAndAttempt);
    const visibleColumns = columns.filter((column) => !column.trainingOnly || isTraining);
    const idWidth = episodeColumnWidth(state.rows);
    const template = visibleColumns.map((column) => (column.key === "id" ? idWidth : column.width)).join(" ");
    const signalNames = [...new Set(state.rows.flatMap((row) => Object.keys(row.signals)))].sort();
    const statusSelect = element(
      "select",
      { id: "filter-status", onchange: (event) => setFilter("status", event) },
      ["all", "correct", "wrong", "error", "unscored"].map((status) => element("option", { value: status, text: status })),
    );
    const signalSelect = element(
      "select",
      { id: "filter-signal", onchange: (event) => setFilter("signal", event) },
      [element("option", { value: "", text: "any signal" }), ...signalNames.map((name) => element("option", { value: name, text: `${name} ≠ 0` }))],
    );
    const searchInput = element("input", { id: "search", type: "search", placeholder: "search questions and answers", oninput: (event) => setFilter("search", event) });
    const header = element(
      "div",
      { class: "row header", style: `grid-template-columns:${template}` },
      visibleColumns.map((column) =>
        element("button", {
          class: "cell",
          "data-sort": column.key,
          text: column.label,
          onclick: () => {
            state.sortDescending = state.sortKey === column.key ? !state.sortDescending : false;
            state.sortKey = column.key;
            refresh();
          },
        }),
      ),
    );
    const spacer = element("div", { class: "spacer" });
    const scroller = element("div", { class: "scroller", id: "task-rows", onscroll: () => drawVisibleRows() }, spacer);
    const count = element("span", { id: "task-count", class: "muted" });
    const transcript = element("div", { id: "transcript", class: "transcript" }, element("p", { class: "muted", text: "Click an episode to open its transcript." }));
    parts = { scroller, spacer, count, transcript, visibleColumns, template };
    panel.replaceChildren(
      element("div", { class: "filters" }, [statusSelect, signalSelect, searchInput, count]),
      element("div", { class: "tasks-layout" }, [element("div", { class: "tasks-table" }, [header, scroller]), transcript]),
    );
    refresh();
  };

  /** Takes the episodes of a live run again (appended or replaced ones), keeping filters, sort and selection. */
  view.updateTasks = (episodes) => {
    if (!parts) return;
    state.rows = episodes.map(toRow).sort(byTaskAndAttempt);
    refresh();
  };
})();
