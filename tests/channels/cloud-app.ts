import { afterAll, afterEach, expect } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { and, eq } from "drizzle-orm";
import { first } from "../../src/db/client";
import { connectionQueues, contacts, messages, settings, tickets } from "../../src/db/tables";
import { call, loginAs, makeTestApp, salesAndSupport, type TestContext } from "../helpers";
import { FakeGraph, notification, postWebhook } from "./fake-graph";

/** An app with a cloud connection pointed at a fake Graph API, and the customer's side of it, for the cloud tests. */
export const APP_SECRET = "meta-app-secret";
export const CUSTOMER = "5511988887777";
/** The fake's `order_update` template sent with the values "Carla" and "#42", as the Graph API receives it. */
export const ORDER_UPDATE_SENT = {
  type: "template",
  template: {
    name: "order_update",
    language: { code: "pt_BR" },
    components: [
      {
        type: "body",
        parameters: [
          { type: "text", text: "Carla" },
          { type: "text", text: "#42" },
        ],
      },
    ],
  },
};
export const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 7, 7, 7]);

const fakes: FakeGraph[] = [];
const dirs: string[] = [];
/** Stops each test's fake Graph API after it and removes the media directories after the file. */
export function cleanUpCloudApps() {
  afterEach(() => {
    for (const fake of fakes.splice(0)) fake.stop();
  });
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
}

/** An app pointed at a fake Graph API, with an admin who created a cloud connection (CONNECTED unless the token is wrong). */
export async function setup(opts: { accessToken?: string; maxMediaMb?: number; webhookAllowPrivate?: boolean } = {}) {
  const graph = new FakeGraph();
  fakes.push(graph);
  const dir = mkdtempSync(join(tmpdir(), "zapdesk-cloud-"));
  dirs.push(dir);
  const config = {
    cloudApiUrl: graph.url,
    dataDir: dir,
    databasePath: join(dir, "zapdesk.sqlite"),
    mediaDir: join(dir, "media"),
    ...(opts.maxMediaMb ? { maxMediaMb: opts.maxMediaMb } : {}),
    ...(opts.webhookAllowPrivate ? { webhookAllowPrivate: true } : {}),
  };
  const ctx = await makeTestApp(config);
  const admin = await loginAs(ctx, { profile: "admin" });
  const created = await call(ctx.app, "POST", "/api/whatsapp", {
    token: admin.token,
    body: {
      name: "Official",
      provider: "cloud",
      phoneNumberId: graph.phoneNumberId,
      businessAccountId: "2002",
      accessToken: opts.accessToken ?? graph.token,
      appSecret: APP_SECRET,
    },
  });
  expect(created.status).toBe(200);
  const id = created.json.id as number;
  await ctx.channels.start(id);
  /** The app started again on the same database and files, at the same time, its cloud connection started. */
  const restarted = async () => {
    const next = await makeTestApp(config);
    next.clock.t = ctx.clock.t;
    await next.channels.start(id);
    return next;
  };
  return { ctx, graph, admin, id, verifyToken: created.json.verifyToken as string, restarted };
}

let seq = 0;
export const wamid = () => `wamid.in${++seq}`;
export const nowSeconds = (ctx: TestContext) => String(Math.floor(ctx.clock.now() / 1000));

/** A customer's messages delivered as one signed notification, handled before it returns. */
export async function deliver(ctx: TestContext, graph: FakeGraph, id: number, ...items: object[]) {
  const res = await postWebhook(
    ctx.app,
    id,
    notification(graph.phoneNumberId, {
      contacts: [{ wa_id: CUSTOMER, profile: { name: "Carla" } }],
      messages: items.map((item) => ({ from: CUSTOMER, id: wamid(), timestamp: nowSeconds(ctx), ...item })),
    }),
    { appSecret: APP_SECRET },
  );
  expect(res.status).toBe(200);
  await ctx.deps.cloud.settled(id);
}

export async function statuses(ctx: TestContext, graph: FakeGraph, id: number, ...items: object[]) {
  const body = notification(graph.phoneNumberId, {
    statuses: items.map((s) => ({ recipient_id: CUSTOMER, timestamp: nowSeconds(ctx), ...s })),
  });
  expect((await postWebhook(ctx.app, id, body, { appSecret: APP_SECRET })).status).toBe(200);
  await ctx.deps.cloud.settled(id);
}

export const stored = (ctx: TestContext, id: number, wid: string) =>
  first(
    ctx.db
      .select()
      .from(messages)
      .where(and(eq(messages.whatsappId, id), eq(messages.wid, wid))),
  );
export const lastWid = () => `wamid.in${seq}`;
/** The messages the fake was asked to send (read marks left out). */
export const messagesSent = (graph: FakeGraph) => graph.sends.filter((s) => s.body.status !== "read");

export async function customerTicket(ctx: TestContext) {
  const contact = await first(ctx.db.select().from(contacts).where(eq(contacts.number, CUSTOMER)));
  return (await first(ctx.db.select().from(tickets).where(eq(tickets.contactId, contact!.id))))!;
}

/**
 * A cloud connection offering the queues Sales and Support of salesAndSupport (with its admin Ada and agent Ana),
 * its menus styled as `style` (the chatBotType setting).
 */
export async function withQueues(style: "text" | "button" | "list", opts: Parameters<typeof setup>[0] = {}) {
  const s = await setup(opts);
  await s.ctx.db.update(settings).set({ value: style }).where(eq(settings.key, "chatBotType"));
  const cast = await salesAndSupport(s.ctx);
  await s.ctx.db
    .insert(connectionQueues)
    .values([cast.sales, cast.support].map((queue) => ({ whatsappId: s.id, queueId: queue.id })));
  return { ...s, ...cast };
}

export async function withTicket() {
  const s = await setup();
  await deliver(s.ctx, s.graph, s.id, { type: "text", text: { body: "Hi" } });
  const agent = await loginAs(s.ctx);
  const pending = await customerTicket(s.ctx);
  const [ticket] = await s.ctx.db
    .update(tickets)
    .set({ status: "open", userId: agent.user.id })
    .where(eq(tickets.id, pending.id))
    .returning();
  return { ...s, agent, ticket: ticket!, inbound: lastWid() };
}
