// @engine each
import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { io } from "socket.io-client";
import { first } from "../src/db/client";
import { users } from "../src/db/tables";
import type { AppDeps } from "../src/deps";
import { JobRunner } from "../src/jobs/runner";
import {
  AVAILABILITY_CHECK_EVERY_MS,
  checkAvailability,
  followSockets,
  scheduleAvailability,
  sightingsSettled,
} from "../src/modules/users/availability";
import { BunTopicHub, type RealtimeHub } from "../src/realtime/hub";
import { SocketPresence } from "../src/realtime/presence";
import { KeyedLanes } from "../src/shared/lanes";
import {
  BASE,
  call,
  createUser,
  islandProps,
  loginAs,
  makeTestApp,
  setupAdminAndAgent,
  type TestContext,
} from "./helpers";
import { waitFor } from "./wait-for";
import { TestSocket } from "./ws-client";

const MINUTE = 60_000;

async function availabilityOf(ctx: Pick<TestContext, "db">, id: number) {
  return (await first(ctx.db.select({ a: users.availability }).from(users).where(eq(users.id, id))))?.a;
}

/** The `user` frames everyone heard about `id`, as the availability each announced. */
function announced(ctx: TestContext, id: number): string[] {
  return ctx.hub
    .to("all", "user")
    .map((f) => f.payload as { user?: { id: number; availability: string } })
    .filter((p) => p.user?.id === id)
    .map((p) => p.user!.availability);
}

/** Lets `ms` pass on the shared clock, each node running its due checks as its job runner would. */
async function elapse(
  ctx: Pick<TestContext<RealtimeHub>, "clock" | "deps">,
  ms: number,
  nodes: Pick<AppDeps, "jobs">[] = [ctx.deps],
) {
  for (let left = ms; left > 0; left -= AVAILABILITY_CHECK_EVERY_MS) {
    ctx.clock.advance(Math.min(left, AVAILABILITY_CHECK_EVERY_MS));
    for (const node of nodes) await node.jobs.tick();
  }
}

/** A socket of the user opening (`+1`) or closing (`-1`) on a node, as its socket registry reports it. */
async function socket(node: AppDeps, userId: number, change: 1 | -1) {
  if (change === 1) node.presence.opened(userId);
  else node.presence.closed(userId);
  await sightingsSettled(node);
}

describe("PUT /users/:id/availability", () => {
  test("an agent chooses their own availability: the answer, the users list, the login answer and a `user` event to everyone carry it", async () => {
    const { ctx, agent } = await setupAdminAndAgent();
    const res = await call(ctx.app, "PUT", `/api/users/${agent.user.id}/availability`, {
      token: agent.token,
      body: { availability: "away" },
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ id: agent.user.id, availability: "away" });
    expect(Date.parse(res.json.availabilityChangedAt)).toBe(ctx.clock.now());
    expect(announced(ctx, agent.user.id)).toEqual(["away"]);
    const list = await call(ctx.app, "GET", "/api/users", { token: agent.token });
    expect(list.json.users.find((u: { id: number }) => u.id === agent.user.id).availability).toBe("away");
    const login = await call(ctx.app, "POST", "/api/auth/login", {
      body: { email: agent.user.email, password: agent.user.password },
      headers: { "x-forwarded-for": "10.1.2.3" },
    });
    expect(login.json.user.availability).toBe("away");
  });

  test("an agent may not choose another user's availability; an admin may choose anyone's", async () => {
    const { ctx, admin, agent } = await setupAdminAndAgent();
    const other = await createUser(ctx);
    const put = (token: string, id: number) =>
      call(ctx.app, "PUT", `/api/users/${id}/availability`, { token, body: { availability: "offline" } });
    expect(await put(agent.token, other.id)).toMatchObject({ status: 403, json: { error: "ERR_NO_PERMISSION" } });
    expect(await availabilityOf(ctx, other.id)).toBe("offline");
    expect(announced(ctx, other.id)).toEqual([]);
    await call(ctx.app, "PUT", `/api/users/${agent.user.id}/availability`, {
      token: admin.token,
      body: { availability: "online" },
    });
    expect(await availabilityOf(ctx, agent.user.id)).toBe("online");
    expect((await put(admin.token, agent.user.id)).json.availability).toBe("offline");
    expect(await put(admin.token, 999_999)).toMatchObject({ status: 404, json: { error: "ERR_NO_USER_FOUND" } });
  });

  test("a value other than online, away or offline, or none, is refused as 400 VALIDATION naming the field", async () => {
    const { ctx, agent } = await setupAdminAndAgent();
    const put = (body: unknown) =>
      call(ctx.app, "PUT", `/api/users/${agent.user.id}/availability`, { token: agent.token, body });
    expect(await put({ availability: "busy" })).toMatchObject({
      status: 400,
      json: { error: "VALIDATION", field: "availability", rule: "invalid" },
    });
    expect(await put({})).toMatchObject({
      status: 400,
      json: { error: "VALIDATION", field: "availability", rule: "required" },
    });
    expect((await call(ctx.app, "PUT", `/api/users/${agent.user.id}/availability`, { body: {} })).status).toBe(401);
  });
});

describe("the header", () => {
  test("the user menu shows one's availability as it is once the page's socket is open", async () => {
    const ctx = await makeTestApp();
    const { user, token, cookie } = await loginAs(ctx);
    const menu = async () => {
      const res = await ctx.app.handle(new Request(`${BASE}/`, { headers: { cookie } }));
      return islandProps(await res.text(), "UserMenu");
    };
    expect(await availabilityOf(ctx, user.id)).toBe("offline");
    expect(await menu()).toMatchObject({ userId: user.id, availability: "online" });
    await call(ctx.app, "PUT", `/api/users/${user.id}/availability`, { token, body: { availability: "away" } });
    expect((await menu()).availability).toBe("away");
  });
});

describe("availability follows the user's sockets", () => {
  test("the first socket brings a user online; two minutes after the last one closed they are offline, not before", async () => {
    const ctx = await makeTestApp();
    await scheduleAvailability(ctx.deps);
    const { id } = await createUser(ctx);
    await socket(ctx.deps, id, 1);
    expect(await availabilityOf(ctx, id)).toBe("online");
    await elapse(ctx, 10 * MINUTE);
    expect(await availabilityOf(ctx, id)).toBe("online");
    await socket(ctx.deps, id, -1);
    await elapse(ctx, 2 * MINUTE - 1);
    await checkAvailability(ctx.deps);
    expect(await availabilityOf(ctx, id)).toBe("online");
    await elapse(ctx, AVAILABILITY_CHECK_EVERY_MS);
    expect(await availabilityOf(ctx, id)).toBe("offline");
    expect(announced(ctx, id)).toEqual(["online", "offline"]);
  });

  test("while another socket of theirs is open the user stays online", async () => {
    const ctx = await makeTestApp();
    await scheduleAvailability(ctx.deps);
    const { id } = await createUser(ctx);
    await socket(ctx.deps, id, 1);
    await socket(ctx.deps, id, 1);
    await socket(ctx.deps, id, -1);
    await elapse(ctx, 5 * MINUTE);
    expect(await availabilityOf(ctx, id)).toBe("online");
    expect(announced(ctx, id)).toEqual(["online"]);
  });

  test("a socket back within two minutes keeps the user online without a word; after going offline, a socket brings them back", async () => {
    const ctx = await makeTestApp();
    await scheduleAvailability(ctx.deps);
    const { id } = await createUser(ctx);
    await socket(ctx.deps, id, 1);
    await socket(ctx.deps, id, -1);
    await elapse(ctx, MINUTE);
    await socket(ctx.deps, id, 1);
    await socket(ctx.deps, id, -1);
    await elapse(ctx, 90_000);
    expect(await availabilityOf(ctx, id)).toBe("online");
    expect(announced(ctx, id)).toEqual(["online"]);
    await elapse(ctx, MINUTE);
    expect(await availabilityOf(ctx, id)).toBe("offline");
    await socket(ctx.deps, id, 1);
    expect(await availabilityOf(ctx, id)).toBe("online");
    expect(announced(ctx, id)).toEqual(["online", "offline", "online"]);
  });

  test("a chosen away stays away with or without sockets, a chosen offline stays offline when a socket opens, and choosing online hands it back to the sockets", async () => {
    const ctx = await makeTestApp();
    await scheduleAvailability(ctx.deps);
    const { user, token } = await loginAs(ctx);
    const choose = (availability: string) =>
      call(ctx.app, "PUT", `/api/users/${user.id}/availability`, { token, body: { availability } });
    await socket(ctx.deps, user.id, 1);
    await choose("away");
    await socket(ctx.deps, user.id, -1);
    await elapse(ctx, 5 * MINUTE);
    expect(await availabilityOf(ctx, user.id)).toBe("away");
    await socket(ctx.deps, user.id, 1);
    expect(await availabilityOf(ctx, user.id)).toBe("away");
    await choose("offline");
    await socket(ctx.deps, user.id, -1);
    await socket(ctx.deps, user.id, 1);
    await elapse(ctx, MINUTE);
    expect(await availabilityOf(ctx, user.id)).toBe("offline");
    await choose("online");
    await socket(ctx.deps, user.id, -1);
    await elapse(ctx, 2 * MINUTE);
    expect(await availabilityOf(ctx, user.id)).toBe("offline");
    expect(announced(ctx, user.id)).toEqual(["online", "away", "offline", "online", "offline"]);
  });

  test("online chosen with no socket open lasts two minutes", async () => {
    const { ctx, agent } = await setupAdminAndAgent();
    await scheduleAvailability(ctx.deps);
    await call(ctx.app, "PUT", `/api/users/${agent.user.id}/availability`, {
      token: agent.token,
      body: { availability: "online" },
    });
    await elapse(ctx, 2 * MINUTE - 1);
    await checkAvailability(ctx.deps);
    expect(await availabilityOf(ctx, agent.user.id)).toBe("online");
    await elapse(ctx, AVAILABILITY_CHECK_EVERY_MS);
    expect(await availabilityOf(ctx, agent.user.id)).toBe("offline");
  });

  test("after a restart, users online by their sockets have two minutes from the start to come back", async () => {
    const dir = mkdtempSync(join(tmpdir(), "zapdesk-availability-"));
    const paths = { dataDir: dir, databasePath: join(dir, "zapdesk.sqlite"), mediaDir: join(dir, "media") };
    const before = await makeTestApp(paths);
    const { id: returning } = await createUser(before);
    const { id: gone } = await createUser(before);
    await socket(before.deps, returning, 1);
    await socket(before.deps, gone, 1);

    // The server stopped with both sockets open, and starts again ten minutes later.
    const after = await makeTestApp(paths);
    await after.db
      .update(users)
      .set({ lastSeenAt: new Date(after.clock.now() - 10 * MINUTE) })
      .where(eq(users.availability, "online"));
    await scheduleAvailability(after.deps);
    await elapse(after, MINUTE);
    await socket(after.deps, returning, 1);
    await elapse(after, MINUTE - 1);
    await checkAvailability(after.deps);
    expect(await availabilityOf(after, gone)).toBe("online");
    await elapse(after, AVAILABILITY_CHECK_EVERY_MS);
    expect(await availabilityOf(after, gone)).toBe("offline");
    expect(await availabilityOf(after, returning)).toBe("online");
  });
});

describe("several nodes on one database", () => {
  /** A second node: the same database, bus and clock; its own sockets, lanes and job runner. */
  async function secondNode(ctx: TestContext): Promise<AppDeps> {
    const node: AppDeps = {
      ...ctx.deps,
      presence: new SocketPresence(),
      lanes: new KeyedLanes<string>(),
      jobs: new JobRunner({ db: ctx.db, clock: ctx.clock, log: ctx.deps.log }),
      nodeId: "b",
    };
    followSockets(node);
    await scheduleAvailability(node);
    return node;
  }

  test("a socket open on either node keeps the user online, and a node that stops vouching for its sockets lets them go offline", async () => {
    const ctx = await makeTestApp();
    await scheduleAvailability(ctx.deps);
    const b = await secondNode(ctx);
    const nodes = [ctx.deps, b];
    const { id } = await createUser(ctx);
    await socket(ctx.deps, id, 1);
    await socket(b, id, 1);
    await socket(ctx.deps, id, -1);
    await elapse(ctx, 10 * MINUTE, nodes);
    expect(await availabilityOf(ctx, id)).toBe("online");
    await socket(b, id, -1);
    await elapse(ctx, 2 * MINUTE - 1, nodes);
    for (const node of nodes) await checkAvailability(node);
    expect(await availabilityOf(ctx, id)).toBe("online");
    await elapse(ctx, AVAILABILITY_CHECK_EVERY_MS, nodes);
    expect(await availabilityOf(ctx, id)).toBe("offline");
    expect(announced(ctx, id)).toEqual(["online", "offline"]);

    // Node b dies with the user's socket open: its sightings stop, and node a takes the user offline.
    await socket(b, id, 1);
    expect(await availabilityOf(ctx, id)).toBe("online");
    await elapse(ctx, 2 * MINUTE - 1, [ctx.deps]);
    expect(await availabilityOf(ctx, id)).toBe("online");
    await elapse(ctx, AVAILABILITY_CHECK_EVERY_MS, [ctx.deps]);
    expect(await availabilityOf(ctx, id)).toBe("offline");
  });

  test("two nodes checking at once announce a silent user's going offline once", async () => {
    const ctx = await makeTestApp();
    const b = await secondNode(ctx);
    const { id } = await createUser(ctx);
    await socket(b, id, 1);
    await socket(b, id, -1);
    ctx.clock.advance(2 * MINUTE);
    await Promise.all([checkAvailability(ctx.deps), checkAvailability(b)]);
    expect(await availabilityOf(ctx, id)).toBe("offline");
    expect(announced(ctx, id)).toEqual(["online", "offline"]);
  });

  test("a node that took a user offline while another node's sightings were late is overruled by that node's next check", async () => {
    const ctx = await makeTestApp();
    await scheduleAvailability(ctx.deps);
    const b = await secondNode(ctx);
    const { id } = await createUser(ctx);
    await socket(b, id, 1);
    await elapse(ctx, 3 * MINUTE, [ctx.deps]);
    expect(await availabilityOf(ctx, id)).toBe("offline");
    await elapse(ctx, AVAILABILITY_CHECK_EVERY_MS, [ctx.deps, b]);
    expect(await availabilityOf(ctx, id)).toBe("online");
  });
});

describe("real sockets", () => {
  test("a /ws socket and a Socket.IO socket of the user count, and the last to close starts the two minutes", async () => {
    const hub = new BunTopicHub();
    const ctx = await makeTestApp({}, { hub });
    const server = ctx.app.listen({ port: 0, hostname: "127.0.0.1" });
    hub.attach(server.server!);
    try {
      await scheduleAvailability(ctx.deps);
      const { user, token } = await loginAs(ctx);
      const ws = await TestSocket.open(`ws://127.0.0.1:${server.server!.port}/ws?token=${token}`);
      await ws.next("ready");
      await sightingsSettled(ctx.deps);
      expect(await availabilityOf(ctx, user.id)).toBe("online");
      const family = io(`http://127.0.0.1:${server.server!.port}`, {
        transports: ["websocket"],
        query: { token },
        reconnection: false,
        forceNew: true,
      });
      await new Promise((resolve) => family.once("ready", resolve));
      ws.close();
      await ws.closed;
      await elapse(ctx, 5 * MINUTE);
      expect(await availabilityOf(ctx, user.id)).toBe("online");
      family.disconnect();
      await waitFor(() => !ctx.deps.presence.users().includes(user.id));
      await sightingsSettled(ctx.deps);
      await elapse(ctx, 2 * MINUTE);
      expect(await availabilityOf(ctx, user.id)).toBe("offline");
    } finally {
      await server.stop(true);
    }
  });
});
