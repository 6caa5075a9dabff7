import type { Clock } from "../shared/clock";
import type { Logger } from "../log";
import type { AuthUser } from "../shared/auth-user";
import { isAdmin } from "../shared/permissions";
import { parseClientMessage } from "./client-messages";
import type { ClientMessage, EventName, ServerEvent, ServerEvents } from "./events";
import {
  CLOSE,
  DROPPED_FRAME_ALLOWANCE,
  DROPPED_FRAMES_FORGIVEN_PER_SECOND,
  FRAME_BURST,
  FRAMES_PER_SECOND,
  LOG_LINES_BURST,
  LOG_LINES_PER_SECOND,
  SWEEP_INTERVAL_MS,
} from "./limits";
import { listRooms, type Room, type TicketStatus } from "./rooms";
import { KeyedLanes } from "../shared/lanes";
import type { SocketPresence } from "./presence";
import { indexAdd, indexDelete } from "./set-index";
import { isPersonalRoom, SharedRoomTopics, type SocketTopics } from "./topics";
import { TokenBucket } from "../shared/token-bucket";

/** The part of Bun's ServerWebSocket the registry drives. */
export interface RawSocket {
  send(data: string): unknown;
  subscribe(room: string): unknown;
  unsubscribe(room: string): unknown;
  close(code?: number, reason?: string): unknown;
}

/** Who a socket speaks for, and until when (epoch ms, the access token's expiry). */
export interface SocketSession {
  user: AuthUser;
  expiresAt: number;
}

/** What the registry asks of the rest of the app (auth/socket-access.ts); realtime stays free of modules. */
export interface AccessChecks {
  /** The socket's user as stored now, or undefined once deleted or once this session was revoked. */
  reloadUser(user: AuthUser): Promise<AuthUser | undefined>;
  /** True when the ticket exists and the user may see it. */
  maySeeTicket(user: AuthUser, ticketId: number): Promise<boolean>;
  /** The same check for many users with one look at the ticket (everyone is refused once it is gone). */
  ticketVisibility(ticketId: number): Promise<(user: AuthUser) => boolean>;
  /** The session behind an access token; throws when the token is missing or not valid now. */
  verifyToken(token: string | undefined): Promise<SocketSession>;
}

/**
 * How a socket hears about tickets and messages. `own` (Zapdesk's pages, over /ws): also through its user's
 * own room, where the tickets assigned to them go. `family` (the whaticket family's clients, over Socket.IO):
 * only through the rooms it joined, because their chat view adds to the open chat every message it hears.
 */
export type RoomModel = "own" | "family";

interface Entry {
  socket: RawSocket;
  model: RoomModel;
  user: AuthUser;
  expiresAt: number;
  /** Rooms the socket is subscribed to right now. */
  rooms: Set<Room>;
  /** The Bun topics of an `own` socket (see topics.ts); family sockets join Socket.IO rooms one by one. */
  topics?: SocketTopics;
  /** What the client asked to follow; the rooms are derived from it and the user's current access. */
  wants: { notification: boolean; statuses: Set<TicketStatus>; chats: Set<number> };
  frames: TokenBucket;
  dropAllowance: TokenBucket;
  logLines: TokenBucket;
  suppressedLogs: number;
  closed: boolean;
}

/**
 * Every open socket with its user, token expiry and rooms. It subscribes sockets only to rooms their user may
 * see, and re-checks that before an event fans out (see `beforeFanOut`): a session that ended or expired
 * closes its sockets, and a user who lost access to a queue or a ticket leaves its rooms first.
 */
export class SocketRegistry {
  private readonly entries = new Map<RawSocket, Entry>();
  private readonly byUser = new Map<number, Set<Entry>>();
  private readonly members = new Map<Room, Set<Entry>>();
  private readonly sharedTopics = new SharedRoomTopics();
  /** A socket's frames are handled one after another, also across the asynchronous token renewal. */
  private readonly frameOrder = new KeyedLanes<Entry>();
  private nextExpiry = Infinity;
  private sweepTimer: ReturnType<typeof setInterval> | null = null;

  constructor(private readonly deps: { clock: Clock; log: Logger; checks: AccessChecks; presence?: SocketPresence }) {}

  /** A socket opened: it joins its always-on rooms and hears `ready`. */
  add(socket: RawSocket, session: SocketSession, model: RoomModel = "own") {
    const now = () => this.deps.clock.now();
    const entry: Entry = {
      socket,
      model,
      user: session.user,
      expiresAt: session.expiresAt,
      rooms: new Set(),
      topics: model === "own" ? this.sharedTopics.forSocket(socket) : undefined,
      wants: { notification: false, statuses: new Set(), chats: new Set() },
      frames: new TokenBucket(FRAME_BURST, FRAMES_PER_SECOND, now),
      dropAllowance: new TokenBucket(DROPPED_FRAME_ALLOWANCE, DROPPED_FRAMES_FORGIVEN_PER_SECOND, now),
      logLines: new TokenBucket(LOG_LINES_BURST, LOG_LINES_PER_SECOND, now),
      suppressedLogs: 0,
      closed: false,
    };
    this.entries.set(socket, entry);
    indexAdd(this.byUser, entry.user.id, entry);
    this.deps.presence?.opened(entry.user.id);
    this.nextExpiry = Math.min(this.nextExpiry, entry.expiresAt);
    this.applyRooms(entry);
    this.send(entry, "ready", { userId: entry.user.id, expiresIn: this.expiresIn(entry) });
    this.sweepTimer ??= unref(setInterval(() => this.sweep(), SWEEP_INTERVAL_MS));
  }

  /** The socket closed (from either side). */
  remove(socket: RawSocket) {
    const entry = this.entries.get(socket);
    if (entry) this.forget(entry);
  }

  /** One client frame, as the framework parsed it; never throws. */
  receive(socket: RawSocket, frame: unknown) {
    const entry = this.entries.get(socket);
    if (!entry || entry.closed) return;
    try {
      if (this.deps.clock.now() >= entry.expiresAt) return this.end(entry, CLOSE.sessionEnded, "session expired");
      if (!entry.frames.take()) return this.overLimit(entry);
      const msg = parseClientMessage(frame);
      if (!msg) return this.note(entry, "ignored an invalid socket frame");
      void this.frameOrder.run(entry, () => this.handle(entry, msg).catch((error) => this.failed(entry, error)));
    } catch (error) {
      this.failed(entry, error);
    }
  }

  /**
   * Runs on every publish before the frame reaches any socket, so an access change takes effect before the
   * event that announces it: expired sessions close, `user` events reload that user (closing its sockets when
   * deleted or its sessions were revoked, re-deriving its rooms otherwise), a deleted queue re-derives
   * everyone's rooms, and the sockets in a `ticket:<id>` room that may no longer see that ticket leave it.
   */
  beforeFanOut<E extends EventName>(
    rooms: readonly Room[],
    event: E,
    payload: ServerEvents[E],
  ): Promise<void> | undefined {
    if (this.entries.size === 0) return;
    if (this.deps.clock.now() >= this.nextExpiry) this.sweep();
    const published = { event, payload } as ServerEvent;
    const checks: (Promise<void> | undefined)[] = [];
    if (published.event === "user") checks.push(...this.recheckUser(userIdOf(published.payload)));
    if (published.event === "queue" && published.payload.action === "delete")
      for (const id of [...this.byUser.keys()]) checks.push(...this.recheckUser(id));
    // A deleted ticket has nothing left to hide, and its chat must still hear that it is gone.
    if (!(published.event === "ticket" && published.payload.action === "delete"))
      for (const room of rooms) {
        const ticketId = room.startsWith("ticket:") ? Number(room.slice("ticket:".length)) : NaN;
        if (Number.isInteger(ticketId)) checks.push(this.recheckTicket(ticketId));
      }
    const pending = checks.filter((check) => check !== undefined);
    return pending.length ? Promise.all(pending).then(() => undefined) : undefined;
  }

  /**
   * The Bun topics that reach every `own` socket in any of `rooms` exactly once: the shared-room sets holding
   * one of them, and the own topic of each member of a personal room whose set is not among those.
   */
  topicsOf(rooms: readonly Room[]): Set<string> {
    const topics = this.sharedTopics.topicsOf(rooms);
    for (const room of rooms) {
      if (!isPersonalRoom(room)) continue;
      for (const { topics: socket } of this.members.get(room) ?? [])
        if (socket && !socket.hears(topics)) topics.add(socket.own);
    }
    return topics;
  }

  /** Closes the sockets whose access token expired without being renewed. */
  sweep() {
    const now = this.deps.clock.now();
    let next = Infinity;
    for (const entry of [...this.entries.values()]) {
      if (entry.expiresAt <= now) this.end(entry, CLOSE.sessionEnded, "session expired");
      else next = Math.min(next, entry.expiresAt);
    }
    this.nextExpiry = next;
  }

  get size() {
    return this.entries.size;
  }

  private async handle(entry: Entry, msg: ClientMessage) {
    if (entry.closed) return;
    const { wants } = entry;
    switch (msg.type) {
      case "ping":
        return this.send(entry, "pong", null);
      case "joinNotification":
        wants.notification = true;
        return await this.syncRooms(entry);
      case "leaveNotification":
        wants.notification = false;
        return await this.syncRooms(entry);
      case "joinTickets":
        wants.statuses.add(msg.status);
        return await this.syncRooms(entry);
      case "leaveTickets":
        wants.statuses.delete(msg.status);
        return await this.syncRooms(entry);
      case "joinChatBox":
        if (!(await this.deps.checks.maySeeTicket(entry.user, msg.ticketId)))
          return this.note(entry, "refused joinChatBox", { ticketId: msg.ticketId });
        wants.chats.add(msg.ticketId);
        return await this.syncRooms(entry);
      case "leaveChatBox":
        wants.chats.delete(msg.ticketId);
        return await this.syncRooms(entry);
      case "joinCompany":
        return;
      case "token":
        return this.renew(entry, msg.token);
    }
  }

  /** `{type:"token"}`: a fresh access token of the same user extends the socket's life. */
  private async renew(entry: Entry, token: string) {
    let session: SocketSession;
    try {
      session = await this.deps.checks.verifyToken(token);
    } catch {
      return this.end(entry, CLOSE.sessionEnded, "session expired");
    }
    if (entry.closed) return;
    if (session.user.id !== entry.user.id) return this.end(entry, CLOSE.sessionEnded, "another user's token");
    entry.user = session.user;
    entry.expiresAt = session.expiresAt;
    await this.syncRooms(entry, { recheckChats: true });
    this.send(entry, "token", { expiresIn: this.expiresIn(entry) });
  }

  private recheckUser(userId: number | undefined): (Promise<void> | undefined)[] {
    const entries = userId === undefined ? undefined : this.byUser.get(userId);
    if (!entries) return [];
    return [...entries].map((entry) =>
      this.guard(entry, async () => {
        const fresh = await this.deps.checks.reloadUser(entry.user);
        if (!fresh) return this.end(entry, CLOSE.sessionEnded, "session ended");
        entry.user = fresh;
        await this.syncRooms(entry, { recheckChats: true });
      }),
    );
  }

  /** One look at the ticket for the whole room; only the sockets refused leave it. */
  private recheckTicket(ticketId: number): Promise<void> | undefined {
    const inRoom = this.members.get(`ticket:${ticketId}`);
    if (!inRoom) return undefined;
    const leave = (entry: Entry) =>
      this.guard(entry, async () => {
        entry.wants.chats.delete(ticketId);
        await this.syncRooms(entry);
      });
    return this.deps.checks.ticketVisibility(ticketId).then(
      async (visible) => void (await Promise.all([...inRoom].filter((e) => !this.mayStillSee(e, visible)).map(leave))),
      (error) => {
        for (const entry of [...inRoom]) this.failed(entry, error);
      },
    );
  }

  /** Subscribes the socket to exactly the rooms its user may see among those it asked for. */
  private async syncRooms(entry: Entry, opts: { recheckChats?: boolean } = {}) {
    const { user, wants } = entry;
    if (opts.recheckChats)
      for (const id of [...wants.chats]) if (!(await this.deps.checks.maySeeTicket(user, id))) wants.chats.delete(id);
    this.applyRooms(entry);
  }

  private applyRooms(entry: Entry) {
    if (entry.closed) return;
    const { user, wants } = entry;
    const desired = new Set<Room>(["all"]);
    if (entry.model === "own") desired.add(`user:${user.id}`);
    if (isAdmin(user.profile)) desired.add("admins");
    if (wants.notification) for (const room of listRooms(user, "notification")) desired.add(room);
    for (const status of wants.statuses) for (const room of listRooms(user, status)) desired.add(room);
    for (const id of wants.chats) desired.add(`ticket:${id}`);
    for (const room of [...entry.rooms]) if (!desired.has(room)) this.leave(entry, room);
    for (const room of desired) if (!entry.rooms.has(room)) this.join(entry, room);
    entry.topics?.follow(desired);
  }

  private join(entry: Entry, room: Room) {
    if (!entry.topics) entry.socket.subscribe(room);
    entry.rooms.add(room);
    indexAdd(this.members, room, entry);
  }

  private leave(entry: Entry, room: Room) {
    if (!entry.topics) entry.socket.unsubscribe(room);
    entry.rooms.delete(room);
    indexDelete(this.members, room, entry);
  }

  private overLimit(entry: Entry) {
    if (entry.dropAllowance.take()) return this.note(entry, "dropped a socket frame over the rate limit");
    this.deps.log.warn("closed a socket that kept flooding", { userId: entry.user.id });
    this.end(entry, CLOSE.policyViolation, "too many messages");
  }

  /** Closes the socket after leaving every room, so nothing published from now on reaches it. */
  private end(entry: Entry, code: number, reason: string) {
    if (entry.closed) return;
    for (const room of [...entry.rooms]) this.leave(entry, room);
    entry.topics?.leave(true);
    this.forget(entry);
    try {
      entry.socket.close(code, reason);
    } catch {
      // Already closing: nothing more to do.
    }
  }

  private forget(entry: Entry) {
    entry.closed = true;
    this.entries.delete(entry.socket);
    indexDelete(this.byUser, entry.user.id, entry);
    this.deps.presence?.closed(entry.user.id);
    for (const room of entry.rooms) indexDelete(this.members, room, entry);
    entry.topics?.leave(false);
    if (this.entries.size === 0 && this.sweepTimer) {
      clearInterval(this.sweepTimer);
      this.sweepTimer = null;
    }
  }

  /** Whether the socket's user still passes `visible`; a check that throws closes the socket. */
  private mayStillSee(entry: Entry, visible: (user: AuthUser) => boolean): boolean {
    try {
      return visible(entry.user);
    } catch (error) {
      this.failed(entry, error);
      return true;
    }
  }

  /** A failed access check closes that socket rather than risk sending it what it may not see. */
  private guard(entry: Entry, check: () => void | Promise<void>): Promise<void> | undefined {
    try {
      const done = check();
      if (done instanceof Promise) return done.catch((error) => this.failed(entry, error));
    } catch (error) {
      this.failed(entry, error);
    }
    return undefined;
  }

  private failed(entry: Entry, error: unknown) {
    this.note(entry, "socket handling failed", { error });
    this.end(entry, CLOSE.sessionEnded, "server error");
  }

  /** Logs about one socket's frames, a few at most per minute, so a client cannot flood the log. */
  private note(entry: Entry, msg: string, data: Record<string, unknown> = {}) {
    if (!entry.logLines.take()) {
      entry.suppressedLogs++;
      return;
    }
    const suppressed = entry.suppressedLogs ? { suppressed: entry.suppressedLogs } : {};
    entry.suppressedLogs = 0;
    this.deps.log.warn(msg, { userId: entry.user.id, ...data, ...suppressed });
  }

  private send<E extends EventName>(entry: Entry, event: E, payload: ServerEvents[E]) {
    entry.socket.send(JSON.stringify({ event, payload }));
  }

  private expiresIn(entry: Entry) {
    return Math.max(0, Math.floor((entry.expiresAt - this.deps.clock.now()) / 1000));
  }
}

function userIdOf(payload: ServerEvents["user"]): number {
  return "userId" in payload ? payload.userId : payload.user.id;
}

function unref(timer: ReturnType<typeof setInterval>) {
  (timer as { unref?: () => void }).unref?.();
  return timer;
}
