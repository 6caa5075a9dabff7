import { atomically, first, one } from "../../db/client";
import { and, eq, isNull, lt, sql } from "drizzle-orm";
import { prepared } from "../../db/prepared";
import { refreshFamilies } from "../../db/tables";
import type { AppDeps } from "../../deps";

/** What presenting a refresh token found: its family's current generation, or nothing valid. */
export type Presented =
  | { status: "current"; familyId: number; generation: number }
  | { status: "replayed" }
  | { status: "refused" };

/** Starts the family of a new login (and forgets families whose last token has expired). */
export async function startFamily(deps: AppDeps, userId: number): Promise<{ id: number; generation: number }> {
  const now = new Date(deps.clock.now());
  const expired = new Date(now.getTime() - deps.config.refreshTokenTtl * 1000);
  return await atomically(deps.db, async (tx) => {
    await tx.delete(refreshFamilies).where(lt(refreshFamilies.rotatedAt, expired));
    const row = await one(
      tx.insert(refreshFamilies).values({ userId, generation: 0, rotatedAt: now, createdAt: now }).returning(),
    );
    return { id: row.id, generation: row.generation };
  });
}

/**
 * Checks a refresh token's family and generation and, with `rotate`, moves the family to the next generation.
 * A generation older than the current one is a replayed token: the family is revoked, which ends that device's
 * session, and nothing is granted. (The browser refreshes one tab at a time, so its own tabs never replay.)
 */
export async function presentRefreshToken(
  deps: AppDeps,
  claim: { userId: number; familyId: number; generation: number },
  rotate: boolean,
): Promise<Presented> {
  const now = deps.clock.now();
  return await atomically(deps.db, async (tx): Promise<Presented> => {
    const family = await first(
      tx
        .select()
        .from(refreshFamilies)
        .where(and(eq(refreshFamilies.id, claim.familyId), eq(refreshFamilies.userId, claim.userId))),
    );
    if (!family || family.revokedAt) return { status: "refused" };
    if (claim.generation === family.generation) {
      if (!rotate) return { status: "current", familyId: family.id, generation: family.generation };
      // Only one of two presentations of the same token at once moves the family on (on PostgreSQL both may
      // have read it); the other finds the generation moved and is a replay.
      const rotated = await first(
        tx
          .update(refreshFamilies)
          .set({ generation: family.generation + 1, rotatedAt: new Date(now) })
          .where(
            and(
              eq(refreshFamilies.id, family.id),
              eq(refreshFamilies.generation, family.generation),
              isNull(refreshFamilies.revokedAt),
            ),
          )
          .returning({ generation: refreshFamilies.generation }),
      );
      if (rotated) return { status: "current", familyId: family.id, generation: rotated.generation };
    }
    await tx
      .update(refreshFamilies)
      .set({ revokedAt: new Date(now) })
      .where(eq(refreshFamilies.id, family.id));
    return { status: "replayed" };
  });
}

/** True while the family an access token was issued for has not been revoked. */
export async function familyIsActive(deps: AppDeps, familyId: number, userId: number): Promise<boolean> {
  const row = await familyRevocation(deps.db).get({ familyId, userId });
  return !!row && !row.revokedAt;
}

const familyRevocation = prepared((db) =>
  db
    .select({ revokedAt: refreshFamilies.revokedAt })
    .from(refreshFamilies)
    .where(
      and(eq(refreshFamilies.id, sql.placeholder("familyId")), eq(refreshFamilies.userId, sql.placeholder("userId"))),
    )
    .prepare(),
);

/** Ends one device's session: its refresh and access tokens stop working. */
export async function revokeFamily(deps: AppDeps, familyId: number) {
  await deps.db
    .update(refreshFamilies)
    .set({ revokedAt: new Date(deps.clock.now()) })
    .where(and(eq(refreshFamilies.id, familyId), isNull(refreshFamilies.revokedAt)));
}
