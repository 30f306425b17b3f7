// eslint-disable-next-line @nx/enforce-module-boundaries -- type-only: nothing of contracts reaches the emitted JavaScript
import type { AuditEntryView, Page } from '@game-wallet/contracts';
import { HttpClient, RequestOptions } from './http-client';

const segment = encodeURIComponent;

/** A game's audit trail. */
export interface ConsoleAuditApi {
  /** A page of the trail, newest first (`cursor` from the page before). */
  list(gameId: string, page?: { limit?: number; cursor?: string }, options?: RequestOptions): Promise<Page<AuditEntryView>>;
  /**
   * The trail written in [`since`, `until`) as NDJSON text, exactly as the platform sent it, each row with its place in
   * its service's hash chain: save it and check it with `npm run audit:verify -- FILE`.
   */
  export(gameId: string, window?: { since?: string | Date; until?: string | Date }, options?: RequestOptions): Promise<string>;
}

export class ConsoleAuditResource implements ConsoleAuditApi {
  constructor(
    private readonly http: HttpClient,
    private readonly baseUrl: string,
  ) {}

  list(gameId: string, page: { limit?: number; cursor?: string } = {}, options?: RequestOptions): Promise<Page<AuditEntryView>> {
    return this.http.request({ method: 'GET', url: this.url(gameId, '', { limit: page.limit, cursor: page.cursor }) }, options);
  }

  export(gameId: string, window: { since?: string | Date; until?: string | Date } = {}, options?: RequestOptions): Promise<string> {
    const instant = (value: string | Date | undefined) => (value instanceof Date ? value.toISOString() : value);
    return this.http.request(
      { method: 'GET', url: this.url(gameId, '/export', { since: instant(window.since), until: instant(window.until) }), text: 'application/x-ndjson' },
      options,
    );
  }

  private url(gameId: string, path: string, query: Record<string, string | number | undefined>): string {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) {
      if (value !== undefined) {
        params.set(name, String(value));
      }
    }
    const search = params.toString();
    return `${this.baseUrl}/v1/console/games/${segment(gameId)}/audit${path}${search === '' ? '' : `?${search}`}`;
  }
}
