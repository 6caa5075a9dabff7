import { atomically, type Db, first, one, rowsOf, type Writer } from "../../db/client";
import { keepIdsPast } from "../../db/id-sequences";
import { eq, sql } from "drizzle-orm";
import {
  chatbots,
  connectionQueues,
  connections,
  quickAnswers,
  queues,
  settings,
  tags,
  userQueues,
  users,
} from "../../db/tables";
import { isSettingKey, SETTING_DEFINITIONS } from "../../shared/settings";
import type { Ledger } from "./ledger";
import type { SourceRow, WhaticketSource } from "./source";
import { date, flag, optionalText, profile, sourceId, text } from "./values";

export interface StepContext {
  db: Db;
  source: WhaticketSource;
  ledger: Ledger;
  now: Date;
}

/**
 * `id` when no row of `table` here has it yet, so links and bookmarks to the old installation's ids keep working.
 * The ids the table hands out later never meet a copied one.
 */
export async function freeId(db: Db, table: string, id: unknown): Promise<number | undefined> {
  const n = Number(id);
  if (!Number.isSafeInteger(n) || n <= 0) return undefined;
  if ((await rowsOf(db, sql`SELECT 1 FROM ${sql.identifier(table)} WHERE id = ${n}`)).length) return undefined;
  await keepIdsPast(db, table, n);
  return n;
}

/** Each new row of `table` (in pages), handed to `one` inside a transaction per page. */
export async function eachNew(
  { db, source, ledger }: StepContext,
  table: string,
  one: (row: SourceRow, tx: Writer) => Promise<{ id: number; outcome: "imported" | "existing" } | null>,
) {
  for await (const page of source.rows(table)) {
    await atomically(db, async (tx) => {
      for (const row of page) {
        const id = sourceId(row.id);
        if ((await ledger.of(table)).has(id)) {
          ledger.count(table, "existing");
          continue;
        }
        const done = await one(row, tx);
        if (done) await ledger.remember(tx, table, id, done.id, done.outcome);
        else ledger.count(table, "skipped");
      }
    });
  }
}

/** WhatsApp connections, disconnected: their sessions do not carry over, each phone pairs again. */
export async function importConnections(ctx: StepContext) {
  const hasDefault = Boolean(await first(ctx.db.select().from(connections).where(eq(connections.isDefault, true))));
  let defaultTaken = hasDefault;
  await eachNew(ctx, "Whatsapps", async (row, tx) => {
    const name = text(row.name) || `WhatsApp ${row.id}`;
    const same = await first(tx.select({ id: connections.id }).from(connections).where(eq(connections.name, name)));
    if (same) return { id: same.id, outcome: "existing" };
    const isDefault = flag(row.isDefault) && !defaultTaken;
    defaultTaken ||= isDefault;
    const inserted = await one(
      tx
        .insert(connections)
        .values({
          id: await freeId(ctx.db, "whatsapps", row.id),
          name,
          provider: "baileys",
          number: text(row.number),
          status: "DISCONNECTED",
          isDefault,
          greetingMessage: text(row.greetingMessage),
          farewellMessage: text(row.farewellMessage),
          transferTicketMessage: text(row.transferTicketMessage),
          outOfWorkMessage: text(row.outOfWorkMessage),
          defineWorkHours: flag(row.defineWorkHours),
          ...workHours(row),
        })
        .returning({ id: connections.id }),
    );
    return { id: inserted.id, outcome: "imported" };
  });
}

const HOURS = ["startWorkHour", "endWorkHour", "startWorkHourWeekend", "endWorkHourWeekend"] as const;
const DAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] as const;

/** The work-hour columns whaticket-free has; other forks keep Zapdesk's defaults. */
function workHours(row: SourceRow) {
  const hours = Object.fromEntries(
    HOURS.filter((key) => /^\d{2}:\d{2}$/.test(text(row[key]))).map((key) => [key, text(row[key])]),
  );
  const days = Object.fromEntries(DAYS.filter((day) => row[day] != null).map((day) => [day, flag(row[day])]));
  return { ...hours, ...days };
}

export async function importQueues(ctx: StepContext) {
  const taken = new Set((await ctx.db.select({ color: queues.color }).from(queues)).map((q) => q.color));
  await eachNew(ctx, "Queues", async (row, tx) => {
    const name = text(row.name) || `Queue ${row.id}`;
    const same = await first(tx.select({ id: queues.id }).from(queues).where(eq(queues.name, name)));
    if (same) return { id: same.id, outcome: "existing" };
    const color = freeColour(text(row.color) || "#7c7c7c", taken);
    taken.add(color);
    const inserted = await one(
      tx
        .insert(queues)
        .values({ id: await freeId(ctx.db, "queues", row.id), name, color, greetingMessage: text(row.greetingMessage) })
        .returning({ id: queues.id }),
    );
    return { id: inserted.id, outcome: "imported" };
  });
  await linkRows(ctx, "WhatsappQueues", await ctx.source.all("WhatsappQueues"), async (row) => {
    const whatsappId = await ctx.ledger.target("Whatsapps", row.whatsappId);
    const queueId = await ctx.ledger.target("Queues", row.queueId);
    if (!whatsappId || !queueId) return false;
    return (
      (await first(
        ctx.db.insert(connectionQueues).values({ whatsappId, queueId }).onConflictDoNothing().returning(),
      )) !== undefined
    );
  });
}

/** Queue colours are unique here: a colour already used moves to the nearest free shade. */
function freeColour(colour: string, taken: Set<string>): string {
  let value = Number.parseInt(colour.replace("#", "").padEnd(6, "0").slice(0, 6), 16) || 0;
  let candidate = `#${value.toString(16).padStart(6, "0")}`;
  while (taken.has(candidate)) {
    value = (value + 1) % 0x1000000;
    candidate = `#${value.toString(16).padStart(6, "0")}`;
  }
  return candidate;
}

/** A link table's rows: `link` adds one and says whether it was new. */
export async function linkRows(
  ctx: StepContext,
  table: string,
  rows: SourceRow[],
  link: (row: SourceRow) => Promise<boolean>,
) {
  await atomically(ctx.db, async () => {
    for (const row of rows) ctx.ledger.count(table, (await link(row)) ? "imported" : "existing");
  });
}

/**
 * Users with their bcrypt password hashes, which keep working: the first login checks the old hash and stores a
 * new one. An email already used here keeps the account that has it.
 */
export async function importUsers(ctx: StepContext) {
  await eachNew(ctx, "Users", async (row, tx) => {
    const email = text(row.email).trim().toLowerCase();
    if (!email || !text(row.passwordHash)) return null;
    const same = await first(tx.select({ id: users.id }).from(users).where(eq(users.email, email)));
    if (same) return { id: same.id, outcome: "existing" };
    const inserted = await one(
      tx
        .insert(users)
        .values({
          id: await freeId(ctx.db, "users", row.id),
          name: text(row.name) || email,
          email,
          passwordHash: text(row.passwordHash),
          profile: profile(row.profile),
          whatsappId: (await ctx.ledger.target("Whatsapps", row.whatsappId)) ?? null,
          createdAt: date(row.createdAt, ctx.now),
        })
        .returning({ id: users.id }),
    );
    return { id: inserted.id, outcome: "imported" };
  });
  await linkRows(ctx, "UserQueues", await ctx.source.all("UserQueues"), async (row) => {
    const userId = await ctx.ledger.target("Users", row.userId);
    const queueId = await ctx.ledger.target("Queues", row.queueId);
    if (!userId || !queueId) return false;
    return (
      (await first(ctx.db.insert(userQueues).values({ userId, queueId }).onConflictDoNothing().returning())) !==
      undefined
    );
  });
}

/** Chatbot options: first-level ones hang off a queue, deeper ones off their parent option (`chatbotId`). */
export async function importChatbots(ctx: StepContext) {
  const parents: { id: number; parent: unknown }[] = [];
  await eachNew(ctx, "Chatbots", async (row, tx) => {
    const inserted = await one(
      tx
        .insert(chatbots)
        .values({
          name: text(row.name) || `Option ${row.id}`,
          greetingMessage: text(row.greetingMessage),
          isAgent: flag(row.isAgent),
          queueId: (await ctx.ledger.target("Queues", row.queueId)) ?? null,
        })
        .returning({ id: chatbots.id }),
    );
    if (row.chatbotId != null) parents.push({ id: inserted.id, parent: row.chatbotId });
    return { id: inserted.id, outcome: "imported" };
  });
  // A child may come before its parent in id order: parents are linked once every option exists.
  await atomically(ctx.db, async (tx) => {
    for (const { id, parent } of parents) {
      const parentId = await ctx.ledger.target("Chatbots", parent);
      if (parentId) await tx.update(chatbots).set({ parentId }).where(eq(chatbots.id, id));
    }
  });
}

export async function importQuickAnswers(ctx: StepContext) {
  await eachNew(ctx, "QuickAnswers", async (row, tx) => {
    const shortcut = text(row.shortcut).trim();
    if (!shortcut || !text(row.message)) return null;
    const same = await first(
      tx.select({ id: quickAnswers.id }).from(quickAnswers).where(eq(quickAnswers.shortcut, shortcut)),
    );
    if (same) return { id: same.id, outcome: "existing" };
    const inserted = await one(
      tx
        .insert(quickAnswers)
        .values({ shortcut, message: text(row.message) })
        .returning({ id: quickAnswers.id }),
    );
    return { id: inserted.id, outcome: "imported" };
  });
}

export async function importTags(ctx: StepContext) {
  await eachNew(ctx, "Tags", async (row, tx) => {
    const name = text(row.name).trim();
    if (!name) return null;
    const same = await first(tx.select({ id: tags.id }).from(tags).where(eq(tags.name, name)));
    if (same) return { id: same.id, outcome: "existing" };
    const inserted = await one(
      tx
        .insert(tags)
        .values({ id: await freeId(ctx.db, "tags", row.id), name, color: optionalText(row.color) ?? "#eee" })
        .returning({ id: tags.id }),
    );
    return { id: inserted.id, outcome: "imported" };
  });
}

/**
 * The settings Zapdesk shares with the family, with values it accepts; the API token comes along, so
 * integrations that call the external API keep their token.
 */
export async function importSettings(ctx: StepContext) {
  const rows = await ctx.source.all("Settings");
  await atomically(ctx.db, async (tx) => {
    for (const row of rows) {
      const key = text(row.key);
      const value = text(row.value);
      const allowed: readonly string[] | null = isSettingKey(key) ? SETTING_DEFINITIONS[key].allowed : [];
      if (!value || (allowed && !allowed.includes(value))) {
        ctx.ledger.count("Settings", "skipped");
        continue;
      }
      const current = await first(tx.select({ value: settings.value }).from(settings).where(eq(settings.key, key)));
      if (current?.value === value) {
        ctx.ledger.count("Settings", "existing");
        continue;
      }
      await tx.insert(settings).values({ key, value }).onConflictDoUpdate({ target: settings.key, set: { value } });
      ctx.ledger.count("Settings", "imported");
    }
  });
}
