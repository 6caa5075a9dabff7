// @engine each
import { describe, expect, test } from "bun:test";
import { eq, sql } from "drizzle-orm";
import { atomically } from "../src/db/client";
import { prepared } from "../src/db/prepared";
import { sandboxMessages, tags } from "../src/db/tables";
import { testsOnPostgres } from "./test-engine";
import type { StatementCount, WorkCount } from "./statement-trace";
import { type Workbench, workbench } from "./units-of-work";

/**
 * The most statements and transactions the app may run for each unit of work: the counts of
 * `bun bench/statements.ts` when this was written (in the comments) plus about a fifth. A change that adds
 * queries or commits to these paths fails here; one that removes some can lower the budget.
 */
const BUDGETS: Record<"sqlite" | "postgres", Record<string, StatementCount>> = {
  sqlite: {
    inboundOnOpenTicket: { statements: 23, transactions: 1 }, // 19, 1
    inboundBurstText: { statements: 14.5, transactions: 0.1 }, // 12.1, 0.0 (32 open tickets at once, per text)
    firstMessageOfNewContact: { statements: 86, transactions: 6 }, // 72, 5
    agentReply: { statements: 58, transactions: 5 }, // 48, 4
    bulkRecipient: { statements: 74, transactions: 7.5 }, // 61.5, 6 (bench: a campaign of 20)
  },
  postgres: {
    inboundOnOpenTicket: { statements: 19, transactions: 1 }, // 16, 1
    inboundBurstText: { statements: 2.3, transactions: 0.2 }, // 1.9, 0.1 (32 open tickets at once, per text)
    firstMessageOfNewContact: { statements: 76, transactions: 6 }, // 63, 5
    agentReply: { statements: 54, transactions: 5 }, // 45, 4
    bulkRecipient: { statements: 72, transactions: 7.5 }, // 59.5, 6 (bench: a campaign of 20)
  },
};
const budget = BUDGETS[testsOnPostgres ? "postgres" : "sqlite"];

const tagByName = prepared((db) =>
  db
    .select()
    .from(tags)
    .where(eq(tags.name, sql.placeholder("name")))
    .prepare(),
);

/** Runs `work` on a fresh workbench, closed after it. */
async function onWorkbench<T>(work: (bench: Workbench) => Promise<T>): Promise<T> {
  const bench = await workbench();
  try {
    return await work(bench);
  } finally {
    await bench.close();
  }
}

/** Runs `steps` on a fresh workbench: the last one is counted, after the others warmed it up. */
function countLast(steps: (bench: Workbench) => (() => Promise<WorkCount>)[]): Promise<WorkCount> {
  return onWorkbench(async (bench) => {
    const units = steps(bench);
    for (const unit of units.slice(0, -1)) await unit();
    return await units.at(-1)!();
  });
}

function expectWithin(count: WorkCount, limit: StatementCount) {
  const log = `what ran:\n${count.log.join("\n")}`;
  expect(count.app.statements, log).toBeLessThanOrEqual(limit.statements);
  expect(count.app.transactions, log).toBeLessThanOrEqual(limit.transactions);
}

/** `count` was the work of `units` alike units: each unit's share stays within `limit`. */
function expectEachWithin(count: WorkCount, units: number, limit: StatementCount) {
  const each = { statements: count.app.statements / units, transactions: count.app.transactions / units };
  expectWithin({ ...count, app: each }, limit);
}

describe("statements per unit of work", () => {
  test("a customer's text on a ticket an agent has open stays within its statement and transaction budget", async () => {
    const count = await countLast((b) => [b.inboundOnOpenTicket, b.agentReply, b.inboundOnOpenTicket]);
    expectWithin(count, budget.inboundOnOpenTicket!);
  });

  test("32 customers writing at once on open tickets share their statements: each text stays within its share", async () => {
    const customers = 32;
    const count = await onWorkbench((bench) => bench.burstOnOpenTickets(customers));
    expectEachWithin(count, customers, budget.inboundBurstText!);
  });

  test("the first message of a new number (contact, ticket, chatbot menu) stays within its budget", async () => {
    const count = await countLast((b) => [b.firstMessageOfNewContact, b.firstMessageOfNewContact]);
    expectWithin(count, budget.firstMessageOfNewContact!);
  });

  test("an agent's reply, sent and acked, stays within its statement and transaction budget", async () => {
    const count = await countLast((b) => [b.inboundOnOpenTicket, b.agentReply, b.inboundOnOpenTicket, b.agentReply]);
    expectWithin(count, budget.agentReply!);
  });

  test("one recipient of a campaign (checked, stored in its ticket, sent, settled, its lane taken and freed) stays within its budget", async () => {
    const recipients = 10;
    const count = await onWorkbench((bench) => bench.bulk(recipients));
    expectEachWithin(count, recipients, budget.bulkRecipient!);
  });

  test("the count takes each statement the engine runs, one transaction per BEGIN, and the sandbox's tables apart", async () => {
    await onWorkbench(async (bench) => {
      const { db } = bench.ctx;
      // Nothing of the set-up still running (the simulated phones' acks) may fall into the count.
      await bench.ctx.sandbox.network.settle();
      await bench.trace.idle();
      const count = await bench.trace.measure(async () => {
        await atomically(db, async (tx) => {
          await tx.select().from(tags);
          await tx.insert(tags).values({ name: "vip", color: "#000000" });
        });
        await tagByName(db).get({ name: "vip" });
        await atomically(db, async (tx) => await tx.select().from(sandboxMessages));
      });
      const trips = (n: number) => (testsOnPostgres ? { roundTrips: n } : {});
      // BEGIN, select, insert, COMMIT; the prepared select. The simulated phones' table in a transaction of its own.
      expect(count.app).toEqual({ statements: 5, transactions: 1, ...trips(5) });
      expect(count.network).toEqual({ statements: 3, transactions: 1, ...trips(3) });
    });
  });
});
