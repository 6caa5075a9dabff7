// @engine once
import { describe, expect, test } from "bun:test";
import { LocalEventBus } from "../src/events/bus";
import type { DomainEvent } from "../src/events/catalogue";
import { BunTopicHub, RecordingHub } from "../src/realtime/hub";
import { publishToBrowsers } from "../src/realtime/listener";
import { call, loginAs, makeTestApp, stubPayload } from "./helpers";

function silentLog() {
  const errors: unknown[] = [];
  return { errors, log: { error: (_: string, data?: unknown) => void errors.push(data) } };
}

describe("event bus", () => {
  test("every listener hears an event in subscription order, and one that throws does not stop the others", () => {
    const { errors, log } = silentLog();
    const bus = new LocalEventBus(log);
    const heard: string[] = [];
    bus.subscribe(() => heard.push("first"));
    bus.subscribe(() => {
      throw new Error("broken listener");
    });
    bus.subscribe((event) => heard.push(`third:${event.name}`));
    bus.emit("tag.deleted", { tagId: 7 });
    expect(heard).toEqual(["first", "third:tag.deleted"]);
    expect(errors).toHaveLength(1);
  });

  test("an unsubscribed listener hears nothing more", () => {
    const bus = new LocalEventBus(silentLog().log);
    const heard: DomainEvent[] = [];
    const stop = bus.subscribe((event) => heard.push(event));
    bus.emit("user.deleted", { userId: 1 });
    stop();
    bus.emit("user.deleted", { userId: 2 });
    expect(heard.map((e) => e.payload)).toEqual([{ userId: 1 }]);
  });
});

describe("realtime listener", () => {
  test("a ticket that moved is first dropped from the lists it was in, then shown where it is now", () => {
    const bus = new LocalEventBus(silentLog().log);
    const hub = new RecordingHub();
    publishToBrowsers(bus, hub);
    const ticket = { id: 5, status: "open", queueId: 2, userId: 9 } as never;
    bus.emit("ticket.updated", { ticket, before: { id: 5, status: "pending", queueId: 2, userId: null } });
    expect(hub.sent.slice(0, 2).map((s) => [s.room, s.payload.action])).toEqual([
      ["status:pending", "delete"],
      ["queue:2:status:pending", "delete"],
    ]);
    expect(hub.to("ticket:5", "ticket").map((s) => s.payload.action)).toEqual(["update"]);
    expect(hub.to("user:9", "ticket").map((s) => s.payload.action)).toEqual(["update"]);
  });

  test("administration events reach admins only, entity lists everyone", () => {
    const bus = new LocalEventBus(silentLog().log);
    const hub = new RecordingHub();
    publishToBrowsers(bus, hub);
    bus.emit("bulk.deleted", { id: 3 });
    bus.emit("tag.deleted", { tagId: 4 });
    expect(hub.sent.map((s) => [s.room, s.event])).toEqual([
      ["admins", "massMessage"],
      ["all", "tag"],
    ]);
  });

  test("a service change reaches the rooms through the bus: creating a tag is heard by everyone", async () => {
    const ctx = await makeTestApp();
    const heard: string[] = [];
    ctx.deps.events.subscribe((event) => heard.push(event.name));
    const admin = await loginAs(ctx, { profile: "admin" });
    const res = await call(ctx.app, "POST", "/api/tags", { token: admin.token, body: { name: "VIP", color: "#f00" } });
    expect(res.status).toBe(200);
    expect(heard).toContain("tag.created");
    expect(ctx.hub.to("all", "tag")[0]?.payload).toMatchObject({ action: "create", tag: { name: "VIP" } });
  });
});

describe("frame ids", () => {
  test("frames carry the node's id, so two processes publishing to the same browsers never repeat an id", () => {
    const ids: string[] = [];
    const server = { publish: (_topic: string, data: string) => ids.push(JSON.parse(data).id) };
    const a = new BunTopicHub("node-a");
    const b = new BunTopicHub("node-b");
    a.attach(server);
    b.attach(server);
    a.publish("all", "tag", stubPayload({}));
    b.publish("all", "tag", stubPayload({}));
    a.publish(["all", "admins"], "tag", stubPayload({}));
    expect(ids).toEqual(["node-a-1", "node-b-1", "node-a-2", "node-a-2"]);
  });
});
