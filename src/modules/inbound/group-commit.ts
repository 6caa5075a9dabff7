import { asOneStep, atomically, atomicallyAsOneStep, type Db, pipelinesStatements } from "../../db/client";
import { gatheringReads } from "../../db/gathered";
import { withTempStoreInMemory } from "../../db/temp-store";
import type { DomainEventName, DomainEvents } from "../../events/catalogue";
import type { EventBus } from "../../events/bus";

/** The most writes one transaction takes; the next ones wait for the following transaction. */
const MAX_BATCH = 256;

interface Job {
  write: (events: EventBus) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Emitted = [name: DomainEventName, payload: DomainEvents[DomainEventName]];

interface Outcome {
  value?: unknown;
  error?: unknown;
  failed: boolean;
  emitted: Emitted[];
}

/** A write of a batch written side by side threw: the batch's transaction is rolled back and written in turn. */
class SideBySideFailed extends Error {}

/**
 * Group commit: the writes asked for in the same turn of the event loop run side by side in a single transaction
 * (see writeSideBySide; the atomic blocks inside a write are part of it: asOneStep), and each caller hears back
 * only once that transaction is committed.
 * A commit is the dearest step of storing a message; one commit for many keeps every message durable before its
 * caller goes on, at a fraction of the cost.
 *
 * A write that throws is rolled back alone (the batch is written again in turn, each write in its own savepoint)
 * and its caller gets the error; the others commit. When
 * the commit itself fails every caller of the batch gets the error and nothing of it is stored, so a sender that
 * retries with the same message id is not duplicated. A write announces through the bus it is given: its events
 * are published, in order, once the transaction committed (and dropped with a rolled-back write).
 */
export class GroupCommit {
  private queue: Job[] = [];
  private scheduled = false;

  /**
   * `beforeCommit` runs in the transaction after every write of the batch, outside their savepoints: work done
   * once for the batch (indexing its new messages).
   */
  constructor(
    private readonly db: Db,
    private readonly events: EventBus,
    private readonly beforeCommit?: (db: Db) => Promise<void>,
  ) {}

  run<T>(write: (events: EventBus) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ write, resolve: resolve as (value: unknown) => void, reject });
      if (this.queue.length >= MAX_BATCH) void this.flush();
      else if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  private committing: Promise<void> = Promise.resolve();

  /**
   * Runs and commits the queued writes now, after the batch being committed: one batch at a time, so batches
   * never wait on each other's rows (on PostgreSQL two could otherwise lock the same new contacts in turn).
   */
  flush(): Promise<void> {
    this.scheduled = false;
    // The batch is taken when its turn comes: what arrives while the one before commits joins it.
    this.committing = this.committing.then(() => {
      const batch = this.queue;
      this.queue = [];
      // A failure after the transaction (publishing its events, restoring the temp store) answers the batch's
      // callers that are still waiting, and leaves the turn to the next batch instead of stopping them all.
      return batch.length
        ? this.commit(batch).catch((error) => {
            for (const job of batch) job.reject(error);
          })
        : undefined;
    });
    return this.committing;
  }

  private async commit(batch: Job[]) {
    if (batch.length === 1) return await this.commitAlone(batch[0]!);
    let outcomes: Outcome[];
    try {
      outcomes = (await this.writeSideBySide(batch)) ?? (await this.writeInTurn(batch));
    } catch (error) {
      for (const job of batch) job.reject(error);
      return;
    }
    batch.forEach((job, i) => {
      const outcome = outcomes[i]!;
      for (const [name, payload] of outcome.emitted) this.events.emit(name, payload);
      if (outcome.failed) job.reject(outcome.error);
      else job.resolve(outcome.value);
    });
  }

  /**
   * The batch's writes run at once in one transaction, without savepoints (two writes of a batch never belong to
   * the same chat: the pipeline's chat lanes hold the next message until this one is committed). On PostgreSQL
   * their statements are pipelined on the transaction's connection instead of each waiting for the one before,
   * and their reads gathered; on SQLite no savepoint copies the pages each write changes (a message and its
   * ticket change about 64 KiB of them). When one throws, the transaction is rolled back and nothing is answered:
   * undefined, and the batch is written again in turn, so a bad write costs the others a second try, never their
   * message.
   */
  private async writeSideBySide(batch: Job[]): Promise<Outcome[] | undefined> {
    const outcomes: Outcome[] = batch.map(() => ({ failed: false, emitted: [] }));
    try {
      await atomically(this.db, async (tx) => {
        const writes = () =>
          Promise.allSettled(
            batch.map((job, i) => asOneStep(() => job.write(bufferingBus(this.events, outcomes[i]!.emitted)))),
          );
        // Gathered reads wait for the end of the turn: worth it only where each statement waits for a round trip.
        const settled = pipelinesStatements(this.db) ? await gatheringReads(tx, writes) : await writes();
        if (settled.some((result) => result.status === "rejected")) throw new SideBySideFailed();
        settled.forEach((result, i) => {
          outcomes[i]!.value = (result as PromiseFulfilledResult<unknown>).value;
        });
        await this.beforeCommit?.(this.db);
      });
    } catch (error) {
      if (error instanceof SideBySideFailed) return undefined;
      throw error;
    }
    return outcomes;
  }

  /**
   * The batch's writes one after another in one transaction, each in its own savepoint (see withTempStoreInMemory),
   * once one of them threw side by side.
   */
  private async writeInTurn(batch: Job[]): Promise<Outcome[]> {
    const outcomes: Outcome[] = [];
    await withTempStoreInMemory(this.db, () =>
      atomically(this.db, async () => {
        for (const job of batch) {
          const emitted: Emitted[] = [];
          const bus = bufferingBus(this.events, emitted);
          try {
            const value = await atomicallyAsOneStep(this.db, () => job.write(bus));
            outcomes.push({ value, failed: false, emitted });
          } catch (error) {
            outcomes.push({ error, failed: true, emitted: [] });
          }
        }
        await this.beforeCommit?.(this.db);
      }),
    );
    return outcomes;
  }

  /**
   * A write alone in its batch is the whole transaction: no savepoint (two round trips on PostgreSQL) is needed
   * to roll it back alone, the transaction's rollback does.
   */
  private async commitAlone(job: Job) {
    const emitted: Emitted[] = [];
    let value: unknown;
    try {
      await atomicallyAsOneStep(this.db, async () => {
        value = await job.write(bufferingBus(this.events, emitted));
        await this.beforeCommit?.(this.db);
      });
    } catch (error) {
      job.reject(error);
      return;
    }
    for (const [name, payload] of emitted) this.events.emit(name, payload);
    job.resolve(value);
  }
}

/** A bus that keeps what is emitted in `into` (to publish after the commit); subscribing goes to the real bus. */
function bufferingBus(bus: EventBus, into: Emitted[]): EventBus {
  return {
    emit: (name, payload) => void into.push([name, payload]),
    subscribe: (listener) => bus.subscribe(listener),
    subscribeAll: (listener) => bus.subscribeAll(listener),
  };
}
