import { atomically, type Db, first, one } from "../../db/client";
import { asc, eq, sql } from "drizzle-orm";
import { prepared } from "../../db/prepared";
import { type WebhookEndpointRow, webhookEndpoints, webhookTicketStatus } from "../../db/tables";
import type { AppDeps } from "../../deps";
import { AppError, notFound } from "../../errors";
import { randomHex } from "../../shared/random";
import type { WebhookEndpointDto } from "../../shared/contracts/webhooks";
import { isWebhookEvent, type WebhookEvent } from "../../shared/webhook-events";
import { ticketStatuses } from "../tickets/records";
import type { WebhookModel } from "./model";
import { assertPublicTarget, type TargetPolicy } from "./target-check";

const MAX_URL = 2000;

/** Only absolute http(s) URLs without credentials in them. */
export function checkWebhookUrl(raw: string): string {
  const value = raw.trim();
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new AppError("ERR_INVALID_WEBHOOK_URL");
  }
  if (
    value.length > MAX_URL ||
    (url.protocol !== "http:" && url.protocol !== "https:") ||
    !url.hostname ||
    url.username ||
    url.password
  ) {
    throw new AppError("ERR_INVALID_WEBHOOK_URL");
  }
  return url.toString();
}

function checkEvents(events: string[]): WebhookEvent[] {
  const unique = [...new Set(events)];
  if (!unique.length || !unique.every(isWebhookEvent)) throw new AppError("ERR_INVALID_BODY");
  return unique as WebhookEvent[];
}

export function toEndpointDto(row: WebhookEndpointRow): WebhookEndpointDto {
  return {
    id: row.id,
    url: row.url,
    events: JSON.parse(row.events) as WebhookEvent[],
    secret: row.secret,
    active: row.active,
    createdAt: row.createdAt,
  };
}

export async function listEndpoints(db: Db): Promise<WebhookEndpointDto[]> {
  return (await db.select().from(webhookEndpoints).orderBy(asc(webhookEndpoints.id))).map(toEndpointDto);
}

type EndpointDeps = Pick<AppDeps, "db" | "events">;

/** A new endpoint gets its own random signing secret. */
export async function createEndpoint(
  deps: EndpointDeps,
  input: WebhookModel.Create,
  policy: TargetPolicy,
): Promise<WebhookEndpointDto> {
  const url = checkWebhookUrl(input.url ?? "");
  await assertPublicTarget(url, policy);
  const events = checkEvents(input.events ?? []);
  const secret = `whsec_${randomHex(24)}`;
  const row = await changingEndpoints(
    deps,
    async (tx) =>
      await one(
        tx
          .insert(webhookEndpoints)
          .values({ url, events: JSON.stringify(events), secret, active: input.active ?? true })
          .returning(),
      ),
  );
  return toEndpointDto(row);
}

export async function updateEndpoint(
  deps: EndpointDeps,
  id: number,
  input: WebhookModel.Update,
  now: number,
  policy: TargetPolicy,
): Promise<WebhookEndpointDto> {
  const set: Partial<typeof webhookEndpoints.$inferInsert> = { updatedAt: new Date(now) };
  if (input.url !== undefined) {
    set.url = checkWebhookUrl(input.url);
    await assertPublicTarget(set.url, policy);
  }
  if (input.events !== undefined) set.events = JSON.stringify(checkEvents(input.events));
  if (input.active !== undefined) set.active = input.active;
  const row = await changingEndpoints(
    deps,
    async (tx) => await first(tx.update(webhookEndpoints).set(set).where(eq(webhookEndpoints.id, id)).returning()),
  );
  if (!row) throw notFound("ERR_NO_WEBHOOK_FOUND");
  return toEndpointDto(row);
}

/** Removes the endpoint with its delivery log; deliveries still waiting are dropped with it. */
export async function deleteEndpoint(deps: EndpointDeps, id: number) {
  const row = await changingEndpoints(
    deps,
    async (tx) =>
      await first(
        tx.delete(webhookEndpoints).where(eq(webhookEndpoints.id, id)).returning({ id: webhookEndpoints.id }),
      ),
  );
  if (!row) throw notFound("ERR_NO_WEBHOOK_FOUND");
}

/** Every active endpoint (read through endpointCache). */
export const activeEndpoints = prepared((db) =>
  db.select().from(webhookEndpoints).where(eq(webhookEndpoints.active, true)).prepare(),
);

/**
 * Runs a change of the endpoints and announces it once committed (every node forgets the endpoints it kept, see
 * endpointCache). Ticket statuses are stored only while some endpoint wants `ticket.status` (see observe.ts): when
 * the change gives it its first subscriber, every ticket's status is stored as it is now, so the first change
 * reported afterwards has the right previous status.
 */
async function changingEndpoints<T extends { id: number } | undefined>(
  deps: EndpointDeps,
  change: (tx: Db) => Promise<T>,
): Promise<T> {
  const row = await atomically(deps.db, async (tx) => {
    const statusWanted = await someEndpointWants(tx, "ticket.status");
    const changed = await change(tx);
    if (!statusWanted && (await someEndpointWants(tx, "ticket.status"))) await storeTicketStatuses(tx);
    return changed;
  });
  if (row) deps.events.emit("webhooks.changed", { endpointId: row.id });
  return row;
}

const STATUSES_PER_INSERT = 500;

async function storeTicketStatuses(tx: Db) {
  const rows = (await ticketStatuses(tx)).map(({ id, status }) => ({ ticketId: id, status }));
  for (let i = 0; i < rows.length; i += STATUSES_PER_INSERT)
    await tx
      .insert(webhookTicketStatus)
      .values(rows.slice(i, i + STATUSES_PER_INSERT))
      .onConflictDoUpdate({ target: webhookTicketStatus.ticketId, set: { status: sql`excluded.status` } });
}

async function someEndpointWants(db: Db, event: WebhookEvent): Promise<boolean> {
  return (await activeEndpoints(db).all()).some((row) => (JSON.parse(row.events) as string[]).includes(event));
}
