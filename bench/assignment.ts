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
import { traceSqlite } from "../tests/statement-trace";

/** Runs the work without counting (PostgreSQL: the statements are counted by bench/statements.ts's proxy). */
const untraced = { measure: async (work: () => Promise<void>) => void (await work()) };

export async function measureAssignment(messages = 2_000): Promise<Figure[]> {
  const manualRun = await perMessage("manual", messages);
  const automaticRun = await perMessage("round_robin", messages);
  const [manual, automatic] = [manualRun.cpuUs, automaticRun.cpuUs];
  const addedMs = (automatic - manual) / 1000;
  const statements =
    automaticRun.statements === undefined || manualRun.statements === undefined
      ? []
      : [
          {
            id: "A1s",
            what: `automatic assignment, SQL statements added per inbound message (${automaticRun.statements.toFixed(1)} vs ${manualRun.statements.toFixed(1)} manual)`,
            value: Math.round((automaticRun.statements - manualRun.statements) * 10) / 10,
            unit: "statements",
          },
        ];
  return [
    ...statements,
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

/**
 * CPU µs per message, each from a new phone, on a connection whose only queue assigns by `assignment`, and on
 * SQLite the statements per message.
 */
async function perMessage(assignment: QueueAssignment, total: number): Promise<{ cpuUs: number; statements?: number }> {
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
    const trace = process.env.DATABASE_URL ? undefined : traceSqlite(app.db);
    let cpuUs = 0;
    const counted = await (trace ?? untraced).measure(async () => {
      const cpu = process.cpuUsage();
      await runConcurrently(total, 32, (i) => sink.onMessage(app.connectionId!, inboundMessage(i, total, Date.now())));
      cpuUs = cpuSince(cpu) / total;
    });
    return { cpuUs, statements: counted && counted.app.statements / total };
  } finally {
    await app.close();
  }
}

if (import.meta.main) {
  const { printFigures } = await import("./ingest");
  printFigures(await measureAssignment());
  process.exit(0);
}
