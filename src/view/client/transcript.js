// @ts-check
/** @typedef {import("../../core/message.js").ChatMessage} ChatMessage */
/** @typedef {import("../../core/message.js").ToolCall} ToolCall */
/** @typedef {import("../run-data.js").ViewEpisode} ViewEpisode */
/** @typedef {ViewEpisode["trajectories"][number]} Trajectory */
/** @typedef {Trajectory["steps"][number]} Step */
// The transcript of one episode: verdict, score and errors first, then every trajectory's messages, tool calls and
// results step by step, with token counts, the code verifier's per-test verdicts and FinQA's accessed tables.
(() => {
  const view = globalThis.rllmView;
  const { element } = view;

  /** @param {ChatMessage["content"] | undefined} content */
  const renderContent = (content) => {
    if (content === null || content === undefined) return [];
    if (typeof content === "string") return [element("pre", { class: "text", text: content })];
    return content.map((block) => {
      if (block.type === "text") return element("pre", { class: "text", text: block.text });
      // Only inline images are drawn: a report never fetches from a network.
      if (block.image_url.url.startsWith("data:image/")) return element("img", { class: "inline-image", src: block.image_url.url, alt: "image in the message" });
      return element("div", { class: "muted", text: `[image at ${block.image_url.url}: not loaded]` });
    });
  };

  /** @param {readonly ToolCall[] | undefined} toolCalls */
  const renderToolCalls = (toolCalls) =>
    (toolCalls ?? []).map((call) => {
      let argumentsText = call.function.arguments;
      try {
        argumentsText = JSON.stringify(JSON.parse(argumentsText), null, 1);
      } catch {
        // Not JSON: shown as the model wrote it, which is the point of looking.
      }
      return element("div", { class: "tool-call" }, [element("span", { class: "tool-name", text: `→ ${call.function.name}` }), element("span", { class: "muted", text: ` ${call.id}` }), element("pre", { class: "text", text: argumentsText })]);
    });

  /** @param {ChatMessage} message */
  const renderMessage = (message) =>
    element("div", { class: `message role-${message.role}` }, [
      element("div", { class: "role", text: message.role === "tool" ? `tool result${message.tool_call_id ? ` · ${message.tool_call_id}` : ""}` : message.role }),
      ...renderContent(message.content),
      ...renderToolCalls(message.tool_calls),
    ]);

  // Each step's input repeats the conversation so far; only what is new since the previous step is shown.
  /** @type {(step: Step, previous: Step | undefined) => ChatMessage[]} */
  const newMessages = (step, previous) => {
    if (!previous || step.input.length <= previous.input.length) return step.input;
    const echoed = step.input[previous.input.length]?.role === "assistant" ? 1 : 0;
    return step.input.slice(previous.input.length + echoed);
  };

  /** @type {(trajectory: Trajectory, index: number) => HTMLElement} */
  const renderTrajectory = (trajectory, index) =>
    element("div", { class: "trajectory" }, [
      element("h3", { text: `${trajectory.name} · trajectory ${index} · reward ${view.number(trajectory.reward)} · ${trajectory.steps.length} step${trajectory.steps.length === 1 ? "" : "s"}` }),
      ...trajectory.steps.map((step, stepIndex) =>
        element("div", { class: "step" }, [
          ...newMessages(step, trajectory.steps[stepIndex - 1]).map(renderMessage),
          element("div", { class: "message role-assistant" }, [
            element("div", { class: "role", text: "assistant (reply)" }),
            step.output ? element("pre", { class: "text", text: step.output }) : null,
            ...renderToolCalls(step.toolCalls),
          ]),
          element("div", {
            class: "step-meta muted",
            text: `step ${stepIndex} · ${step.usage.promptTokens} prompt + ${step.usage.completionTokens} completion tokens${step.finishReason ? ` · finish ${step.finishReason}` : ""}`,
          }),
        ]),
      ),
    ]);

  /**
   * The code verifier's per-test verdicts in a score's details, when it has them.
   * @param {Record<string, unknown> | undefined} details
   */
  const renderTests = (details) => {
    /** @type {{ index: number, verdict: string, detail?: string, wallMs?: number }[]} */
    const tests = Array.isArray(details?.tests) ? details.tests : [];
    if (tests.length === 0) return null;
    return element("div", { class: "tests" }, [
      element("h3", { text: `Tests: ${details?.verdict ?? ""}` }),
      view.table(
        ["test", "verdict", "detail", "ms"],
        tests.map((test) => [String(test.index), element("span", { class: `verdict-${test.verdict}`, text: test.verdict }), test.detail ?? "", view.number(test.wallMs, 0)]),
        { id: "test-verdicts" },
      ),
    ]);
  };

  /** Shows `episode` in `container`. */
  view.renderTranscript = (container, episode) => {
    const status = view.episodeStatus(episode);
    const score = episode.score;
    const signals = { ...episode.signals, ...score.signals };
    const accessedTables = Array.isArray(episode.artifacts.accessedTables) ? episode.artifacts.accessedTables : null;
    const otherArtifacts = Object.fromEntries(Object.entries(episode.artifacts).filter(([key]) => key !== "accessedTables"));
    const children = [
      element("h2", {}, [`${episode.id} `, element("span", { class: `badge status-${status}`, text: status })]),
      view.keyValueTable(
        [
          ["verdict", `${score.status}${score.status === "scored" ? (score.isCorrect ? ", correct" : ", wrong") : ""} · value ${view.number(score.value)}`],
          score.explanation && ["explanation", score.explanation],
          ["answer", view.episodeAnswer(episode)],
          episode.target !== undefined && ["target", view.targetText(episode.target)],
          Object.keys(signals).length > 0 && ["signals", Object.entries(signals).map(([name, value]) => `${name} ${view.number(value)}`).join(" · ")],
          ["termination", episode.terminationReason],
          episode.errorClass && ["error", `${episode.errorClass}: ${episode.error ?? ""}`],
          ["tokens", `${episode.usage.promptTokens} prompt + ${episode.usage.completionTokens} completion`],
          ["time", Object.entries(episode.timings).map(([name, ms]) => `${name} ${Math.round(ms)} ms`).join(" · ")],
          accessedTables && ["tables accessed", accessedTables.length > 0 ? accessedTables.join(", ") : "none"],
        ],
        { id: "transcript-score" },
      ),
      renderTests(score.details),
      Object.keys(otherArtifacts).length > 0 ? element("details", {}, [element("summary", { text: "artifacts" }), element("pre", { class: "text", text: JSON.stringify(otherArtifacts, null, 1) })]) : null,
      ...episode.trajectories.map(renderTrajectory),
    ].flatMap((child) => (child ? [child] : []));
    container.replaceChildren(...children);
    container.scrollTop = 0;
  };
})();
