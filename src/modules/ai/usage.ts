import { and, desc, eq, gte, sql } from "drizzle-orm";
import { atomically, first, lockKey, one, type Reader } from "../../db/client";
import { aiCalls } from "../../db/tables";
import type { AppDeps } from "../../deps";
import { AppError } from "../../errors";
import type { AiCallDto, AiCallKind, AiUsageDto } from "../../shared/contracts/ai";
import type { ErrorCode } from "../../shared/error-codes";
import { dayRangeOf } from "../tickets/day-range";
import type { AiConfig } from "./settings";

type Deps = Pick<AppDeps, "db" | "clock" | "config">;

export interface CallStart {
  feature: AiCallKind;
  ticketId?: number;
  userId?: number;
}

/**
 * Records a call about to start, after checking the installation's limits: the calls started in the last minute
 * (in flight included) against `perMinute`, and today's tokens against `dailyTokens`. One check at a time, so
 * two requests cannot both take the last place.
 */
export async function beginCall(deps: Deps, config: AiConfig, call: CallStart): Promise<number> {
  const now = deps.clock.now();
  return await atomically(deps.db, async (tx) => {
    await lockKey(tx, "ai:calls");
    if (config.perMinute > 0) {
      const lastMinute = await one(
        tx
          .select({ n: sql<number>`count(*)` })
          .from(aiCalls)
          .where(gte(aiCalls.startedAt, now - 60_000)),
      );
      if (Number(lastMinute.n) >= config.perMinute) throw new AppError("ERR_AI_RATE_LIMITED", 429, { retryAfter: 60 });
    }
    if (config.dailyTokens > 0 && (await tokensSince(tx, dayStart(deps, now))) >= config.dailyTokens)
      throw new AppError("ERR_AI_BUDGET_EXHAUSTED", 429);
    const row = await one(
      tx
        .insert(aiCalls)
        .values({
          feature: call.feature,
          model: config.model,
          ticketId: call.ticketId ?? null,
          userId: call.userId ?? null,
          startedAt: now,
        })
        .returning({ id: aiCalls.id }),
    );
    return row.id;
  });
}

/** How a call ended: its tokens, or the error code it failed with. */
export type CallEnd = { promptTokens: number; completionTokens: number } & (
  | { ok: true }
  | { ok: false; error: ErrorCode }
);

export async function endCall(deps: Deps, id: number, startedAt: number, end: CallEnd) {
  await deps.db
    .update(aiCalls)
    .set({
      status: end.ok ? "ok" : "error",
      error: end.ok ? null : end.error,
      promptTokens: end.promptTokens,
      completionTokens: end.completionTokens,
      durationMs: Math.max(0, deps.clock.now() - startedAt),
    })
    .where(eq(aiCalls.id, id));
}

/** How many calls for `feature` on the ticket started at or after `since` (the AI step's turns). */
export async function callsOnTicket(deps: Pick<Deps, "db">, ticketId: number, feature: AiCallKind, since: number) {
  const row = await first(
    deps.db
      .select({ n: sql<number>`count(*)` })
      .from(aiCalls)
      .where(and(eq(aiCalls.ticketId, ticketId), eq(aiCalls.feature, feature), gte(aiCalls.startedAt, since))),
  );
  return Number(row?.n ?? 0);
}

/** GET /ai/usage: today's calls and tokens (in the installation's time zone) and the latest 20 calls. */
export async function aiUsage(deps: Deps, config: AiConfig): Promise<AiUsageDto> {
  const since = dayStart(deps, deps.clock.now());
  const today = await first(
    deps.db
      .select({
        requests: sql<number>`count(*)`,
        errors: sql<number>`coalesce(sum(case when ${aiCalls.status} = 'error' then 1 else 0 end), 0)`,
        promptTokens: sql<number>`coalesce(sum(${aiCalls.promptTokens}), 0)`,
        completionTokens: sql<number>`coalesce(sum(${aiCalls.completionTokens}), 0)`,
      })
      .from(aiCalls)
      .where(gte(aiCalls.startedAt, since)),
  );
  const recent = await deps.db.select().from(aiCalls).orderBy(desc(aiCalls.id)).limit(20);
  return {
    today: {
      requests: Number(today?.requests ?? 0),
      errors: Number(today?.errors ?? 0),
      promptTokens: Number(today?.promptTokens ?? 0),
      completionTokens: Number(today?.completionTokens ?? 0),
    },
    dailyTokens: config.dailyTokens,
    perMinute: config.perMinute,
    recent: recent.map(
      (row): AiCallDto => ({
        id: row.id,
        feature: row.feature,
        model: row.model,
        status: row.status,
        error: row.error,
        promptTokens: row.promptTokens,
        completionTokens: row.completionTokens,
        durationMs: row.durationMs,
        startedAt: Number(row.startedAt),
      }),
    ),
  };
}

async function tokensSince(tx: Reader, since: number) {
  const row = await first(
    tx
      .select({ n: sql<number>`coalesce(sum(${aiCalls.promptTokens} + ${aiCalls.completionTokens}), 0)` })
      .from(aiCalls)
      .where(gte(aiCalls.startedAt, since)),
  );
  return Number(row?.n ?? 0);
}

const dayStart = (deps: Deps, now: number) => dayRangeOf(now, deps.config.timeZone)[0];
