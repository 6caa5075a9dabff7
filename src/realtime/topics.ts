import type { Room } from "./rooms";
import { indexAdd, indexDelete } from "./set-index";

/**
 * Bun topics for the /ws sockets, so that an event sent to several rooms reaches each socket once and Bun does
 * the fan-out natively. A room many sockets share (`all`, `admins`, the status and notification rooms) is not a
 * topic of its own: each socket is in exactly one topic for the set of shared rooms it is in (sockets with the
 * same set share it; there are about as many sets as queue memberships times followed lists), and an event is
 * published once to every set that holds one of its rooms. A personal room (`user:<id>`, `ticket:<id>`) reaches
 * its members through their own socket topic, unless their set already has the event.
 */
export class SharedRoomTopics {
  private readonly sets = new Map<string, RoomSet>();
  private readonly setsByRoom = new Map<Room, Set<RoomSet>>();
  private sequence = 0;
  private sockets = 0;

  /** A new socket's topics: it is subscribed to its own one now, to a set's once it follows its rooms. */
  forSocket(socket: TopicSubscriber): SocketTopics {
    return new SocketTopics(this, socket, `socket-${++this.sockets}`);
  }

  /** The topic of a set of shared rooms, counting one more socket in it. */
  join(rooms: readonly Room[]): string {
    const key = setKey(rooms);
    let set = this.sets.get(key);
    if (!set) {
      set = { key, topic: `rooms-${++this.sequence}`, rooms: [...rooms], sockets: 0 };
      this.sets.set(key, set);
      for (const room of rooms) indexAdd(this.setsByRoom, room, set);
    }
    set.sockets++;
    return set.topic;
  }

  /** One socket fewer in the set of `rooms`; the set goes with its last socket. */
  leave(rooms: readonly Room[]) {
    const set = this.sets.get(setKey(rooms));
    if (!set || --set.sockets > 0) return;
    this.sets.delete(set.key);
    for (const room of set.rooms) indexDelete(this.setsByRoom, room, set);
  }

  /** The topics of every set that holds one of `rooms`. */
  topicsOf(rooms: readonly Room[]): Set<string> {
    const topics = new Set<string>();
    for (const room of rooms) for (const set of this.setsByRoom.get(room) ?? []) topics.add(set.topic);
    return topics;
  }
}

export interface TopicSubscriber {
  subscribe(topic: string): unknown;
  unsubscribe(topic: string): unknown;
}

/** The Bun topics of one /ws socket: its own, and the one of the set of shared rooms it is in. */
export class SocketTopics {
  private shared?: { topic: string; rooms: Room[] };

  constructor(
    private readonly sets: SharedRoomTopics,
    private readonly socket: TopicSubscriber,
    readonly own: string,
  ) {
    socket.subscribe(own);
  }

  /** Moves the socket to the topic of the shared ones among `rooms` (all the rooms it is in now). */
  follow(rooms: Iterable<Room>) {
    const shared = [...rooms].filter((room) => !isPersonalRoom(room));
    const before = this.shared;
    if (before && before.rooms.length === shared.length && shared.every((room) => before.rooms.includes(room))) return;
    this.shared = { topic: this.sets.join(shared), rooms: shared };
    this.socket.subscribe(this.shared.topic);
    if (before) this.unsubscribe(before);
  }

  /** Whether a publish to `topics` reaches the socket through its shared rooms already. */
  hears(topics: Set<string>): boolean {
    return !!this.shared && topics.has(this.shared.topic);
  }

  /** Leaves every topic; `open` when the socket is still open (a closed one has left them already). */
  leave(open: boolean) {
    if (this.shared) this.unsubscribe(this.shared, open);
    this.shared = undefined;
    if (open) this.socket.unsubscribe(this.own);
  }

  private unsubscribe(set: { topic: string; rooms: Room[] }, open = true) {
    if (open) this.socket.unsubscribe(set.topic);
    this.sets.leave(set.rooms);
  }
}

interface RoomSet {
  key: string;
  topic: string;
  rooms: Room[];
  sockets: number;
}

/** Rooms one user's sockets have to themselves, or a handful of them: reached socket by socket. */
export function isPersonalRoom(room: Room): room is `user:${number}` | `ticket:${number}` {
  return room.startsWith("user:") || room.startsWith("ticket:");
}

const setKey = (rooms: readonly Room[]) => [...rooms].sort().join(" ");
