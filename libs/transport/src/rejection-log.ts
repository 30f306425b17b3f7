import { Logger } from '@nestjs/common';
import type { RejectionReason } from './transport-keys';

const LOG_EVERY_MS = 60_000;

/**
 * Messages dropped for their signature or their sender: each counted (metrics), and logged at most once a minute with
 * the count and reasons since the last line, so a flood of forged messages cannot flood the log. Rejections that follow a line are
 * written in the next one, a minute after it, even if no further rejection comes.
 */
export class RejectionLog {
  private counts = new Map<string, number>();
  private lastLog = -Infinity;
  private pending?: NodeJS.Timeout;

  constructor(
    private readonly logger: Logger,
    private readonly what: string,
    private readonly onRejected?: (reason: RejectionReason) => void,
  ) {}

  rejected(reason: RejectionReason): void {
    this.onRejected?.(reason);
    this.counts.set(reason, (this.counts.get(reason) ?? 0) + 1);
    const wait = this.lastLog + LOG_EVERY_MS - Date.now();
    if (wait <= 0) {
      this.write();
    } else if (!this.pending) {
      this.pending = setTimeout(() => this.write(), wait);
      this.pending.unref();
    }
  }

  private write(): void {
    clearTimeout(this.pending);
    this.pending = undefined;
    if (this.counts.size === 0) {
      return;
    }
    this.lastLog = Date.now();
    const summary = [...this.counts].map(([name, count]) => `${count} ${name}`).join(', ');
    this.counts = new Map();
    this.logger.warn(`Dropped transport messages not signed by an app allowed to send them (${this.what}): ${summary}`);
  }
}
