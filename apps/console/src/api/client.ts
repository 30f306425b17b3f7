/** An answer of the console API other than 2xx, in the platform's error shape `{message, code}`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** seconds, from `Retry-After` (429) */
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * One call to the console API on this origin. The session travels in its HttpOnly cookie, so the page itself never
 * holds a token. Errors become {@link ApiError} with the API's own `message`. `headers` adds to the request's own
 * (`If-Match`).
 */
export async function apiRequest<T>(method: Method, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`/v1/console${path}`, {
      method,
      credentials: 'same-origin',
      headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 'NETWORK_ERROR', 'The platform could not be reached. Check your connection and try again.');
  }
  if (response.status === 204) {
    return undefined as T;
  }
  const data: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const error = (data ?? {}) as { message?: unknown; code?: unknown };
    const retryAfter = Number(response.headers.get('retry-after'));
    throw new ApiError(
      response.status,
      typeof error.code === 'string' ? error.code : 'UNKNOWN_ERROR',
      typeof error.message === 'string' ? error.message : `The request failed (HTTP ${response.status})`,
      Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
    );
  }
  return data as T;
}

/** A query string of the defined values only (`?a=1&b=x`), or '' when there are none. */
export function queryString(values: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) {
    if (value !== undefined && value !== '') {
      params.set(name, String(value));
    }
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

export const isUnauthenticated = (error: unknown): boolean => error instanceof ApiError && error.status === 401;
