import { atomically, type Db, first, one } from "../src/db/client";
/**
 * What users wait for, in process on a throwaway database of 10,000 tickets (and 50,000 messages): the ticket
 * list, search, the first /tickets page HTML, message history, and inbound messages through the sandbox.
 * Bounded loops; loopback only. No targets: the targets are set at 100,000 tickets.
 */
import { connections, contacts, messages, queues, tickets } from "../src/db/tables";
import { type Figure, quantile } from "./figure";
import { startTempApp } from "./temp-app";

const TICKETS = 10_000;
const MESSAGES_PER_TICKET = 5;
const ROUNDS = 50;
const INBOUND = 500;

export async function measureAppAt10k(): Promise<Figure[]> {
  const app = await startTempApp({ seed, sandbox: false });
  const { base, token, cookie, db, channels, sandbox } = app;
  const auth = { authorization: `Bearer ${token}` };
  const api = (path: string) => () => fetch(`${base}${path}`, { headers: auth });

  const figures = [
    await timed("list@10k", "GET /api/tickets?status=open&showAll=true", api("/api/tickets?status=open&showAll=true")),
    await timed("list@10k", "GET /api/tickets?status=pending", api("/api/tickets?status=pending")),
    await timed("search@10k", "search by contact name", api("/api/tickets?searchParam=customer%2099&showAll=true")),
    await timed("search@10k", "search in message bodies", api("/api/tickets?searchParam=number%204&showAll=true")),
    await timed("history@10k", "GET /api/messages/5000", api("/api/messages/5000")),
    await timed("html@10k", "GET /tickets (first page HTML)", () => fetch(`${base}/tickets`, { headers: { cookie } })),
  ];

  const conn = (await first(db.select().from(connections)))!;
  await channels.start(conn.id);
  await sandbox.scan(conn.id);
  const t = performance.now();
  for (let i = 0; i < INBOUND; i++) {
    const res = await fetch(`${base}/api/sandbox/${conn.id}/inbound`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ from: `5521${String(800000000 + (i % 50))}`, body: `bench ${i}` }),
    });
    if (!res.ok) throw new Error(`inbound: HTTP ${res.status}`);
  }
  figures.push({
    id: "ingest@10k",
    what: `inbound messages through the sandbox, one sender (${INBOUND} messages, 50 phones)`,
    value: INBOUND / ((performance.now() - t) / 1000),
    unit: "msg/s",
  });

  await app.close();
  return figures;
}

async function timed(id: string, what: string, request: () => Promise<Response>): Promise<Figure> {
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const t = performance.now();
    const res = await request();
    await res.arrayBuffer();
    times.push(performance.now() - t);
    if (!res.ok) throw new Error(`${what}: HTTP ${res.status}`);
  }
  return { id, what: `${what}, p95 of ${ROUNDS}`, value: quantile(times, 0.95), unit: "ms" };
}

async function seed(db: Db) {
  await atomically(db, async (tx) => {
    const [q1, q2] = await tx
      .insert(queues)
      .values([
        { name: "Sales", color: "#1e88e5" },
        { name: "Support", color: "#43a047" },
      ])
      .returning();
    const conn = await one(
      tx.insert(connections).values({ name: "Bench", provider: "sandbox", isDefault: true }).returning(),
    );
    const now = Date.now();
    for (let i = 0; i < TICKETS; i++) {
      const contact = await one(
        tx
          .insert(contacts)
          .values({ name: `Customer ${i}`, number: `5511${String(900000000 + i)}` })
          .returning({ id: contacts.id }),
      );
      const status = (["open", "pending", "closed"] as const)[i % 3]!;
      const ticket = await one(
        tx
          .insert(tickets)
          .values({
            contactId: contact.id,
            whatsappId: conn.id,
            queueId: i % 4 === 0 ? null : i % 2 ? q1!.id : q2!.id,
            status,
            lastMessage: `message ${i}`,
            unreadMessages: i % 5,
            updatedAt: new Date(now - i * 60_000),
            createdAt: new Date(now - i * 60_000),
          })
          .returning({ id: tickets.id }),
      );
      await tx.insert(messages).values(
        Array.from({ length: MESSAGES_PER_TICKET }, (_, m) => ({
          wid: `W${i}-${m}`,
          whatsappId: conn.id,
          ticketId: ticket.id,
          contactId: contact.id,
          body: `hello ${i} number ${m}`,
          fromMe: m % 2 === 1,
          createdAt: new Date(now - i * 60_000 + m),
        })),
      );
    }
  });
}
