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
import { processCpuMicros } from "./pg-cpu";
import { pairSandbox, sendInbound } from "./sandbox-load";
import { login, ROOT, type ServerProcess, startServer } from "./server-process";

export interface NodesRate {
  rate: number;
  /** CPU of the server processes per message, in microseconds. */
  cpuUs: number;
}

/** Inbound over HTTP through `nodes` server processes on one fresh PostgreSQL database. */
export async function inboundOnNodes(nodes: number, messages: number, senders = 32, phones = 2_000) {
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
    const used = servers.reduce((sum, server, i) => sum + processCpuMicros(server.proc.pid) - cpu[i]!, 0);
    return { rate: messages / seconds, cpuUs: used / messages };
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
  process.exit(0);
}
