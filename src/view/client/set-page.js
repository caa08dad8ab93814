// @ts-check
// The eval set page: set-summary.json's comparison table, one row per cell, each linking to its cell's run report.
(() => {
  const view = globalThis.rllmView;
  const { element } = view;

  /** Builds the set page in `app`: model, benchmark, accuracy ± stderr (n), the largest pass@k, rerank@1 per method, cost, status. */
  view.renderSet = (app, data) => {
    const cells = data.cells;
    const methods = [...new Set(cells.flatMap((cell) => Object.keys(cell["rerank@1"])))].sort();
    const hasCost = cells.some((cell) => cell.cost !== null);
    const headers = ["model", "benchmark", "accuracy ± stderr (n)", "pass@k", ...methods.map((method) => `rerank@1 ${method}`), ...(hasCost ? ["cost"] : []), "status", "report"];
    const rows = cells.map((cell) => {
      const ks = Object.keys(cell["pass@k"]).map(Number).sort((a, b) => a - b);
      const k = ks.at(-1);
      return [
        cell.model,
        cell.benchmark,
        cell.accuracy ? `${view.percent(cell.accuracy.mean)} ± ${view.percent(cell.accuracy.stderr)} (${cell.accuracy.n})` : "–",
        k === undefined ? "–" : `pass@${k} ${view.percent(cell["pass@k"][String(k)])}`,
        ...methods.map((method) => view.percent(cell["rerank@1"][method])),
        ...(hasCost ? [cell.cost === null ? "–" : `$${cell.cost.toFixed(4)}`] : []),
        element("span", { class: `badge status-${cell.status.replace(" ", "-")}`, text: cell.status }),
        cell.report ? element("a", { href: cell.report, text: cell.directory }) : element("span", { class: "muted", text: "no episodes" }),
      ];
    });
    app.append(
      element("header", {}, [element("h1", { text: "eval set" }), element("div", { class: "muted", text: data.directory })]),
      element("section", { class: "panel" }, [
        element("p", { class: "muted", text: `${cells.length} cells; accuracy ± its standard error over the scored episodes of each cell.` }),
        view.table(headers, rows, { id: "set-table" }),
      ]),
    );
  };
})();
