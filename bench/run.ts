/**
 * `npm run bench`: seeds a throwaway database with 10,000 tickets (and 50,000 messages), serves the app on a
 * loopback port and measures what users wait for: the ticket list, search, the first /tickets page HTML,
 * message history, and inbound message ingestion through the sandbox. Bounded loops; loopback only.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../src/app";
import { composeDeps } from "../src/compose";
import { loadConfig } from "../src/config";
import { closeDatabase } from "../src/db/client";
import { contacts, messages, queues, tickets, connections } from "../src/db/schema";
import { systemClock } from "../src/shared/clock";
import { createLogger } from "../src/log";
import { ensureFirstAdmin } from "../src/modules/auth/service";
import { BunTopicHub } from "../src/realtime/hub";

const TICKETS = 10_000;
const MESSAGES_PER_TICKET = 5;
const ROUNDS = 50;

const dir = mkdtempSync(join(tmpdir(), "zapdesk-bench-"));
const config = {
  ...loadConfig({
    DATA_DIR: dir,
    ADMIN_EMAIL: "bench@example.com",
    ADMIN_PASSWORD: "bench-password",
    LOG_LEVEL: "silent",
  }),
};
const hub = new BunTopicHub();
const { deps, db, channels, sandbox } = composeDeps({ config, hub, log: createLogger("silent"), clock: systemClock });
await ensureFirstAdmin(deps);

const seedStart = performance.now();
db.transaction((tx) => {
  const [q1, q2] = tx
    .insert(queues)
    .values([
      { name: "Sales", color: "#1e88e5" },
      { name: "Support", color: "#43a047" },
    ])
    .returning()
    .all();
  const conn = tx.insert(connections).values({ name: "Bench", provider: "sandbox", isDefault: true }).returning().get();
  const now = Date.now();
  for (let i = 0; i < TICKETS; i++) {
    const contact = tx
      .insert(contacts)
      .values({ name: `Customer ${i}`, number: `5511${String(900000000 + i)}` })
      .returning({ id: contacts.id })
      .get();
    const status = (["open", "pending", "closed"] as const)[i % 3]!;
    const ticket = tx
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
      .returning({ id: tickets.id })
      .get();
    tx.insert(messages)
      .values(
        Array.from({ length: MESSAGES_PER_TICKET }, (_, m) => ({
          wid: `W${i}-${m}`,
          whatsappId: conn.id,
          ticketId: ticket.id,
          contactId: contact.id,
          body: `hello ${i} number ${m}`,
          fromMe: m % 2 === 1,
          createdAt: new Date(now - i * 60_000 + m),
        })),
      )
      .run();
  }
});
const seedMs = performance.now() - seedStart;

const app = (await createApp(deps)).listen({ port: 0, hostname: "127.0.0.1" });
hub.attach(app.server!);
const base = `http://127.0.0.1:${app.server!.port}`;

const login = await fetch(`${base}/api/auth/login`, {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ email: "bench@example.com", password: "bench-password" }),
});
const { token } = (await login.json()) as { token: string };
const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0]!;
const auth = { authorization: `Bearer ${token}` };

async function measure(name: string, request: () => Promise<Response>) {
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < ROUNDS; i++) {
    const t = performance.now();
    const res = await request();
    const body = await res.arrayBuffer();
    times.push(performance.now() - t);
    if (!res.ok) throw new Error(`${name}: HTTP ${res.status}`);
    bytes = body.byteLength;
  }
  times.sort((a, b) => a - b);
  const pick = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!.toFixed(1);
  console.log(
    `${name.padEnd(44)} p50 ${pick(0.5).padStart(6)} ms   p95 ${pick(0.95).padStart(6)} ms   ${(bytes / 1024).toFixed(1)} KB`,
  );
}

console.log(
  `seeded ${TICKETS} tickets and ${TICKETS * MESSAGES_PER_TICKET} messages in ${(seedMs / 1000).toFixed(1)} s; ${ROUNDS} requests each:`,
);
await measure("GET /api/tickets?status=open&showAll=true", () =>
  fetch(`${base}/api/tickets?status=open&showAll=true`, { headers: auth }),
);
await measure("GET /api/tickets?status=pending", () => fetch(`${base}/api/tickets?status=pending`, { headers: auth }));
await measure("GET /api/tickets?searchParam=customer 99", () =>
  fetch(`${base}/api/tickets?searchParam=customer%2099&showAll=true`, { headers: auth }),
);
await measure("GET /api/tickets?searchParam=number 4 (bodies)", () =>
  fetch(`${base}/api/tickets?searchParam=number%204&showAll=true`, { headers: auth }),
);
await measure("GET /api/messages/5000", () => fetch(`${base}/api/messages/5000`, { headers: auth }));
await measure("GET /tickets (first page HTML)", () => fetch(`${base}/tickets`, { headers: { cookie } }));

const conn = db.select().from(connections).get()!;
await channels.start(conn.id);
sandbox.scan(conn.id);
const INBOUND = 500;
const t = performance.now();
for (let i = 0; i < INBOUND; i++) {
  const res = await fetch(`${base}/api/sandbox/${conn.id}/inbound`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify({ from: `5521${String(800000000 + (i % 50))}`, body: `bench ${i}` }),
  });
  if (!res.ok) throw new Error(`inbound: HTTP ${res.status}`);
}
const perSecond = INBOUND / ((performance.now() - t) / 1000);
console.log(
  `inbound messages through the sandbox pipeline: ${perSecond.toFixed(0)} / s (${INBOUND} messages, 50 senders)`,
);

await app.stop(true);
await channels.stopAll();
sandbox.network.cancelAll();
closeDatabase(db);
rmSync(dir, { recursive: true, force: true });
process.exit(0);
