import type { EventName, Frame, ServerEvents } from "./events";
import type { Room } from "./rooms";

/**
 * Contract: the realtime listener (listener.ts) publishes frames to rooms through this interface; nothing else
 * touches sockets.
 * One call is one event: when it goes to several rooms, every frame carries the same `id` so a client
 * subscribed to more than one of them handles it once.
 */
export interface RealtimeHub {
  publish<E extends EventName>(rooms: Room | readonly Room[], event: E, payload: ServerEvents[E]): void;
  /** Hubs that reach sockets call `listener` on every publish before any socket gets the frame. */
  beforeFanOut?(listener: FanOutListener): void;
  /** Hubs that publish to Bun topics ask `router` which topics reach the sockets of a publish's rooms. */
  routeThrough?(router: TopicRouter): void;
}

/** Knows which Bun topics reach each socket of some rooms once (the socket registry, see topics.ts). */
export interface TopicRouter {
  topicsOf(rooms: readonly Room[]): Iterable<string>;
}

/** May answer a promise (an access check that reads the database): the frame then waits for it. */
export type FanOutListener = <E extends EventName>(
  rooms: readonly Room[],
  event: E,
  payload: ServerEvents[E],
) => void | Promise<void>;

/**
 * Runs the fan-out listeners in order, then `send`. Synchronous while every listener is; once one answers a
 * promise, the rest and the send wait for it, and so does every later publish (see `OrderedFanOut`), so frames
 * keep their order and no socket hears an event before the check it triggered has corrected its rooms.
 */
class OrderedFanOut {
  private backlog: Promise<void> | undefined;

  constructor(private readonly listeners: FanOutListener[]) {}

  publish<E extends EventName>(rooms: readonly Room[], event: E, payload: ServerEvents[E], send: () => void) {
    if (this.backlog) return this.enqueue(() => this.run(0, rooms, event, payload, send));
    const waiting = this.run(0, rooms, event, payload, send);
    if (waiting) this.enqueue(() => waiting);
  }

  private run<E extends EventName>(
    from: number,
    rooms: readonly Room[],
    event: E,
    payload: ServerEvents[E],
    send: () => void,
  ): Promise<void> | undefined {
    for (let i = from; i < this.listeners.length; i++) {
      const check = this.listeners[i]!(rooms, event, payload);
      if (check instanceof Promise)
        return check
          .catch(() => undefined)
          .then((): Promise<void> | undefined => this.run(i + 1, rooms, event, payload, send));
    }
    send();
    return undefined;
  }

  /** Resolves once every publish so far has reached the sockets. */
  settled(): Promise<void> {
    return this.backlog ?? Promise.resolve();
  }

  private enqueue(step: () => Promise<void> | undefined) {
    const next: Promise<void> = (this.backlog ?? Promise.resolve()).then(step).then(() => {
      if (this.backlog === next) this.backlog = undefined;
    });
    this.backlog = next;
  }
}

export type { Frame };

interface TopicServer {
  publish(topic: string, data: string): number;
}

/**
 * Production hub: Bun's native pub/sub does the fan-out (no loop over sockets in JS), the frame serialised once.
 * With a router, each socket gets one frame per event however many of its rooms the event goes to; without
 * one, every room is a topic.
 */
export class BunTopicHub implements RealtimeHub {
  private server?: TopicServer;
  private router?: TopicRouter;
  private listeners: FanOutListener[] = [];
  private readonly fanOut = new OrderedFanOut(this.listeners);
  private sequence = 0;

  /** `nodeId` prefixes frame ids; by default a random one per process. */
  constructor(private readonly nodeId: string = crypto.randomUUID().slice(0, 8)) {}

  /** Resolves once every publish so far has reached the sockets (some wait for access checks). */
  settled(): Promise<void> {
    return this.fanOut.settled();
  }

  attach(server: TopicServer) {
    this.server = server;
  }

  beforeFanOut(listener: FanOutListener) {
    this.listeners.push(listener);
  }

  routeThrough(router: TopicRouter) {
    this.router = router;
  }

  publish<E extends EventName>(rooms: Room | readonly Room[], event: E, payload: ServerEvents[E]) {
    if (!this.server) return;
    const server = this.server;
    const targets = [...new Set(typeof rooms === "string" ? [rooms] : rooms)];
    this.fanOut.publish(targets, event, payload, () => {
      // Serialised only once a topic wants it: many events reach no socket of this node.
      let frame: string | undefined;
      for (const topic of this.router?.topicsOf(targets) ?? targets)
        server.publish(
          topic,
          (frame ??= JSON.stringify({ id: `${this.nodeId}-${++this.sequence}`, event, payload } as Frame)),
        );
    });
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
  private readonly fanOut = new OrderedFanOut(this.listeners);

  beforeFanOut(listener: FanOutListener) {
    this.listeners.push(listener);
  }

  publish<E extends EventName>(rooms: Room | readonly Room[], event: E, payload: ServerEvents[E]) {
    const targets = [...new Set(typeof rooms === "string" ? [rooms] : rooms)];
    this.fanOut.publish(targets, event, payload, () => {
      for (const room of targets) this.sent.push({ room, event, payload });
    });
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
