/**
 * Automatic assignment's cost, at its worst: CPU per inbound message through the pipeline when every message opens
 * a ticket on a connection with one queue (the menu picks it), the queue round-robin over three online agents,
 * against the same flow with the queue manual. Messages to tickets already open cost the rule nothing.
 * `bun bench/assignment.ts` runs it on a temp directory.
 */
import { one } from "../src/db/client";
import { connectionQueues, queues, userQueues, users } from "../src/db/tables";
import type { QueueAssignment } from "../src/shared/contracts/queues";
import { cpuSince, inboundMessage } from "./ingest";
import type { Figure } from "./figure";
import { runConcurrently, startTempApp } from "./temp-app";

export async function measureAssignment(messages = 2_000): Promise<Figure[]> {
  const manual = await cpuPerMessage("manual", messages);
  const automatic = await cpuPerMessage("round_robin", messages);
  const addedMs = (automatic - manual) / 1000;
  return [
    {
      id: "A1",
      what: `automatic assignment, CPU added per inbound message, each a new ticket (${automatic.toFixed(0)} µs vs ${manual.toFixed(0)} µs manual)`,
      value: addedMs,
      unit: "ms",
      target: "≤ 1",
      met: addedMs <= 1,
    },
  ];
}

/** CPU µs per message, each from a new phone, on a connection whose only queue assigns by `assignment`. */
async function cpuPerMessage(assignment: QueueAssignment, total: number): Promise<number> {
  const app = await startTempApp();
  try {
    const queue = await one(
      app.db.insert(queues).values({ name: "Bench", color: "#000000", assignment }).returning({ id: queues.id }),
    );
    await app.db.insert(connectionQueues).values({ whatsappId: app.connectionId!, queueId: queue.id });
    for (let i = 0; i < 3; i++) {
      const agent = await one(
        app.db
          .insert(users)
          .values({ name: `Agent ${i}`, email: `agent${i}@bench.test`, passwordHash: "-", availability: "online" })
          .returning({ id: users.id }),
      );
      await app.db.insert(userQueues).values({ userId: agent.id, queueId: queue.id });
    }
    const sink = app.channels.driverSink;
    const cpu = process.cpuUsage();
    await runConcurrently(total, 32, (i) => sink.onMessage(app.connectionId!, inboundMessage(i, total, Date.now())));
    return cpuSince(cpu) / total;
  } finally {
    await app.close();
  }
}

if (import.meta.main) {
  const { printFigures } = await import("./ingest");
  printFigures(await measureAssignment());
  process.exit(0);
}
