import type { FetchFunction, FetchRequestInit, FetchResponse } from '../http-client';

/** What the fake platform answers to one request: a response, a thrown error, or a function of the request. */
export type FakeAnswer = { status: number; body?: unknown; headers?: Record<string, string> } | Error | ((url: string, init: FetchRequestInit) => Promise<FetchResponse>);

export interface FakeFetch extends FetchFunction {
  /** Every request received, in order. */
  readonly requests: { url: string; init: FetchRequestInit }[];
}

/** A `fetch` that answers from `answers` in order (the last one again once they run out), recording each request. */
export function fakeFetch(...answers: FakeAnswer[]): FakeFetch {
  const requests: { url: string; init: FetchRequestInit }[] = [];
  const fetch = async (url: string, init: FetchRequestInit): Promise<FetchResponse> => {
    requests.push({ url, init });
    const answer = answers[Math.min(requests.length, answers.length) - 1];
    if (answer instanceof Error) {
      throw answer;
    }
    if (typeof answer === 'function') {
      return answer(url, init);
    }
    return response(answer.status, answer.body, answer.headers);
  };
  return Object.assign(fetch, { requests });
}

/** A response with a JSON body (a string body is sent as it is). */
export function response(status: number, body?: unknown, headers: Record<string, string> = {}): FetchResponse {
  const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
  return { status, headers: new Headers(headers), text: async () => text };
}

/** A fetch that never answers, and rejects like fetch does once its signal aborts. */
export function hangingFetch(): FakeFetch {
  return fakeFetch(
    (_url, init) =>
      new Promise<FetchResponse>((_resolve, reject) => {
        init.signal.addEventListener('abort', () => reject(new DOMException('This operation was aborted', 'AbortError')));
      }),
  );
}
