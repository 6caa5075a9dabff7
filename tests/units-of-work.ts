import { traceSqlite, type WorkCount } from "./statement-trace";
import { closeDatabase } from "../src/db/client";
import { queues } from "../src/db/tables";
import { testsOnPostgres } from "./test-engine";
import { schedulesSettled } from "../src/modules/schedules/jobs";
import { webhookEventsRecorded } from "../src/modules/webhooks/observe";
import { call, createSandboxConnection, loginAs, makeTestApp } from "./helpers";
import { freshPgUrl } from "./pg-harness";
import { tracePgWire } from "./pg-wire-trace";

/**
 * The units of work whose statements are counted (tests/statement-budget.test.ts, bench/statements.ts), on a
 * test app of the run's engine (PostgreSQL behind a counting proxy) with a CONNECTED sandbox connection whose
 * greeting offers two queues, and an agent of the first queue. Each unit counts what it caused until the app
 * is quiet again: its request, the sandbox's acks, webhook recording and schedule settling (no endpoints, no
 * schedules, no browsers connected).
 */
export async function workbench() {
  const proxy = testsOnPostgres ? await tracePgWire(await freshPgUrl()) : undefined;
  const ctx = await makeTestApp(proxy ? { databaseUrl: proxy.url } : {});
  const trace = proxy?.trace ?? traceSqlite(ctx.db);
  const admin = (await loginAs(ctx, { profile: "admin" })).token;
  const [sales, support] = await ctx.db
    .insert(queues)
    .values([
      { name: "Sales", color: "#1e88e5", greetingMessage: "Sales here" },
      { name: "Support", color: "#43a047", greetingMessage: "Support here" },
    ])
    .returning();
  const agent = await loginAs(ctx, { profile: "user", queueIds: [sales!.id] });
  const connection = await createSandboxConnection(ctx, {
    greetingMessage: "Hello {{name}}, choose:",
    queueIds: [sales!.id, support!.id],
  });
  let phones = 0;
  const newPhone = () => `55119${String(70_000_000 + ++phones)}`;
  /** Until the app is quiet: acks walked, webhook events recorded, schedules settled, nothing else running. */
  const quiet = async () => {
    do {
      await ctx.sandbox.network.settle();
      await webhookEventsRecorded(ctx.deps);
      await schedulesSettled(ctx.deps);
    } while (await trace.idle());
  };
  const request = async (method: string, path: string, token: string, body?: unknown) => {
    const res = await call(ctx.app, method, path, { token, body });
    if (res.status !== 200) throw new Error(`${method} ${path}: HTTP ${res.status} ${JSON.stringify(res.json)}`);
    return res.json;
  };
  const inbound = (from: string, body: string) =>
    request("POST", `/api/sandbox/${connection.id}/inbound`, admin, { from, name: "Customer", body });

  /** A customer who chose the first queue, whose ticket the agent accepted. */
  const openTicketOf = async (phone: string) => {
    await inbound(phone, "Hi");
    await inbound(phone, "1");
    await quiet();
    const ticket = (await request("GET", "/api/tickets?status=pending", agent.token)).tickets[0] as { id: number };
    await request("PUT", `/api/tickets/${ticket.id}`, agent.token, { status: "open", userId: agent.user.id });
    await quiet();
    return ticket;
  };
  const customer = newPhone();
  const ticket = await openTicketOf(customer);

  /** What one run of `work` asked of the database, until the app is quiet again. */
  const measure = (work: () => Promise<unknown>): Promise<WorkCount> =>
    trace.measure(async () => {
      await work();
      await quiet();
    });

  return {
    ctx,
    trace,
    /** A customer's text on their ticket the agent has open. */
    inboundOnOpenTicket: () => measure(() => inbound(customer, "One more thing")),
    /**
     * `customers` customers' texts at once, each on their ticket the agent has open (the customers are set up
     * first, uncounted): the inbound writes of one moment share a group commit.
     */
    async burstOnOpenTickets(customers: number): Promise<WorkCount> {
      const phones = Array.from({ length: customers }, () => newPhone());
      for (const phone of phones) await openTicketOf(phone);
      await quiet();
      return await measure(() => Promise.all(phones.map((phone) => inbound(phone, "One more thing"))));
    },
    /** The first message of a new number: contact, ticket, and the chatbot's menu sent back. */
    firstMessageOfNewContact: () => measure(() => inbound(newPhone(), "Hello")),
    /** The agent's reply on that open ticket, sent and acked (it marks the customer's unread texts read). */
    agentReply: () =>
      measure(() => request("POST", `/api/messages/${ticket.id}`, agent.token, { body: "Here to help" })),
    /**
     * A campaign of `recipients` new numbers, stored and run (the clock a second at a time, the job runner
     * taking what is due) until the shipping report shows every record sent.
     */
    async bulk(recipients: number): Promise<WorkCount> {
      await request("POST", "/api/settingsMessage", admin, {
        whatsappId: connection.id,
        limit: 1_000_000,
        minutes: 0,
        seconds: 1,
        random: false,
      });
      const list = Array.from({ length: recipients }, () => newPhone());
      return await measure(async () => {
        await request(
          "POST",
          "/api/bulkMessage",
          admin,
          list.map((phone) => ({ phone, message: "Our news", whatsappId: connection.id })),
        );
        for (let tick = 0; !(await trace.aside(() => campaignSent(list))); tick++) {
          if (tick > recipients * 3 + 10) throw new Error("the campaign did not finish");
          ctx.clock.advance(1000);
          await ctx.deps.jobs.tick();
          await quiet();
        }
      });
    },
    async close() {
      await ctx.deps.outbox.idle(connection.id);
      await ctx.channels.stopAll();
      await closeDatabase(ctx.db);
      proxy?.close();
    },
  };

  /** Whether every record of the campaign to `list` is sent, as the shipping report shows it. */
  async function campaignSent(list: string[]): Promise<boolean> {
    const pending = new Set(list);
    for (let page = 1; ; page++) {
      const report = await request("GET", `/api/bulkMessage/report?pageNumber=${page}`, admin);
      for (const record of report.messages as { phone: string; status: string }[])
        if (record.status === "sent") pending.delete(record.phone);
      if (!report.hasMore) return pending.size === 0;
    }
  }
}

export type Workbench = Awaited<ReturnType<typeof workbench>>;
