import type { EventName, Frame } from "./events";
import type { Room } from "./rooms";

/**
 * Contract: the realtime listener (listener.ts) publishes frames to rooms through this interface; nothing else
 * touches sockets.
 * One call is one event: when it goes to several rooms, every frame carries the same `id` so a client
 * subscribed to more than one of them handles it once.
 */
export interface RealtimeHub {
  publish(rooms: Room | readonly Room[], event: EventName, payload: unknown): void;
  /** Hubs that reach sockets call `listener` on every publish before any socket gets the frame. */
  beforeFanOut?(listener: FanOutListener): void;
}

export type FanOutListener = (rooms: readonly Room[], event: EventName, payload: unknown) => void;

export type { Frame };

interface TopicServer {
  publish(topic: string, data: string): number;
}

/** Production hub: Bun's native pub/sub does the fan-out (no loop over sockets in JS). */
export class BunTopicHub implements RealtimeHub {
  private server?: TopicServer;
  private listeners: FanOutListener[] = [];
  private sequence = 0;

  /** `nodeId` prefixes frame ids; by default a random one per process. */
  constructor(private readonly nodeId: string = crypto.randomUUID().slice(0, 8)) {}

  attach(server: TopicServer) {
    this.server = server;
  }

  beforeFanOut(listener: FanOutListener) {
    this.listeners.push(listener);
  }

  publish(rooms: Room | readonly Room[], event: EventName, payload: unknown) {
    if (!this.server) return;
    const targets = [...new Set(typeof rooms === "string" ? [rooms] : rooms)];
    for (const listener of this.listeners) listener(targets, event, payload);
    const frame = JSON.stringify({ id: `${this.nodeId}-${++this.sequence}`, event, payload } satisfies Frame);
    for (const room of targets) this.server.publish(room, frame);
  }
}

export interface Recorded {
  room: Room;
  event: EventName;
  // biome-ignore lint/suspicious/noExplicitAny: assertions read whichever field of a recorded payload they check
  payload: any;
}

/** Test hub: records every (room, event, payload) for assertions. */
export class RecordingHub implements RealtimeHub {
  sent: Recorded[] = [];
  private listeners: FanOutListener[] = [];

  beforeFanOut(listener: FanOutListener) {
    this.listeners.push(listener);
  }

  publish(rooms: Room | readonly Room[], event: EventName, payload: unknown) {
    const targets = [...new Set(typeof rooms === "string" ? [rooms] : rooms)];
    for (const listener of this.listeners) listener(targets, event, payload);
    for (const room of targets) this.sent.push({ room, event, payload });
  }

  /** Events published to `room`, optionally only those named `event`. */
  to(room: Room, event?: EventName): Recorded[] {
    return this.sent.filter((s) => s.room === room && (!event || s.event === event));
  }

  named(event: EventName): Recorded[] {
    return this.sent.filter((s) => s.event === event);
  }

  clear() {
    this.sent = [];
  }
}
