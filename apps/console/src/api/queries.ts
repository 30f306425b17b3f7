import { type QueryClient, keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type {
  ApiKeyView,
  AuditEntryView,
  ConsoleEndpointsView,
  ConsolePlayerView,
  ConsoleSessionInfo,
  ConsoleSessionView,
  CreatedApiKeyView,
  GameSummaryView,
  GameView,
  Page,
} from '@game-wallet/contracts/views';
import type {
  PolicyDifferenceView,
  PolicyEvaluationRequest,
  PolicyEvaluationView,
  PolicyReplayView,
  PolicyRule,
  SigningPolicyDraftView,
  SigningPolicyVersionView,
  SigningPolicyView,
} from '@game-wallet/contracts/views';
import type { SecondFactorChallengeView, SecondFactorInput } from '@game-wallet/contracts/console-access';
import { ApiError, apiRequest, queryString } from './client';

export const queryKeys = {
  session: ['session'] as const,
  endpoints: ['endpoints'] as const,
  games: ['games'] as const,
  game: (gameId: string) => ['game', gameId] as const,
  apiKeys: (gameId: string) => ['api-keys', gameId] as const,
  players: (gameId: string, uniqueId: string, cursor: string | undefined) => ['players', gameId, uniqueId, cursor ?? ''] as const,
  audit: (gameId: string, cursor: string | undefined) => ['audit', gameId, cursor ?? ''] as const,
  signingPolicy: (gameId: string) => ['signing-policy', gameId] as const,
  policyVersions: (gameId: string) => ['policy-versions', gameId] as const,
  policyDraft: (gameId: string) => ['policy-draft', gameId] as const,
  policyDifferences: (gameId: string, cursor: string | undefined) => ['policy-differences', gameId, cursor ?? ''] as const,
  webhooks: (gameId: string) => ['webhooks', gameId] as const,
  webhookDeliveries: (gameId: string, endpointId: string, status: string, cursor: string | undefined) => ['webhook-deliveries', gameId, endpointId, status, cursor ?? ''] as const,
  accountSessions: ['account-sessions'] as const,
  operators: ['operators'] as const,
  operatorSessions: (operatorId: string) => ['operator-sessions', operatorId] as const,
  invitations: ['invitations'] as const,
  settings: ['settings'] as const,
};

/** Rows per page of the players and audit tables. */
export const PAGE_SIZE = 20;

/** The signed-in operator, or null when there is no session (the console then shows sign-in). */
export function useSession() {
  return useQuery({
    queryKey: queryKeys.session,
    queryFn: async (): Promise<ConsoleSessionInfo | null> => {
      try {
        return await apiRequest<ConsoleSessionInfo>('GET', '/session');
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) {
          return null;
        }
        throw error;
      }
    },
    staleTime: 60_000,
  });
}

export function useEndpoints() {
  return useQuery({ queryKey: queryKeys.endpoints, queryFn: () => apiRequest<ConsoleEndpointsView>('GET', '/endpoints'), staleTime: Infinity });
}

export function useGames() {
  return useInfiniteQuery({
    queryKey: queryKeys.games,
    queryFn: ({ pageParam }) => apiRequest<Page<GameSummaryView>>('GET', `/games${queryString({ limit: 50, cursor: pageParam })}`),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
}

/** One game; nothing is asked while `gameId` is empty. */
export function useGame(gameId: string) {
  return useQuery({
    queryKey: queryKeys.game(gameId),
    queryFn: () => apiRequest<GameView>('GET', `/games/${encodeURIComponent(gameId)}`),
    enabled: gameId !== '',
  });
}

export function useCreateGame() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => apiRequest<GameView>('POST', '/games', { name }),
    onSuccess: (game) => {
      client.setQueryData(queryKeys.game(game.id), game);
      return client.invalidateQueries({ queryKey: queryKeys.games });
    },
  });
}

export function useApiKeys(gameId: string) {
  return useQuery({
    queryKey: queryKeys.apiKeys(gameId),
    queryFn: async () => (await apiRequest<{ items: ApiKeyView[] }>('GET', `/games/${encodeURIComponent(gameId)}/api-keys`)).items,
  });
}

/** Strips the secret from a created key: only the dialog that shows it once may hold it, never a cache. */
export function withoutSecret({ key: _secret, ...view }: CreatedApiKeyView): ApiKeyView {
  return view;
}

async function createApiKey(client: QueryClient, gameId: string, name: string | undefined): Promise<CreatedApiKeyView> {
  const created = await apiRequest<CreatedApiKeyView>('POST', `/games/${encodeURIComponent(gameId)}/api-keys`, name === undefined ? {} : { name });
  client.setQueryData<ApiKeyView[]>(queryKeys.apiKeys(gameId), (keys) => [...(keys ?? []), withoutSecret(created)]);
  void client.invalidateQueries({ queryKey: queryKeys.games });
  return created;
}

/**
 * Creates a key. Not a cached mutation on purpose: the answer (with its secret) goes only to the caller, and the
 * cached list gets the key without it.
 */
export function useCreateKey(gameId: string): (name: string | undefined) => Promise<CreatedApiKeyView> {
  const client = useQueryClient();
  return useCallback((name: string | undefined) => createApiKey(client, gameId, name), [client, gameId]);
}

/** Turns a key on or off at once in the list, and back when the platform refuses. */
export function useSetKeyActive(gameId: string) {
  const client = useQueryClient();
  const key = queryKeys.apiKeys(gameId);
  return useMutation({
    mutationFn: ({ keyId, active }: { keyId: string; active: boolean }) =>
      apiRequest<ApiKeyView>('PATCH', `/games/${encodeURIComponent(gameId)}/api-keys/${encodeURIComponent(keyId)}`, { active }),
    onMutate: async ({ keyId, active }) => {
      await client.cancelQueries({ queryKey: key });
      const before = client.getQueryData<ApiKeyView[]>(key);
      client.setQueryData<ApiKeyView[]>(key, (keys) => keys?.map((item) => (item.id === keyId ? { ...item, active } : item)));
      return { before };
    },
    onError: (_error, _variables, context) => {
      client.setQueryData(key, context?.before);
    },
    onSuccess: (updated) => {
      client.setQueryData<ApiKeyView[]>(key, (keys) => keys?.map((item) => (item.id === updated.id ? updated : item)));
    },
  });
}

/** Deletes a key; `revokeTokens` also revokes every profile token it issued. */
export function useDeleteKey(gameId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ keyId, revokeTokens }: { keyId: string; revokeTokens: boolean }) =>
      apiRequest<void>('DELETE', `/games/${encodeURIComponent(gameId)}/api-keys/${encodeURIComponent(keyId)}${revokeTokens ? '?revokeTokens=true' : ''}`),
    onSuccess: (_result, { keyId }) => {
      client.setQueryData<ApiKeyView[]>(queryKeys.apiKeys(gameId), (keys) => keys?.filter((item) => item.id !== keyId));
      void client.invalidateQueries({ queryKey: queryKeys.games });
    },
  });
}

export function usePlayers(gameId: string, uniqueId: string, cursor: string | undefined) {
  return useQuery({
    queryKey: queryKeys.players(gameId, uniqueId, cursor),
    queryFn: () =>
      apiRequest<Page<ConsolePlayerView>>('GET', `/games/${encodeURIComponent(gameId)}/players${queryString({ uniqueId, cursor, limit: PAGE_SIZE })}`),
    placeholderData: keepPreviousData,
  });
}

export function useAudit(gameId: string, cursor: string | undefined) {
  return useQuery({
    queryKey: queryKeys.audit(gameId, cursor),
    queryFn: () => apiRequest<Page<AuditEntryView>>('GET', `/games/${encodeURIComponent(gameId)}/audit${queryString({ cursor, limit: PAGE_SIZE })}`),
    placeholderData: keepPreviousData,
  });
}

/** What the second step of a sign-in needs: the challenge to send back, the operator's methods, passkey options. */
export type SecondFactorChallenge = SecondFactorChallengeView['secondFactor'];

/**
 * Signs in. Not a cached mutation, so the password is not kept once the call ends; the answer's bearer token (for
 * scripts) is dropped too: the console relies on the HttpOnly session cookie the same answer sets. Answers the
 * challenge of the second step for an operator with a second factor (no session yet), else null (signed in).
 */
export function useSignIn(): (email: string, password: string) => Promise<SecondFactorChallenge | null> {
  const client = useQueryClient();
  return useCallback(
    async (email: string, password: string) => {
      const answer = await apiRequest<ConsoleSessionView | SecondFactorChallengeView>('POST', '/session', { email, password });
      if ('secondFactor' in answer) {
        return answer.secondFactor;
      }
      await client.invalidateQueries({ queryKey: queryKeys.session });
      return null;
    },
    [client],
  );
}

/** The second step of a sign-in: the challenge and one second factor; the answer's cookie signs the operator in. */
export function useSecondFactor(): (challenge: string, factor: SecondFactorInput) => Promise<void> {
  const client = useQueryClient();
  return useCallback(
    async (challenge: string, factor: SecondFactorInput) => {
      await apiRequest<unknown>('POST', '/session/second-factor', { challenge, ...factor });
      await client.invalidateQueries({ queryKey: queryKeys.session });
    },
    [client],
  );
}

export function useSignOut() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<void>('DELETE', '/session').catch((error: unknown) => {
      // An expired session is signed out already.
      if (!(error instanceof ApiError && error.status === 401)) {
        throw error;
      }
    }),
    onSuccess: () => {
      client.clear();
      client.setQueryData(queryKeys.session, null);
    },
  });
}

const policyPath = (gameId: string, rest = '') => `/games/${encodeURIComponent(gameId)}/signing-policy${rest}`;
/** A policy version as the strong ETag `If-Match` names. */
const ifMatch = (version: number) => ({ 'if-match': `"${version}"` });

/** The game's active signing policy: its rules, version, and who changed it when. */
export function useSigningPolicy(gameId: string) {
  return useQuery({ queryKey: queryKeys.signingPolicy(gameId), queryFn: () => apiRequest<SigningPolicyView>('GET', policyPath(gameId)) });
}

/** What follows a change of the active policy: its versions, the audit trail and the draft's differences. */
function afterPolicyChange(client: QueryClient, gameId: string, policy: SigningPolicyView): void {
  client.setQueryData(queryKeys.signingPolicy(gameId), policy);
  void client.invalidateQueries({ queryKey: queryKeys.policyVersions(gameId) });
  void client.invalidateQueries({ queryKey: ['audit', gameId] });
}

/**
 * Saves the rules as the next version, only over the version they were read at (`If-Match`): 412
 * `PRECONDITION_FAILED` when someone saved another since. The cache then holds what the platform answered.
 */
export function useSaveSigningPolicy(gameId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ rules, version }: { rules: PolicyRule[]; version: number }) => apiRequest<SigningPolicyView>('PUT', policyPath(gameId), { rules }, ifMatch(version)),
    onSuccess: (saved) => afterPolicyChange(client, gameId, saved),
  });
}

/** The policy's versions, newest first, a page at a time. */
export function useSigningPolicyVersions(gameId: string, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: queryKeys.policyVersions(gameId),
    queryFn: ({ pageParam }) => apiRequest<Page<SigningPolicyVersionView>>('GET', policyPath(gameId, `/versions${queryString({ limit: 10, cursor: pageParam })}`)),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
    enabled,
  });
}

/** The game's draft, or null when it has none. */
export function useSigningPolicyDraft(gameId: string) {
  return useQuery({
    queryKey: queryKeys.policyDraft(gameId),
    queryFn: async (): Promise<SigningPolicyDraftView | null> => {
      try {
        return await apiRequest<SigningPolicyDraftView>('GET', policyPath(gameId, '/draft'));
      } catch (error) {
        if (error instanceof ApiError && error.status === 404 && error.code === 'NOT_FOUND') {
          return null;
        }
        throw error;
      }
    },
  });
}

function afterDraftChange(client: QueryClient, gameId: string, draft: SigningPolicyDraftView | null): void {
  client.setQueryData(queryKeys.policyDraft(gameId), draft);
  void client.invalidateQueries({ queryKey: ['policy-differences', gameId] });
  void client.invalidateQueries({ queryKey: ['audit', gameId] });
}

/** Replaces (or starts) the game's draft. */
export function useSaveDraft(gameId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (rules: PolicyRule[]) => apiRequest<SigningPolicyDraftView>('PUT', policyPath(gameId, '/draft'), { rules }),
    onSuccess: (draft) => afterDraftChange(client, gameId, draft),
  });
}

export function useDeleteDraft(gameId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<void>('DELETE', policyPath(gameId, '/draft')),
    onSuccess: () => afterDraftChange(client, gameId, null),
  });
}

/** Makes the draft the next version, only over the active version it was compared with (`If-Match`). */
export function useActivateDraft(gameId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (version: number) => apiRequest<SigningPolicyView>('POST', policyPath(gameId, '/draft/activate'), undefined, ifMatch(version)),
    onSuccess: (policy) => {
      afterPolicyChange(client, gameId, policy);
      afterDraftChange(client, gameId, null);
    },
  });
}

/** Signing attempts where the draft decided otherwise than the active policy, newest first. */
export function useDraftDifferences(gameId: string, cursor: string | undefined, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.policyDifferences(gameId, cursor),
    queryFn: () => apiRequest<Page<PolicyDifferenceView>>('GET', policyPath(gameId, `/draft/differences${queryString({ cursor, limit: PAGE_SIZE })}`)),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** The draft over past signing attempts (since `since`, ISO): how many decisions it would change. */
export function useReplayDraft(gameId: string) {
  return useMutation({
    mutationFn: (since: string | undefined) => apiRequest<PolicyReplayView>('POST', policyPath(gameId, '/draft/replay'), since === undefined ? {} : { since }),
  });
}

/** A dry run: what the active policy (or the draft) decides for a request, and what it read of it. */
export function useEvaluatePolicy(gameId: string) {
  return useMutation({
    mutationFn: (request: PolicyEvaluationRequest) => apiRequest<PolicyEvaluationView>('POST', policyPath(gameId, '/evaluate'), request),
  });
}
