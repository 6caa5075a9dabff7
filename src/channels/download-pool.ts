/** Thrown to a download that was cancelled before or while it ran. */
export class DownloadCancelled extends Error {
  constructor() {
    super("download cancelled");
  }
}

interface Job {
  owner: number;
  controller: AbortController;
  start: () => Promise<void>;
  cancel: () => void;
}

/**
 * Runs at most `size` media downloads at once, in the order they were asked for, so a burst of media never
 * starves the rest of the process. The downloads of one connection (`owner`) can be cancelled together.
 */
export class DownloadPool {
  private readonly queue: Job[] = [];
  private readonly active = new Set<Job>();

  constructor(private readonly size: number) {}

  run<T>(owner: number, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const controller = new AbortController();
      const job: Job = {
        owner,
        controller,
        start: () =>
          work(controller.signal).then(resolve, (error) =>
            reject(controller.signal.aborted ? new DownloadCancelled() : error),
          ),
        cancel: () => reject(new DownloadCancelled()),
      };
      this.queue.push(job);
      this.next();
    });
  }

  /** Cancels the connection's waiting downloads and aborts its running ones. */
  cancel(owner: number) {
    for (let i = this.queue.length - 1; i >= 0; i--) {
      const job = this.queue[i]!;
      if (job.owner !== owner) continue;
      this.queue.splice(i, 1);
      job.cancel();
    }
    for (const job of this.active) if (job.owner === owner) job.controller.abort(new DownloadCancelled());
  }

  private next() {
    while (this.active.size < this.size && this.queue.length) {
      const job = this.queue.shift()!;
      this.active.add(job);
      void job.start().finally(() => {
        this.active.delete(job);
        this.next();
      });
    }
  }
}
