/** A JSON HTTP call as the tests make them: status, parsed body (or text) and headers. */
export interface HttpResult<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

export interface CallOptions {
  body?: unknown;
  apiKey?: string;
  bearer?: string;
  headers?: Record<string, string>;
}

export async function http<T = unknown>(method: string, url: string, options: CallOptions = {}): Promise<HttpResult<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
  }
  if (options.apiKey !== undefined) {
    headers['x-api-key'] = options.apiKey;
  }
  if (options.bearer !== undefined) {
    headers.authorization = `Bearer ${options.bearer}`;
  }
  const response = await fetch(url, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, body: body as T, headers: response.headers };
}
