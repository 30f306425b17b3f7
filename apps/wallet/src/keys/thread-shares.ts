interface Waiting<T> {
  resolve: (result: T) => void;
  reject: (error: unknown) => void;
}

/**
 * Hands work that waits for a pool of threads to the threads in shares: what is asked for while a thread is free
 * starts at once, and the requests made in the same turn are split evenly over the free threads; while every thread
 * is busy, requests wait here, and the first thread to become free takes all that wait, up to `maxPerTask`, as one
 * task. Under load one task, and one message back, then serves many callers, so that what each caller does next (an
 * insert, a reply) happens together with the others rather than one caller at a time.
 */
export class ThreadShares<T> {
  private readonly waiting: Waiting<T>[] = [];
  private running = 0;
  private dispatchQueued = false;

  /** `runTask(count)` does `count` units of work on one thread and answers their `count` results. */
  constructor(
    private readonly runTask: (count: number) => Promise<T[]>,
    private readonly options: { threads: number; maxPerTask: number },
  ) {}

  next(): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      if (!this.dispatchQueued) {
        this.dispatchQueued = true;
        queueMicrotask(() => {
          this.dispatchQueued = false;
          this.dispatch();
        });
      }
    });
  }

  private dispatch(): void {
    const { threads, maxPerTask } = this.options;
    while (this.running < threads && this.waiting.length > 0) {
      const share = this.waiting.splice(0, Math.min(maxPerTask, Math.ceil(this.waiting.length / (threads - this.running))));
      this.running += 1;
      this.start(share.length)
        .then(
          (results) => share.forEach((waiting, index) => waiting.resolve(results[index])),
          (error: unknown) => share.forEach((waiting) => waiting.reject(error)),
        )
        .finally(() => {
          this.running -= 1;
          this.dispatch();
        });
    }
  }

  /** The task's promise; one that cannot even start (a pool shutting down) fails its callers like one that failed. */
  private start(count: number): Promise<T[]> {
    try {
      return this.runTask(count);
    } catch (error) {
      return Promise.reject(error);
    }
  }
}
