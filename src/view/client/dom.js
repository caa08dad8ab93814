// @ts-check
// Helpers shared by the report's scripts: building elements, formatting figures, reading episodes.
(() => {
  // dom.js is the first script: it creates the namespace the others add to (report-globals.d.ts lists what each adds),
  // so the namespace is whole only once every script has run; report-shell.js, the last, is the first to read it all.
  const view = /** @type {RllmView} */ ({});
  globalThis.rllmView = view;

  /** An element with attributes (`on*` ones become listeners) and children (strings become text). */
  view.element = (tag, attributes = {}, children = []) => {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes)) {
      if (value === undefined || value === null || value === false) continue;
      if (typeof value === "function") node.addEventListener(name.slice(2), value);
      else if (name === "text") node.textContent = String(value);
      else node.setAttribute(name, value === true ? "" : String(value));
    }
    for (const child of flatChildren(children)) node.append(child);
    return node;
  };

  /**
   * The nodes and texts of `child`, nested arrays flattened, false/null/undefined skipped.
   * @type {(child: ViewChild) => (Node | string)[]}
   */
  const flatChildren = (child) => {
    if (child === undefined || child === null || child === false) return [];
    if (child instanceof Node) return [child];
    if (typeof child === "string" || typeof child === "number") return [String(child)];
    return child.flatMap(flatChildren);
  };

  /** An SVG element (the pair graph). */
  view.svgElement = (tag, attributes = {}, children = []) => {
    const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
    for (const child of children) node.append(child);
    return node;
  };

  /** 0.1234 → "12.3%"; a missing figure → "–". */
  view.percent = (value, digits = 1) => (typeof value === "number" && Number.isFinite(value) ? `${(100 * value).toFixed(digits)}%` : "–");

  /** A number with at most `digits` decimals; a missing figure → "–". */
  view.number = (value, digits = 3) => (typeof value === "number" && Number.isFinite(value) ? String(Number(value.toFixed(digits))) : "–");

  /** A two-column table of label → value rows. */
  view.keyValueTable = (rows, attributes = {}) =>
    view.element("table", { class: "key-values", ...attributes }, rows.flatMap((row) => (row ? [row] : [])).map(([label, value]) => view.element("tr", {}, [view.element("th", { text: label }), view.element("td", {}, [value])])));

  /** A table with a header row; `rows` are arrays of cells (strings or nodes). */
  view.table = (headers, rows, attributes = {}) =>
    view.element("table", { class: "grid", ...attributes }, [
      view.element("thead", {}, view.element("tr", {}, headers.map((header) => view.element("th", { text: header })))),
      view.element("tbody", {}, rows.map((cells) => view.element("tr", {}, cells.map((cell) => view.element("td", {}, [cell]))))),
    ]);

  /** The text of a chat message's content (image blocks left out). */
  view.contentText = (content) => {
    if (content === null || content === undefined) return "";
    if (typeof content === "string") return content;
    return content.map((block) => (block.type === "text" ? block.text : "")).join("");
  };

  /** correct | wrong | unscored | error: an infra or model error comes first, since its score says nothing of the answer. */
  view.episodeStatus = (episode) => {
    if (episode.errorClass) return "error";
    if (episode.score.status !== "scored") return "unscored";
    return episode.score.isCorrect ? "correct" : "wrong";
  };

  /** The question: the first user message the solver saw. */
  view.episodeQuestion = (episode) => {
    for (const trajectory of episode.trajectories) {
      for (const step of trajectory.steps) {
        const message = step.input.find((candidate) => candidate.role === "user");
        if (message) return view.contentText(message.content);
      }
    }
    // A scripted agent (terminal oracle, nop) makes no model call: its episode keeps the task's instruction instead.
    const instruction = episode.artifacts.instruction;
    return typeof instruction === "string" ? instruction : "";
  };

  /** The answer the grader took, else the solver's last reply (as episodeAnswer in src/core). */
  view.episodeAnswer = (episode) => {
    if (typeof episode.score.answer === "string") return episode.score.answer;
    const solvers = episode.trajectories.filter((trajectory) => trajectory.name === "solver");
    for (const trajectory of [...solvers].reverse()) {
      const reply = [...trajectory.steps].reverse().find((step) => step.output.trim() !== "");
      if (reply) return reply.output;
      if (typeof trajectory.output === "string") return trajectory.output;
    }
    return typeof episode.artifacts.answer === "string" ? episode.artifacts.answer : "";
  };

  /** A target of one or several accepted answers, as text. */
  view.targetText = (target) => (target === undefined || target === null ? "" : Array.isArray(target) ? target.join(" | ") : String(target));
})();
