/**
 * The terminal Terminus-2 types into. Where the sandbox has tmux: one tmux session per episode (`terminus-2`, 160×40,
 * bash), each command's keystrokes sent with `tmux send-keys` (in pieces of at most 8,000 bytes), then a wait of its duration (at most 60 s); after the
 * batch the pane's whole history is captured and the text after the previous capture is the observation ("New
 * Terminal Output"), or the visible screen when the history no longer extends the previous one (a `clear`). A command
 * still running after its duration keeps running: the next turn sees its output. Without tmux each keystroke line
 * runs as one plain command to its end, and tmux key names (C-c, Escape) are skipped with a note.
 */
import type { ExecResult, SandboxEnvironment } from "rllm-ts/verifiers/terminal";
import { formatExecResult } from "./format-exec-result.js";

/** One command of a Terminus-2 reply. */
export interface Keystrokes {
  keystrokes: string;
  durationSec: number;
}

/** A terminal that runs keystroke batches and describes what the screen shows after each. */
export interface KeystrokeTerminal {
  readonly kind: "tmux" | "plain";
  send(commands: Keystrokes[]): Promise<string>;
}

const session = "terminus-2";
const rows = 40;
// Terminus-2 never waits longer than this for one command; the model polls instead.
const longestWaitSec = 60;
// One tmux command is at most 16 KiB ("command too long" beyond); Terminus-2 splits its keystrokes likewise.
const pieceBytes = 8000;
// tmux key names have no meaning without a terminal.
const tmuxKey = /^(C-[a-z]|M-[a-z]|Escape|Enter|Tab|BSpace|Up|Down|Left|Right)$/;
// A prompt that names no user: uid 1000 has no name on most hosts.
const startTmux =
  `command -v tmux > /dev/null || exit 127; tmux -f /dev/null start-server \\; set-option -g history-limit 100000 \\; ` +
  `new-session -d -s ${session} -x 160 -y ${rows} -c "$PWD" "env PS1='agent@sandbox:\\\\w\\\\$ ' bash --noprofile --norc"`;

/** Opens the episode's terminal in `sandbox`: tmux when the sandbox has it, else plain commands. */
export async function openKeystrokeTerminal(sandbox: Pick<SandboxEnvironment, "exec">): Promise<KeystrokeTerminal> {
  const started = await sandbox.exec(startTmux);
  if (started.exitCode === 0) return tmuxTerminal(sandbox);
  return plainTerminal(sandbox);
}

function tmuxTerminal(sandbox: Pick<SandboxEnvironment, "exec">): KeystrokeTerminal {
  let previous = "";
  // The visible rows: the history's last rows, or (when the history was too long to arrive whole) a capture of the screen alone.
  const screen = async (history: ExecResult): Promise<string> => {
    const text = history.truncated ? (await sandbox.exec(`tmux capture-pane -p -J -t ${session}`)).stdout : history.stdout;
    return text.split("\n").slice(-rows - 1).join("\n").trimEnd();
  };
  return {
    kind: "tmux",
    async send(commands) {
      for (const command of commands) {
        // One argument, no -l: tmux sends a key name (C-c) as that key and any other text as typed, as Terminus-2 does.
        for (const piece of pieces(command.keystrokes)) {
          const sent = await sandbox.exec(`tmux send-keys -t ${session} -- "$RLLM_KEYS"`, { env: { RLLM_KEYS: piece } });
          if (sent.exitCode !== 0) return `The terminal is gone (tmux send-keys failed):\n${formatExecResult(sent)}`;
        }
        await new Promise((resolve) => setTimeout(resolve, Math.min(Math.max(command.durationSec, 0), longestWaitSec) * 1000));
      }
      const captured = await sandbox.exec(`tmux capture-pane -p -J -S - -t ${session}`);
      if (captured.exitCode !== 0) return `The terminal is gone (tmux capture-pane failed):\n${formatExecResult(captured)}`;
      const history = captured.stdout.trimEnd();
      const isContinued = previous !== "" && !captured.truncated && history.startsWith(previous);
      const observation = isContinued ? `New Terminal Output:\n${history.slice(previous.length).replace(/^\n/, "")}` : `Current Terminal Screen:\n${await screen(captured)}`;
      // A history longer than the sandbox's output cap arrived cut: the next turn shows the screen again.
      previous = captured.truncated ? "" : history;
      return observation;
    },
  };
}

/** `text` cut into pieces of at most `pieceBytes` UTF-8 bytes, whole characters each: tmux refuses longer commands. */
function pieces(text: string): string[] {
  const result: string[] = [];
  let current = "";
  let currentBytes = 0;
  for (const character of text) {
    const bytes = Buffer.byteLength(character);
    if (currentBytes + bytes > pieceBytes) {
      result.push(current);
      current = "";
      currentBytes = 0;
    }
    current += character;
    currentBytes += bytes;
  }
  return current === "" ? result : [...result, current];
}

function plainTerminal(sandbox: Pick<SandboxEnvironment, "exec">): KeystrokeTerminal {
  return {
    kind: "plain",
    async send(commands) {
      const parts: string[] = [];
      for (const command of commands) {
        const line = command.keystrokes.replace(/\n$/, "");
        if (tmuxKey.test(line.trim())) {
          parts.push(`[${line.trim()} is a terminal key; without tmux commands run one at a time, so it was skipped]`);
          continue;
        }
        if (line.trim() === "") continue;
        parts.push(`$ ${line}\n${formatExecResult(await sandbox.exec(line))}`);
      }
      return `New Terminal Output:\n${parts.join("\n")}`;
    },
  };
}
