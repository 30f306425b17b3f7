import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiKeyView, SignedRequests, SigningKeyView } from '@game-wallet/contracts/views';
import { apiRequest } from './client';
import { queryKeys } from './queries';

/** Signed requests of an API key (RFC 9421): which of its requests must be signed, and the public keys that sign them. */

/** What the add form sends: a PEM as text, a JWK as the object it was pasted as. */
export interface SigningKeyInput {
  name?: string;
  publicKey: string | Record<string, unknown>;
}

const keyPath = (gameId: string, keyId: string, rest = '') => `/games/${encodeURIComponent(gameId)}/api-keys/${encodeURIComponent(keyId)}${rest}`;

/** Changes one key of the cached list; every change is audited, so the audit trail is asked again. */
function changeKey(client: QueryClient, gameId: string, keyId: string, change: (key: ApiKeyView) => ApiKeyView): void {
  client.setQueryData<ApiKeyView[]>(queryKeys.apiKeys(gameId), (keys) => keys?.map((item) => (item.id === keyId ? change(item) : item)));
  void client.invalidateQueries({ queryKey: ['audit', gameId] });
}

/** Which requests of a key must be signed: 409 `SIGNING_KEY_REQUIRED` when requiring any of a key with no signing key. */
export function useSetSignedRequests(gameId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ keyId, signedRequests }: { keyId: string; signedRequests: SignedRequests }) => apiRequest<ApiKeyView>('PATCH', keyPath(gameId, keyId), { signedRequests }),
    onSuccess: (updated) => changeKey(client, gameId, updated.id, () => updated),
  });
}

/** Registers a public key for a key's requests: 409 `SIGNING_KEY_LIMIT` past three, `SIGNING_KEY_EXISTS` for one it has. */
export function useAddSigningKey(gameId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ keyId, input }: { keyId: string; input: SigningKeyInput }) => apiRequest<SigningKeyView>('POST', keyPath(gameId, keyId, '/signing-keys'), input),
    onSuccess: (added, { keyId }) => changeKey(client, gameId, keyId, (key) => ({ ...key, signingKeys: [...key.signingKeys, added] })),
  });
}

/** Removes a signing key: 409 `SIGNING_KEY_REQUIRED` for the last one of a key whose requests must be signed. */
export function useRemoveSigningKey(gameId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ keyId, signingKeyId }: { keyId: string; signingKeyId: string }) =>
      apiRequest<void>('DELETE', keyPath(gameId, keyId, `/signing-keys/${encodeURIComponent(signingKeyId)}`)),
    onSuccess: (_result, { keyId, signingKeyId }) =>
      changeKey(client, gameId, keyId, (key) => ({ ...key, signingKeys: key.signingKeys.filter((signing) => signing.id !== signingKeyId) })),
  });
}
