/**
 * Jobs run one after another per key (a chat, a connection) and concurrently across keys, so a slow job holds up
 * only its own key; a job without a key runs at once. A failed job does not stop the next one. `settled(key)` tells
 * when the jobs of one key queued so far have ended, `idle()` when no job of any key is left.
 */
export class KeyedLanes<K = string> {
  private readonly tails = new Map<K, Promise<void>>();
  private running = 0;
  private idleWaiters: (() => void)[] = [];

  run<T>(key: K | null, job: () => Promise<T>): Promise<T> {
    this.running++;
    const previous = (key !== null && this.tails.get(key)) || Promise.resolve();
    const result = previous.then(job);
    const tail = result.then(
      () => {},
      () => {},
    );
    if (key !== null) this.tails.set(key, tail);
    void tail.then(() => {
      if (key !== null && this.tails.get(key) === tail) this.tails.delete(key);
      if (--this.running === 0) for (const wake of this.idleWaiters.splice(0)) wake();
    });
    return result;
  }

  /** Resolves once the jobs of `key` queued so far have ended; jobs queued after this call are not waited for. */
  settled(key: K): Promise<void> {
    return this.tails.get(key) ?? Promise.resolve();
  }

  /** Resolves when no job is running or waiting. */
  idle(): Promise<void> {
    return this.running === 0 ? Promise.resolve() : new Promise((resolve) => this.idleWaiters.push(resolve));
  }
}
