import type { InvitationPreview } from '@game-wallet/contracts/console-access';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { apiRequest } from './client';
import { queryKeys } from './queries';

/**
 * The invitation page's calls (public: no session yet). The token travels only in request bodies, never in a URL, so
 * no server or proxy log holds it; the cache keys the preview without it.
 */
export function useInvitationPreview(token: string) {
  return useQuery({
    queryKey: ['invitation-preview'],
    queryFn: () => apiRequest<InvitationPreview>('POST', '/invitations/preview', { token }),
    enabled: token !== '',
    retry: false,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    gcTime: 0,
  });
}

/** Accepts: the answer's cookie signs the new operator in. */
export function useAcceptInvitation(): (token: string, displayName: string, password: string) => Promise<void> {
  const client = useQueryClient();
  return useCallback(
    async (token: string, displayName: string, password: string) => {
      await apiRequest<unknown>('POST', '/invitations/accept', { token, password, displayName });
      client.removeQueries({ queryKey: ['invitation-preview'] });
      await client.invalidateQueries({ queryKey: queryKeys.session });
    },
    [client],
  );
}
