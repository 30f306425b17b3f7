interface Waiting<I, T> {
  input: I;
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
export class ThreadShares<I, T> {
  private readonly waiting: Waiting<I, T>[] = [];
  private running = 0;
  private dispatchQueued = false;

  /** `runTask(inputs)` does the work of each input on one thread and answers one result per input, in their order. */
  constructor(
    private readonly runTask: (inputs: I[]) => Promise<T[]>,
    private readonly options: { threads: number; maxPerTask: number },
  ) {}

  run(input: I): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.waiting.push({ input, resolve, reject });
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
      this.start(share.map((waiting) => waiting.input))
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
  private start(inputs: I[]): Promise<T[]> {
    try {
      return this.runTask(inputs);
    } catch (error) {
      return Promise.reject(error);
    }
  }
}
