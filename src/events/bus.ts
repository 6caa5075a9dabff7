import type { Logger } from "../log";
import type { DomainEvent, DomainEventName, DomainEvents } from "./catalogue";

export type EventListener = (event: DomainEvent) => void;

/**
 * Contract: services announce what happened through `emit`, and never know who listens. Listeners run in the
 * order they subscribed, synchronously, after the emitter's write is committed; one that throws is logged and
 * does not stop the others or the emitter. A transport between nodes implements this same interface.
 */
export interface EventBus {
  emit<N extends DomainEventName>(name: N, payload: DomainEvents[N]): void;
  /** Hears what happened on this node. Returns the function that unsubscribes. */
  subscribe(listener: EventListener): () => void;
  /**
   * Hears what happened on every node sharing the database (on a single node, the same as `subscribe`): for
   * what each node must show, such as its browsers; work done once per event listens on its own node only.
   */
  subscribeAll(listener: EventListener): () => void;
}

/** The bus of one process. */
export class LocalEventBus implements EventBus {
  private readonly listeners = new Set<EventListener>();

  constructor(private readonly log: Pick<Logger, "error">) {}

  emit<N extends DomainEventName>(name: N, payload: DomainEvents[N]) {
    const event = { name, payload } as DomainEvent;
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        this.log.error("event listener failed", { event: name, error });
      }
    }
  }

  subscribe(listener: EventListener) {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  subscribeAll(listener: EventListener) {
    return this.subscribe(listener);
  }
}
