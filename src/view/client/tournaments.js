// @ts-check
/** @typedef {import("../run-data.js").RunData} RunData */
/** @typedef {import("../run-data.js").ViewTournament} ViewTournament */
/** @typedef {import("../run-data.js").ViewEpisode} ViewEpisode */
// The tournaments tab: per method rerank@1, judge calls per task, a paired McNemar test against v1 on the same tasks
// and the judge's slot-A win rate (position bias), then each task's candidates with their scores (μ), the judged
// pairs with both ratings, and a graph of the pairs.
(() => {
  const view = globalThis.rllmView;
  const { element, svgElement } = view;

  /** Slot-A wins among decisive readable verdicts, and the tie and parse-error counts, over `lines`. */
  /** @param {readonly ViewTournament[]} lines */
  const slotStatistics = (lines) => {
    let slotA = 0;
    let slotB = 0;
    let ties = 0;
    let parseErrors = 0;
    for (const line of lines) {
      for (const comparison of line.record.comparisons) {
        if (comparison.parseError) parseErrors += 1;
        else if (comparison.winner === "A") slotA += 1;
        else if (comparison.winner === "B") slotB += 1;
        else ties += 1;
      }
    }
    return { slotA, slotB, ties, parseErrors, winRate: slotA + slotB > 0 ? slotA / (slotA + slotB) : null };
  };

  /**
   * Exact McNemar test of `method` against `reference` over the tasks both reranked: b tasks only the reference got
   * right, c only the method; p is the two-sided binomial tail of min(b, c) in b + c fair coin flips.
   */
  /** @type {(lines: readonly ViewTournament[], reference: string, method: string) => { onlyReference: number, onlyMethod: number, p: number }} */
  const mcnemar = (lines, reference, method) => {
    const referenceByTask = new Map(lines.filter((line) => line.method === reference).map((line) => [line.taskId, line.isCorrect]));
    let onlyReference = 0;
    let onlyMethod = 0;
    for (const line of lines) {
      if (line.method !== method || !referenceByTask.has(line.taskId)) continue;
      const referenceCorrect = referenceByTask.get(line.taskId);
      if (referenceCorrect && !line.isCorrect) onlyReference += 1;
      if (!referenceCorrect && line.isCorrect) onlyMethod += 1;
    }
    const discordant = onlyReference + onlyMethod;
    let tail = 0;
    let term = 0.5 ** discordant; // C(d, 0) / 2^d, then each next C(d, k) / 2^d by the ratio (d − k + 1) / k
    for (let k = 0; k <= Math.min(onlyReference, onlyMethod); k += 1) {
      if (k > 0) term = (term * (discordant - k + 1)) / k;
      tail += term;
    }
    return { onlyReference, onlyMethod, p: discordant === 0 ? 1 : Math.min(1, 2 * tail) };
  };

  // Candidates are the task's episodes without infra errors, in attempt order (as the reranker built them).
  /** @type {(run: RunData, taskId: string) => ViewEpisode[]} */
  const candidatesOf = (run, taskId) =>
    run.episodes.filter((episode) => episode.taskId === taskId && episode.errorClass !== "infra_error").sort((first, second) => first.attempt - second.attempt);

  /** @type {(line: ViewTournament, candidates: readonly ViewEpisode[]) => SVGElement} */
  const pairGraph = (line, candidates) => {
    const count = line.record.candidateCount;
    const size = 260;
    const radius = 100;
    /** @type {(index: number) => [number, number]} */
    const position = (index) => {
      const angle = (2 * Math.PI * index) / count - Math.PI / 2;
      return [size / 2 + radius * Math.cos(angle), size / 2 + radius * Math.sin(angle)];
    };
    const edges = new Map();
    for (const comparison of line.record.comparisons) {
      const key = [Math.min(comparison.slotA, comparison.slotB), Math.max(comparison.slotA, comparison.slotB)].join("-");
      const edge = edges.get(key) ?? { from: comparison.slotA, to: comparison.slotB, decisive: 0, total: 0 };
      edge.total += 1;
      if (comparison.winner !== "tie" && !comparison.parseError) edge.decisive += 1;
      edges.set(key, edge);
    }
    const lines = [...edges.values()].map((edge) => {
      const [x1, y1] = position(edge.from);
      const [x2, y2] = position(edge.to);
      return svgElement("line", { x1, y1, x2, y2, class: edge.decisive > 0 ? "edge decisive" : "edge tie", "stroke-width": 1 + edge.total });
    });
    const nodes = Array.from({ length: count }, (_, index) => {
      const [x, y] = position(index);
      const episode = candidates[index];
      const correctness = episode ? (episode.score.isCorrect ? "correct" : "wrong") : "unknown";
      return svgElement("g", {}, [
        svgElement("circle", { cx: x, cy: y, r: 16, class: `node ${correctness}${index === line.chosenIndex ? " chosen" : ""}` }),
        svgElement("text", { x, y: y + 4, "text-anchor": "middle", class: "node-label" }, [document.createTextNode(String(index))]),
      ]);
    });
    return svgElement("svg", { viewBox: `0 0 ${size} ${size}`, width: size, height: size, class: "pair-graph", role: "img", "aria-label": "judged pairs" }, [...lines, ...nodes]);
  };

  /** @type {(detail: HTMLElement, run: RunData, line: ViewTournament) => void} */
  const renderTournament = (detail, run, line) => {
    const candidates = candidatesOf(run, line.taskId);
    const record = line.record;
    detail.replaceChildren(
      element("h3", { text: `${line.taskId} · ${line.method} · pick ${line.chosenIndex} (${line.isCorrect ? "correct" : "wrong"})${record.tieBreak ? " · tie-break" : ""}` }),
      element("div", { class: "tournament-layout" }, [
        element("div", {}, [
          element("h4", { text: "Candidates" }),
          view.table(
            ["#", "μ", "answer", "verdict", ""],
            record.scores.map((score, index) => {
              const episode = candidates[index];
              return [String(index), view.number(score, 3), episode ? view.episodeAnswer(episode).slice(0, 80) : "", episode ? view.episodeStatus(episode) : "", index === line.chosenIndex ? "picked" : ""];
            }),
            { id: "tournament-candidates" },
          ),
          element("h4", { text: "Pair graph" }),
          pairGraph(line, candidates),
          element("p", { class: "muted", text: "Node: candidate (green correct, red wrong, ringed: picked). Edge: a judged pair, thicker when judged more often; dashed when every verdict was a tie." }),
        ]),
        element("div", {}, [
          element("h4", { text: `Judged pairs (${record.comparisons.length})` }),
          view.table(
            ["round", "phase", "slot A", "slot B", "rating A", "rating B", "winner"],
            record.comparisons.map((comparison) => [
              String(comparison.round),
              comparison.phase ?? "",
              String(comparison.slotA),
              String(comparison.slotB),
              comparison.ratingA === null ? "unreadable" : String(comparison.ratingA),
              comparison.ratingB === null ? "unreadable" : String(comparison.ratingB),
              comparison.winner,
            ]),
            { id: "tournament-pairs" },
          ),
          record.points.length > 0
            ? view.table(["round", "candidate", "rating"], record.points.map((point) => [String(point.round), String(point.candidate), point.rating === null ? "unreadable" : String(point.rating)]))
            : null,
        ]),
      ]),
    );
  };

  /** Builds the tournaments tab in `panel`. */
  view.renderTournaments = (panel, run) => {
    const methods = [...new Set(run.tournaments.map((line) => line.method))];
    const rerank = run.summary?.rerank ?? {};
    const detail = element("div", { id: "tournament-detail" });
    const methodRows = methods.map((method) => {
      const lines = run.tournaments.filter((line) => line.method === method);
      const statistics = slotStatistics(lines);
      const judgeCalls = lines.reduce((sum, line) => sum + line.judgeCalls, 0);
      const paired = methods.includes("v1") && method !== "v1" ? mcnemar(run.tournaments, "v1", method) : null;
      return [
        method,
        String(lines.length),
        view.percent(rerank[method]?.["rerank@1"] ?? lines.filter((line) => line.isCorrect).length / lines.length),
        String(judgeCalls),
        view.number(judgeCalls / lines.length, 1),
        paired ? `${paired.onlyReference} / ${paired.onlyMethod} · p ${view.number(paired.p, 3)}` : "",
        `${view.percent(statistics.winRate)} (${statistics.slotA} A / ${statistics.slotB} B)`,
        String(statistics.ties),
        String(statistics.parseErrors),
      ];
    });
    const taskRows = run.tournaments.map((line) =>
      element("tr", { class: "clickable", "data-task-id": line.taskId, onclick: () => renderTournament(detail, run, line) }, [
        element("td", { text: line.taskId }),
        element("td", { text: line.method }),
        element("td", { text: String(line.record.candidateCount) }),
        element("td", { text: String(line.chosenIndex) }),
        element("td", { class: line.isCorrect ? "status-correct" : "status-wrong", text: line.isCorrect ? "correct" : "wrong" }),
        element("td", { text: String(line.judgeCalls) }),
      ]),
    );
    panel.replaceChildren(
      element("h2", { text: "Methods" }),
      view.table(["method", "tasks", "rerank@1", "judge calls", "calls per task", "vs v1: only v1 / only this · McNemar p", "slot-A win rate", "ties", "unreadable"], methodRows, { id: "tournament-methods" }),
      element("p", {
        class: "muted",
        text:
          "vs v1: on the tasks both reranked, how many only v1 picked correctly and how many only this method did; p is the exact McNemar test (small p: the difference is not chance). " +
          "Slot-A win rate: share of decisive verdicts won by the candidate shown first. Far from 50% means the judge favours a position.",
      }),
      element("div", { class: "tournament-split" }, [
        element("div", { class: "tournament-list" }, element("table", { class: "grid" }, [element("thead", {}, element("tr", {}, ["task", "method", "candidates", "pick", "pick is", "judge calls"].map((label) => element("th", { text: label })))), element("tbody", {}, taskRows)])),
        detail,
      ]),
    );
    const first = run.tournaments[0];
    if (first) renderTournament(detail, run, first);
  };
})();
