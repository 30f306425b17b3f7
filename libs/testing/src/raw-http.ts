import { connect } from 'node:net';

/** One HTTP/1.1 request written byte for byte: what `fetch` refuses to send (control characters, no `Host`…) included. */
export interface RawRequest {
  method: string;
  /** the request target exactly as written on the request line (not encoded here) */
  target: string;
  /** in order, duplicates allowed; `Host` is added first unless `host` is null */
  headers?: [string, string][];
  /** `Host` (default `127.0.0.1:<port>`); null sends none */
  host?: string | null;
  body?: string | Buffer;
  /** the HTTP version on the request line (default `HTTP/1.1`) */
  version?: string;
}

export interface RawResponse {
  status: number;
  /** lower-case names; repeated headers joined with `, ` */
  headers: Record<string, string>;
  /** the body, decoded from UTF-8 (chunked bodies reassembled) */
  text: string;
  /** the body parsed as JSON, or undefined when it is not JSON */
  json: unknown;
}

/** The request as bytes: request line and headers as UTF-8 (so a control character goes out as it is), then the body. */
export function rawRequestBytes(port: number, request: RawRequest): Buffer {
  const headers: [string, string][] = [
    ...(request.host === null ? [] : [['host', request.host ?? `127.0.0.1:${port}`] as [string, string]]),
    ...(request.headers ?? []),
    ['connection', 'close'],
  ];
  const body = request.body === undefined ? Buffer.alloc(0) : Buffer.from(request.body);
  if (request.body !== undefined && !headers.some(([name]) => ['content-length', 'transfer-encoding'].includes(name.toLowerCase()))) {
    headers.push(['content-length', String(body.length)]);
  }
  const head = `${request.method} ${request.target} ${request.version ?? 'HTTP/1.1'}\r\n${headers.map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n`;
  return Buffer.concat([Buffer.from(head, 'utf8'), body]);
}

function decodeChunked(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = body.indexOf('\r\n', at);
    if (lineEnd < 0) {
      throw new Error('truncated chunked body');
    }
    const size = parseInt(body.subarray(at, lineEnd).toString('latin1').split(';')[0], 16);
    if (!Number.isFinite(size)) {
      throw new Error('bad chunk size');
    }
    if (size === 0) {
      return Buffer.concat(parts);
    }
    parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

/** Parses the one response of a `Connection: close` exchange (interim 1xx answers skipped). */
export function parseRawResponse(bytes: Buffer): RawResponse {
  let rest = bytes;
  for (;;) {
    const headEnd = rest.indexOf('\r\n\r\n');
    if (headEnd < 0) {
      throw new Error(`no complete response head in ${JSON.stringify(rest.toString('latin1').slice(0, 200))}`);
    }
    const [statusLine, ...lines] = rest.subarray(0, headEnd).toString('latin1').split('\r\n');
    const status = Number(/^HTTP\/\d\.\d (\d{3})/.exec(statusLine)?.[1]);
    const body = rest.subarray(headEnd + 4);
    if (status >= 100 && status < 200) {
      rest = body;
      continue;
    }
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
    }
    const length = headers['content-length'];
    const content = headers['transfer-encoding']?.toLowerCase() === 'chunked' ? decodeChunked(body) : length === undefined ? body : body.subarray(0, Number(length));
    const text = content.toString('utf8');
    let json: unknown;
    try {
      json = text === '' ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status, headers, text, json };
  }
}

/**
 * Sends one request over a new connection and reads the answer until the server closes it. A reset after a complete
 * answer (a server that closes without reading the rest of a refused request) still returns that answer.
 */
export function rawHttp(port: number, request: RawRequest | Buffer, timeoutMs = 10_000): Promise<RawResponse> {
  const bytes = Buffer.isBuffer(request) ? request : rawRequestBytes(port, request);
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let settled = false;
    const settle = (error?: Error): void => {
      if (settled) {
        return;
      }
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (chunks.length === 0) {
        reject(error ?? new Error('the connection closed without an answer'));
        return;
      }
      try {
        resolve(parseRawResponse(Buffer.concat(chunks)));
      } catch (parseError) {
        reject(error ?? parseError);
      }
    };
    const timer = setTimeout(() => settle(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => settle());
    socket.on('close', () => settle(new Error('connection closed')));
    socket.on('error', (error) => settle(error));
    socket.write(bytes);
  });
}
