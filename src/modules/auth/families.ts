import { atomically, type Db, first, one } from "../../db/client";
import { and, eq, isNull, lt, ne, sql } from "drizzle-orm";
import { refreshFamilies } from "../../db/tables";
import { prepared } from "../../db/prepared";
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
 * How long a replaced refresh token still yields its successor: a client whose requests fail together refreshes
 * once per request, with the same cookie, and must not lose its session for it.
 */
const ROTATION_GRACE_MS = 5_000;

/** The family of a refresh token's claim, when it is the user's. */
const claimedFamily = prepared((db) =>
  db
    .select()
    .from(refreshFamilies)
    .where(and(eq(refreshFamilies.id, sql.placeholder("id")), eq(refreshFamilies.userId, sql.placeholder("userId"))))
    .prepare(),
);

/**
 * Checks a refresh token's family and generation and, with `rotate`, moves the family to the next generation.
 * The token just replaced, presented again within 5 s of its rotation, gets the same successor. Any other older
 * generation is a replayed token: the family is revoked, which ends that device's session, and nothing is
 * granted.
 */
export async function presentRefreshToken(
  deps: AppDeps,
  claim: { userId: number; familyId: number; generation: number },
  rotate: boolean,
): Promise<Presented> {
  const now = deps.clock.now();
  const claimed = { id: claim.familyId, userId: claim.userId };
  const justReplaced = (f: { generation: number; rotatedAt: Date }) =>
    claim.generation === f.generation - 1 && now - f.rotatedAt.getTime() <= ROTATION_GRACE_MS;
  if (!rotate) {
    // A page load only reads: a current token needs no transaction (on PostgreSQL three round trips instead of one).
    const family = await claimedFamily(deps.db).get(claimed);
    if (family && !family.revokedAt && (claim.generation === family.generation || justReplaced(family)))
      return { status: "current", familyId: family.id, generation: family.generation };
  }
  return await atomically(deps.db, async (tx): Promise<Presented> => {
    const family = await claimedFamily(tx).get(claimed);
    if (!family || family.revokedAt) return { status: "refused" };
    if (justReplaced(family)) return { status: "current", familyId: family.id, generation: family.generation };
    if (claim.generation === family.generation) {
      if (!rotate) return { status: "current", familyId: family.id, generation: family.generation };
      // Only one of two presentations of the same token at once moves the family on (on PostgreSQL both may
      // have read it); the other finds the generation moved, and gets the successor as the token just replaced.
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
      const moved = await first(tx.select().from(refreshFamilies).where(eq(refreshFamilies.id, family.id)));
      if (moved && !moved.revokedAt && justReplaced(moved))
        return { status: "current", familyId: family.id, generation: moved.generation };
    }
    await tx
      .update(refreshFamilies)
      .set({ revokedAt: new Date(now) })
      .where(eq(refreshFamilies.id, family.id));
    return { status: "replayed" };
  });
}

/** When the session (refresh family) began: the password login that started it (epoch ms). */
export async function sessionStartedAt(deps: AppDeps, familyId: number): Promise<number | undefined> {
  const row = await first(
    deps.db
      .select({ createdAt: refreshFamilies.createdAt })
      .from(refreshFamilies)
      .where(eq(refreshFamilies.id, familyId)),
  );
  return row?.createdAt.getTime();
}

/** Ends every session of the user but `keep` (a password changed on that device). */
export async function revokeOtherFamilies(db: Db, userId: number, keep: number, now: number) {
  await db
    .update(refreshFamilies)
    .set({ revokedAt: new Date(now) })
    .where(and(eq(refreshFamilies.userId, userId), ne(refreshFamilies.id, keep), isNull(refreshFamilies.revokedAt)));
}

/** Ends one device's session: its refresh and access tokens stop working. */
export async function revokeFamily(deps: AppDeps, familyId: number) {
  await deps.db
    .update(refreshFamilies)
    .set({ revokedAt: new Date(deps.clock.now()) })
    .where(and(eq(refreshFamilies.id, familyId), isNull(refreshFamilies.revokedAt)));
}
