/**
 * A real single-node Ray cluster for tests: `ray start --head` from the pinned ml environment, its dashboard (the Jobs
 * API) on a free loopback port, one CPU, a small object store, its own temp dir and explicit free ports so that it
 * never meets another cluster on the machine. `stop` ends exactly its processes and says which survived.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";

export interface RayHead {
  /** The dashboard's URL (Jobs REST API), http://127.0.0.1:PORT. */
  dashboard: string;
  /** Kills every process of this cluster (not `ray stop --force`, which would end every Ray on a shared machine) and returns the pids still alive. */
  stop(): Promise<number[]>;
}

/** One free loopback port (closed again, so Ray can bind it). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts the head with `python`'s ray; `environment` reaches the job drivers (Ray passes its own environment on). */
export async function startRayHead(python: string, environment: NodeJS.ProcessEnv): Promise<RayHead> {
  const bin = path.dirname(python);
  // Short: Ray puts unix sockets under it, and their paths are limited to 107 bytes.
  const temp = mkdtempSync("/tmp/rt-");
  const [gcs, dashboard, client, nodeManager, objectManager, agentListen, agentGrpc, metrics, runtimeEnvAgent] = (await Promise.all(Array.from({ length: 9 }, freePort))) as [number, number, number, number, number, number, number, number, number];
  // RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0: Ray then takes 127.0.0.1 as every process's node address
  // (ray/_private/services.py get_node_ip_address); otherwise its client server and agents talk over the machine's
  // own network address despite --node-ip-address, and tests may only use loopback.
  const env = { ...process.env, ...environment, PATH: `${bin}:${process.env.PATH}`, RAY_USAGE_STATS_ENABLED: "0", RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER: "0" };
  const args = [
    "start", "--head", "--node-ip-address", "127.0.0.1", "--port", String(gcs),
    "--include-dashboard", "true", "--dashboard-host", "127.0.0.1", "--dashboard-port", String(dashboard),
    "--ray-client-server-port", String(client), "--node-manager-port", String(nodeManager), "--object-manager-port", String(objectManager),
    "--dashboard-agent-listen-port", String(agentListen), "--dashboard-agent-grpc-port", String(agentGrpc),
    "--metrics-export-port", String(metrics), "--runtime-env-agent-port", String(runtimeEnvAgent),
    // One CPU and the smallest object store Ray accepts (~75 MB): the jobs here only run a driver process each.
    "--num-cpus", "1", "--object-store-memory", "80000000", "--temp-dir", temp, "--disable-usage-stats",
  ];
  const started = spawnSync(path.join(bin, "ray"), args, { env, encoding: "utf8", timeout: 240_000 });
  const head: RayHead = {
    dashboard: `http://127.0.0.1:${dashboard}`,
    async stop() {
      const pids = clusterProcesses(temp, gcs);
      signal(pids, "SIGTERM");
      await new Promise((resolve) => setTimeout(resolve, 5000));
      signal(clusterProcesses(temp, gcs), "SIGKILL");
      await new Promise((resolve) => setTimeout(resolve, 1000));
      rmSync(temp, { recursive: true, force: true });
      return clusterProcesses(temp, gcs);
    },
  };
  if (started.status !== 0) {
    await head.stop();
    throw new Error(`ray start --head failed (${started.status}):\n${started.stdout}\n${started.stderr}`);
  }
  return head;
}

// The cluster's processes: those naming its temp dir or its GCS port, and all their descendants (the dashboard's
// module workers and the job drivers name neither). Zombies are left to their parents.
function clusterProcesses(temp: string, gcsPort: number): number[] {
  const table = execFileSync("ps", ["-eo", "pid=,ppid=,stat=,args="], { encoding: "utf8" })
    .split("\n")
    .map((line) => line.trim().match(/^(\d+)\s+(\d+)\s+(\S+)\s+(.*)$/))
    .filter((match): match is RegExpMatchArray => match !== null)
    .map(([, pid, parent, state, args]) => ({ pid: Number(pid), parent: Number(parent), zombie: state!.startsWith("Z"), args: args! }));
  const members = new Set(table.filter((entry) => entry.args.includes(temp) || entry.args.includes(`:${gcsPort} `) || entry.args.endsWith(`:${gcsPort}`)).map((entry) => entry.pid));
  for (let grown = true; grown; ) {
    grown = false;
    for (const entry of table) {
      if (members.has(entry.parent) && !members.has(entry.pid)) {
        members.add(entry.pid);
        grown = true;
      }
    }
  }
  return table.filter((entry) => members.has(entry.pid) && !entry.zombie && entry.pid !== process.pid).map((entry) => entry.pid);
}

function signal(pids: readonly number[], name: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, name);
    } catch {
      // already gone
    }
  }
}
