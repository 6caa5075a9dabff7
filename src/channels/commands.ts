import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { connectionCommands } from "../db/tables";
import type { Logger } from "../log";
import { KeyedLanes } from "../shared/lanes";

/** Carries out one command on the node running the connection. */
export type CommandHandler = (connectionId: number, payload: unknown) => Promise<unknown>;

/** How many commands one read takes; a drain reads again until none is left. */
const BATCH = 50;

/**
 * Commands for a connection that another node runs, kept in `connection_commands` until the node holding the
 * connection's lease carries them out: a node that dies before it does leaves them to the next holder. A command
 * is deleted only after it ran, so one cut short runs again: handlers must be idempotent (message ids make them so).
 */
export class ConnectionCommands {
  private readonly handlers = new Map<string, CommandHandler>();
  /** Drains of one connection run one after the other. */
  private readonly drains = new KeyedLanes<number>();

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
    /** Tells the other nodes that a command waits for the connection (they drain it if they run it). */
    private readonly notify: (connectionId: number) => void,
  ) {}

  handle(kind: string, handler: CommandHandler): this {
    this.handlers.set(kind, handler);
    return this;
  }

  /** Stores the command for whichever node runs the connection, then tells the nodes. */
  async post(connectionId: number, kind: string, payload: unknown = {}): Promise<void> {
    await this.db
      .insert(connectionCommands)
      .values({ whatsappId: connectionId, kind, payload: JSON.stringify(payload) });
    this.notify(connectionId);
  }

  /**
   * Carries out the connection's stored commands, oldest first. `stillHere` is asked after a command fails: while
   * this node runs the connection the failure is logged and the command dropped; once it does not, the rest waits
   * for the node that does.
   */
  drain(connectionId: number, stillHere: () => Promise<boolean>): Promise<void> {
    return this.drains.run(connectionId, () => this.runStored(connectionId, stillHere));
  }

  private async runStored(connectionId: number, stillHere: () => Promise<boolean>) {
    try {
      for (;;) {
        const batch = await this.db
          .select()
          .from(connectionCommands)
          .where(eq(connectionCommands.whatsappId, connectionId))
          .orderBy(asc(connectionCommands.id))
          .limit(BATCH);
        for (const command of batch) if (!(await this.run(command, stillHere))) return;
        if (batch.length < BATCH) return;
      }
    } catch (error) {
      this.log.error("connection commands not carried out", { whatsappId: connectionId, error });
    }
  }

  /** False when the command stays stored (this node no longer runs the connection). */
  private async run(command: typeof connectionCommands.$inferSelect, stillHere: () => Promise<boolean>) {
    const handler = this.handlers.get(command.kind);
    try {
      if (!handler) throw new Error(`no handler for ${command.kind}`);
      await handler(command.whatsappId, JSON.parse(command.payload));
    } catch (error) {
      if (!(await stillHere())) return false;
      this.log.warn("connection command failed", { whatsappId: command.whatsappId, kind: command.kind, error });
    }
    await this.db
      .delete(connectionCommands)
      .where(and(eq(connectionCommands.id, command.id), eq(connectionCommands.whatsappId, command.whatsappId)));
    return true;
  }
}
