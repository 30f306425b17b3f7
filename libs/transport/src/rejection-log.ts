import { Logger } from '@nestjs/common';
import type { SignatureCheck } from './transport-keyring';

const LOG_EVERY_MS = 60_000;

/**
 * Messages dropped for their signature: each counted (metrics), and logged at most once a minute with the count and
 * reasons since the last line, so a flood of forged messages cannot flood the log.
 */
export class RejectionLog {
  private counts = new Map<string, number>();
  private lastLog = 0;

  constructor(
    private readonly logger: Logger,
    private readonly what: string,
    private readonly onRejected?: (reason: Exclude<SignatureCheck, 'ok'>) => void,
  ) {}

  rejected(reason: Exclude<SignatureCheck, 'ok'>): void {
    this.onRejected?.(reason);
    this.counts.set(reason, (this.counts.get(reason) ?? 0) + 1);
    const now = Date.now();
    if (now - this.lastLog >= LOG_EVERY_MS) {
      this.lastLog = now;
      const summary = [...this.counts].map(([name, count]) => `${count} ${name}`).join(', ');
      this.counts = new Map();
      this.logger.warn(`Dropped unauthenticated transport messages (${this.what}): ${summary}`);
    }
  }
}
