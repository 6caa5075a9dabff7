/**
 * P1 across nodes: inbound over HTTP on PostgreSQL, first with one server process, then with two server processes
 * on one database (each pairs a sandbox connection of its own and takes half the senders, on phones of its own),
 * the same number of messages each time. The servers' own CPU per message is read from /proc (the senders run in
 * this process). `bun bench/pg-nodes.ts` runs it on the tests' throwaway cluster.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freshPgUrl, pgServer } from "../tests/pg-harness";
import { machineBusyMicros, postgresCpuMicros, processCpuMicros } from "./pg-cpu";
import { pairSandbox, sendInbound } from "./sandbox-load";
import { login, ROOT, type ServerProcess, startServer } from "./server-process";

export interface NodesRate {
  rate: number;
  /** CPU of the server processes per message, in microseconds. */
  cpuUs: number;
  /** CPU of PostgreSQL per message, in microseconds. */
  postgresUs: number;
  /** CPU of the senders (this process) per message, in microseconds. */
  sendersUs: number;
  /** CPU of the whole machine per message (servers, PostgreSQL, the senders), in microseconds. */
  machineUs: number;
  /** How many of the machine's cores were busy on average while the messages came in. */
  busyCores: number;
}

const pgDataDir = () => join(pgServer().socketDir, "data");

/** Inbound over HTTP through `nodes` server processes on one fresh PostgreSQL database. */
export async function inboundOnNodes(
  nodes: number,
  messages: number,
  senders = 32,
  phones = 2_000,
): Promise<NodesRate> {
  const url = await freshPgUrl();
  const dirs = Array.from({ length: nodes }, () => mkdtempSync(join(tmpdir(), "zapdesk-node-")));
  const media = mkdtempSync(join(tmpdir(), "zapdesk-media-"));
  const servers: ServerProcess[] = [];
  try {
    // One after another: the first migrates the database, the next finds it done.
    for (const dir of dirs)
      servers.push(
        await startServer([process.execPath, join(ROOT, "src", "server.ts")], dir, {
          DATABASE_URL: url,
          MEDIA_DIR: media,
          NODE_ENV: "production",
        }),
      );
    const loads = [];
    for (const server of servers) {
      const relogin = () => login(server.base);
      loads.push(await pairSandbox(server.base, await relogin(), relogin));
    }
    const cpu = servers.map((server) => processCpuMicros(server.proc.pid));
    const machine = machineBusyMicros();
    const postgres = postgresCpuMicros(pgDataDir());
    const sending = process.cpuUsage();
    const started = performance.now();
    await Promise.all(
      loads.map((load, i) =>
        sendInbound(load, {
          count: Math.round(messages / nodes),
          senders: Math.round(senders / nodes),
          phones: Math.round(phones / nodes),
          firstPhone: i * phones,
        }),
      ),
    );
    const seconds = (performance.now() - started) / 1000;
    const busy = machineBusyMicros() - machine;
    const sent = process.cpuUsage(sending);
    const used = servers.reduce((sum, server, i) => sum + processCpuMicros(server.proc.pid) - cpu[i]!, 0);
    return {
      rate: messages / seconds,
      cpuUs: used / messages,
      postgresUs: (postgresCpuMicros(pgDataDir()) - postgres) / messages,
      sendersUs: (sent.user + sent.system) / messages,
      machineUs: busy / messages,
      busyCores: busy / 1e6 / seconds,
    };
  } finally {
    for (const server of servers) await server.stop();
    for (const dir of [...dirs, media]) rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  pgServer();
  const messages = Number(process.argv[2] ?? 20_000);
  const one = await inboundOnNodes(1, messages);
  const two = await inboundOnNodes(2, messages);
  console.log(`one node:  ${one.rate.toFixed(0)} msg/s, ${one.cpuUs.toFixed(0)} µs server CPU per message`);
  console.log(`two nodes: ${two.rate.toFixed(0)} msg/s, ${two.cpuUs.toFixed(0)} µs server CPU per message`);
  console.log(`ratio: ${(two.rate / one.rate).toFixed(2)}`);
  for (const [name, run] of [
    ["one node", one],
    ["two nodes", two],
  ] as const)
    console.log(
      `${name}: ${run.busyCores.toFixed(2)} cores busy, ${run.machineUs.toFixed(0)} µs of the machine's CPU per message (servers ${run.cpuUs.toFixed(0)}, PostgreSQL ${run.postgresUs.toFixed(0)}, senders ${run.sendersUs.toFixed(0)})`,
    );
  process.exit(0);
}
