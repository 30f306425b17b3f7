import { AuditExportLineView, AuditExportRequest } from '@game-wallet/contracts';
import { z } from 'zod';

/** Rows asked of each service at a time while an export streams. */
export const AUDIT_EXPORT_PAGE = 500;

export const isoInstant = (name: string) =>
  z
    .string({ error: 'must be given once' })
    .max(40, 'must be at most 40 characters')
    .refine((value) => /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2}))?$/.test(value) && !Number.isNaN(new Date(value).getTime()), {
      error: `must be a date (2026-11-26) or a date and time with its offset (2026-11-26T10:00:00Z), ISO 8601`,
    })
    .optional()
    .describe(`${name}: ISO 8601`);

/** `?since=&until=` of an export: rows written at or after `since`, before `until`. */
export const auditExportQuery = z
  .object({ since: isoInstant('rows written at or after this'), until: isoInstant('rows written before this') })
  .refine(({ since, until }) => since === undefined || until === undefined || new Date(since) < new Date(until), { error: 'since must be before until', path: ['until'] });

type PageOf = (request: AuditExportRequest) => Promise<{ lines: AuditExportLineView[] }>;

/** One service's chain, read page by page in chain order. */
class ChainReader {
  private buffer: AuditExportLineView[] = [];
  private afterSeq = 0;
  private done = false;

  constructor(
    private readonly page: PageOf,
    private readonly window: Omit<AuditExportRequest, 'afterSeq' | 'limit'>,
  ) {}

  /** The next row without taking it; undefined once the chain is read. */
  async peek(): Promise<AuditExportLineView | undefined> {
    if (this.buffer.length === 0 && !this.done) {
      const { lines } = await this.page({ ...this.window, afterSeq: this.afterSeq, limit: AUDIT_EXPORT_PAGE });
      this.buffer = lines;
      this.done = lines.length < AUDIT_EXPORT_PAGE;
      if (lines.length > 0) {
        this.afterSeq = lines[lines.length - 1].seq;
      }
    }
    return this.buffer[0];
  }

  take(): void {
    this.buffer.shift();
  }
}

/**
 * A game's audit export as NDJSON lines: each service's chain in its own order, the two interleaved by when each row
 * was written (a row's place in its own chain never changes: `npm run audit:verify` follows each chain by `chain`).
 * The first page of each is asked for before the first line, so a refusal (403, 404) answers before anything streams.
 */
export async function auditExportLines(pages: PageOf[], window: Omit<AuditExportRequest, 'afterSeq' | 'limit'>): Promise<AsyncGenerator<string>> {
  const readers = pages.map((page) => new ChainReader(page, window));
  await Promise.all(readers.map((reader) => reader.peek()));
  return (async function* lines() {
    for (;;) {
      let next: { reader: ChainReader; line: AuditExportLineView } | undefined;
      for (const reader of readers) {
        const line = await reader.peek();
        if (line !== undefined && (next === undefined || String(line.entry.at) < String(next.line.entry.at))) {
          next = { reader, line };
        }
      }
      if (next === undefined) {
        return;
      }
      next.reader.take();
      yield `${JSON.stringify(next.line)}\n`;
    }
  })();
}
