import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError, isUnauthenticated } from './client';
import { queryKeys } from './queries';

/**
 * The console's cache of API answers. A 401 from any call means the session ended (expired or signed out elsewhere):
 * the session is forgotten and the console goes back to sign-in, keeping the page that was open.
 */
export function createQueryClient(): QueryClient {
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError: (error, query) => sessionEnded(error, query.queryKey[0] !== queryKeys.session[0]) }),
    mutationCache: new MutationCache({ onError: (error) => sessionEnded(error, true) }),
    defaultOptions: {
      queries: {
        // 4xx answers will not change by asking again; outages (5xx, network) are retried twice.
        retry: (failures, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failures < 2,
        refetchOnWindowFocus: true,
        staleTime: 10_000,
      },
      mutations: { gcTime: 0 },
    },
  });
  function sessionEnded(error: unknown, applies: boolean): void {
    if (applies && isUnauthenticated(error)) {
      client.setQueryData(queryKeys.session, null);
    }
  }
  return client;
}
