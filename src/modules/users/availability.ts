import { and, eq, inArray, isNull, lte, ne, notInArray, or, type SQLWrapper, sql } from "drizzle-orm";
import { type Db, one } from "../../db/client";
import { preparedLook } from "../../db/prepared";
import { storedInstant, type UserRow, users } from "../../db/tables";
import type { AppDeps } from "../../deps";
import { forbidden, notFound } from "../../errors";
import type { AuthUser } from "../../shared/auth-user";
import type { Availability, UserDto } from "../../shared/contracts/users";
import { can } from "../../shared/permissions";
import { findUserById } from "./lookup";
import { toUserDto, toUserDtos } from "./service";

/** How long after a user's last socket closed, on every node, they become offline (unless they chose otherwise). */
export const OFFLINE_AFTER_MS = 2 * 60_000;
/** How often each node renews the sightings of its users and takes the silent ones offline; well under the above. */
export const AVAILABILITY_CHECK_EVERY_MS = 15_000;

/** The key in `deps.lanes` of this node's sightings: written one after another, as the sockets came and went. */
const SIGHTINGS = "users:sightings";

/** Resolves once the sightings of the sockets that came and went so far are written. */
export function sightingsSettled(deps: AppDeps): Promise<void> {
  return deps.lanes.settled(SIGHTINGS);
}

/**
 * PUT /users/:id/availability: one's own, or anyone's for an admin. `online` hands the availability back to the
 * sockets (online now; offline two minutes after the last one closed, online again on the next one); `away` and
 * `offline` stay until the user chooses again, whatever the sockets do.
 */
export async function chooseAvailability(
  deps: AppDeps,
  actor: AuthUser,
  id: number,
  availability: Availability,
): Promise<UserDto> {
  if (actor.id !== id && !can(actor.profile, "users:manage")) throw forbidden();
  const before = await findUserById(deps.db, id);
  if (!before) throw notFound("ERR_NO_USER_FOUND");
  const now = new Date(deps.clock.now());
  const row = await one(
    deps.db
      .update(users)
      .set({
        availability,
        availabilityChoice: availability,
        ...(availability !== before.availability ? { availabilityChangedAt: now } : {}),
        // Chosen without a socket open (another device, a script), it lasts the same two minutes as one just closed.
        ...(availability === "online" ? { lastSeenAt: now } : {}),
      })
      .where(eq(users.id, id))
      .returning(),
  );
  const user = await toUserDto(deps.db, row);
  if (row.availability !== before.availability)
    deps.events.emit("user.availabilityChanged", { user, before: before.availability });
  return user;
}

/**
 * Writes what this node's sockets say: a user's first socket here brings them back online (when their choice is
 * `online`); their last one closing here is the sighting their two minutes count from.
 */
export function followSockets(deps: AppDeps) {
  const record = (write: () => Promise<void>) =>
    void deps.lanes.run(SIGHTINGS, write).catch((error) => deps.log.warn("availability not recorded", { error }));
  deps.presence.listen({
    arrived: (userId) => {
      const now = deps.clock.now();
      record(() => cameBack(deps, [userId], now));
    },
    left: (userId) => {
      const now = deps.clock.now();
      record(() => markSeen(deps.db, [userId], now));
    },
  });
}

/**
 * The recurring check of this node (one job kind per node: each renews the sightings of its own sockets). On
 * start, everyone online by their sockets is given two minutes to reconnect: no node has their sockets yet.
 */
export async function scheduleAvailability(deps: AppDeps, everyMs = AVAILABILITY_CHECK_EVERY_MS) {
  const kind = deps.nodeId ? `availability:${deps.nodeId}` : "availability";
  deps.jobs.handle(kind, () => checkAvailability(deps), { hasWork: availabilityToCheck(deps) });
  await graceAfterStart(deps.db, deps.clock.now());
  await deps.jobs.every(kind, everyMs);
}

/**
 * One pass of this node: the users with a socket here are seen now (and online again if a node without their
 * socket took them offline meanwhile); then anyone online by their sockets whom no node has seen for two minutes
 * goes offline. Every node runs it; a user taken offline by two nodes at once is announced by one, as the update
 * that changed the row.
 */
export async function checkAvailability(deps: AppDeps) {
  const now = deps.clock.now();
  const here = deps.presence.users();
  if (here.length) await cameBack(deps, here, now);
  const silent = await deps.db
    .update(users)
    .set({ availability: "offline", availabilityChangedAt: new Date(now) })
    .where(
      and(
        followsSockets(),
        eq(users.availability, "online"),
        unseenSince(new Date(now - OFFLINE_AFTER_MS)),
        here.length ? notInArray(users.id, here) : undefined,
      ),
    )
    .returning();
  await announce(deps, silent, "online");
}

/**
 * Whether a pass of `checkAvailability` has anything to do: sockets here to renew, or someone online by their
 * sockets whom no node has seen for two minutes (one prepared query, see JobRunner's `hasWork`).
 */
function availabilityToCheck(deps: AppDeps) {
  const silentLook = anyoneSilent(deps.db);
  return async () =>
    deps.presence.users().length > 0 ||
    (await silentLook({ seenBy: storedInstant(deps.clock.now() - OFFLINE_AFTER_MS) })).length > 0;
}

const anyoneSilent = preparedLook((db) =>
  db
    .select({ id: users.id })
    .from(users)
    .where(and(followsSockets(), eq(users.availability, "online"), unseenSince(sql.placeholder("seenBy"))))
    .limit(1)
    .prepare(),
);

const unseenSince = (seenBy: Date | SQLWrapper) => or(isNull(users.lastSeenAt), lte(users.lastSeenAt, seenBy));

/** Users whose availability follows their sockets. */
const followsSockets = () => eq(users.availabilityChoice, "online");

async function cameBack(deps: AppDeps, ids: number[], now: number) {
  await markSeen(deps.db, ids, now);
  const back = await deps.db
    .update(users)
    .set({ availability: "online", availabilityChangedAt: new Date(now) })
    .where(and(inArray(users.id, ids), followsSockets(), ne(users.availability, "online")))
    .returning();
  await announce(deps, back, "offline");
}

async function markSeen(db: Db, ids: number[], now: number) {
  await db
    .update(users)
    .set({ lastSeenAt: new Date(now) })
    .where(inArray(users.id, ids));
}

async function graceAfterStart(db: Db, now: number) {
  await db
    .update(users)
    .set({ lastSeenAt: new Date(now) })
    .where(and(followsSockets(), eq(users.availability, "online"), unseenSince(new Date(now))));
}

async function announce(deps: AppDeps, rows: UserRow[], before: Availability) {
  for (const user of await toUserDtos(deps.db, rows)) deps.events.emit("user.availabilityChanged", { user, before });
}
