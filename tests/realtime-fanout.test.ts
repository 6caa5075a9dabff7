import { afterEach, describe, expect, spyOn, test } from "bun:test";
import { BunTopicHub } from "../src/realtime/hub";
import type { Room } from "../src/realtime/rooms";
import { stubPayload } from "./helpers";

/** Bun's topic server as the hub sees it: every subscribed socket of a topic gets the published data. */
class FakeTopicServer {
  readonly delivered = new Map<string, unknown[]>();
  private readonly topics = new Map<string, string[]>();

  subscribe(socket: string, topic: string) {
    this.topics.set(topic, [...(this.topics.get(topic) ?? []), socket]);
  }

  publish(topic: string, data: string) {
    const sockets = this.topics.get(topic) ?? [];
    for (const socket of sockets) this.delivered.set(socket, [...(this.delivered.get(socket) ?? []), data]);
    return sockets.length;
  }
}

describe("realtime fan-out", () => {
  let stringify: ReturnType<typeof spyOn> | undefined;
  afterEach(() => stringify?.mockRestore());

  test("an event is serialised once, whatever the number of rooms and sockets, and every socket gets the same frame", () => {
    const server = new FakeTopicServer();
    const rooms: Room[] = ["ticket:7", "status:pending", "queue:none:status:pending", "notification"];
    for (let i = 0; i < 500; i++) server.subscribe(`socket-${i}`, rooms[i % rooms.length]!);
    const hub = new BunTopicHub("node");
    hub.attach(server);
    stringify = spyOn(JSON, "stringify");

    hub.publish(rooms, "appMessage", stubPayload({ action: "create", message: { id: 1, body: "hello" } }));

    expect(stringify).toHaveBeenCalledTimes(1);
    const frames = [...server.delivered.values()].flat();
    expect(frames).toHaveLength(500);
    expect(new Set(frames).size).toBe(1);
    expect(JSON.parse(frames[0] as string)).toEqual({
      id: "node-1",
      event: "appMessage",
      payload: { action: "create", message: { id: 1, body: "hello" } },
    });
  });

  test("an event whose rooms reach no socket of this node is not serialised", () => {
    const hub = new BunTopicHub("node");
    hub.attach(new FakeTopicServer());
    hub.routeThrough({ topicsOf: () => [] });
    stringify = spyOn(JSON, "stringify");

    hub.publish(["ticket:7", "notification"], "appMessage", stubPayload({ action: "create", message: { id: 1 } }));

    expect(stringify).not.toHaveBeenCalled();
  });
});
