/** What hears a user's sockets on this node come and go. */
export interface PresenceListener {
  /** The user's first socket on this node opened. */
  arrived(userId: number): void;
  /** The user's last socket on this node closed. */
  left(userId: number): void;
}

/**
 * Which users have a socket open on this node, /ws and Socket.IO alike (the socket registry counts them). Other
 * nodes count their own: what the whole cluster knows is in the database (modules/users/availability.ts).
 */
export class SocketPresence {
  private readonly sockets = new Map<number, number>();
  private readonly listeners: PresenceListener[] = [];

  listen(listener: PresenceListener) {
    this.listeners.push(listener);
  }

  opened(userId: number) {
    const count = (this.sockets.get(userId) ?? 0) + 1;
    this.sockets.set(userId, count);
    if (count === 1) for (const listener of this.listeners) listener.arrived(userId);
  }

  closed(userId: number) {
    const count = (this.sockets.get(userId) ?? 0) - 1;
    if (count > 0) return void this.sockets.set(userId, count);
    if (!this.sockets.delete(userId)) return;
    for (const listener of this.listeners) listener.left(userId);
  }

  /** The users with at least one socket open here. */
  users(): number[] {
    return [...this.sockets.keys()];
  }
}
