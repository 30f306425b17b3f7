import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import type {
  ConsoleAccountView,
  ConsoleSessionEntryView,
  PasskeyView,
  RecoveryCodesView,
  SecondFactorInput,
  StepUpView,
  TotpEnrollmentView,
} from '@game-wallet/contracts/console-access';
import { passkeyAssertion, passkeyRegistration } from '../session/passkeys';
import { apiRequest } from './client';
import { queryKeys } from './queries';

/**
 * The signed-in operator's own account: name, password, second factors and sessions. What holds a secret (a password,
 * a TOTP secret, recovery codes) is a plain call, never a cached mutation, so nothing keeps it once the caller is done.
 */

/** A second factor for step-up: one of the sign-in factors, or the password of an operator who has none. */
export type StepUpFactor = SecondFactorInput | { password: string };

export function useUpdateDisplayName() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (displayName: string) => apiRequest<ConsoleAccountView>('PATCH', '/account', { displayName }),
    onSuccess: (account) => {
      client.setQueryData(queryKeys.session, account);
      void client.invalidateQueries({ queryKey: queryKeys.operators });
    },
  });
}

/** Changes the password; answers how many other sessions it ended. */
export function useChangePassword(): (currentPassword: string, newPassword: string) => Promise<number> {
  const client = useQueryClient();
  return useCallback(
    async (currentPassword: string, newPassword: string) => {
      const { endedSessions } = await apiRequest<{ endedSessions: number }>('PUT', '/account/password', { currentPassword, newPassword });
      void client.invalidateQueries({ queryKey: queryKeys.accountSessions });
      return endedSessions;
    },
    [client],
  );
}

export function useAccountSessions() {
  return useQuery({
    queryKey: queryKeys.accountSessions,
    queryFn: async () => (await apiRequest<{ items: ConsoleSessionEntryView[] }>('GET', '/account/sessions')).items,
  });
}

/** Ends one of the operator's sessions, or (no id) every other one. */
export function useEndAccountSession() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (sessionId: string | null) =>
      apiRequest<void>('DELETE', sessionId === null ? '/account/sessions' : `/account/sessions/${encodeURIComponent(sessionId)}`),
    onSuccess: (_result, sessionId) => {
      client.setQueryData<ConsoleSessionEntryView[]>(queryKeys.accountSessions, (sessions) =>
        sessions?.filter((session) => (sessionId === null ? session.current : session.id !== sessionId)),
      );
      void client.invalidateQueries({ queryKey: queryKeys.accountSessions });
    },
  });
}

/** Account calls that change the second factors; the session's view of them is read again after each. */
export function useTwoFactorCalls() {
  const client = useQueryClient();
  return useMemo(() => {
    const changed = () => client.invalidateQueries({ queryKey: queryKeys.session });
    return {
      /** A new TOTP secret, pending until confirmed with a code from it. */
      startTotp: () => apiRequest<TotpEnrollmentView>('POST', '/account/totp'),
      /** Turns TOTP on; answers the ten recovery codes, shown once. */
      confirmTotp: async (code: string) => {
        const codes = await apiRequest<RecoveryCodesView>('POST', '/account/totp/confirm', { code });
        await changed();
        return codes.recoveryCodes;
      },
      removeTotp: async () => {
        await apiRequest<void>('DELETE', '/account/totp');
        await changed();
      },
      /** Ten new recovery codes; the old ones stop working. */
      regenerateRecoveryCodes: async () => {
        const codes = await apiRequest<RecoveryCodesView>('POST', '/account/recovery-codes');
        await changed();
        return codes.recoveryCodes;
      },
      /** Creates a passkey on this device (the browser asks the operator) and registers it under `name`. */
      addPasskey: async (name: string) => {
        const options = await apiRequest<Record<string, unknown>>('POST', '/account/passkeys/options');
        const response = await passkeyRegistration(options);
        const passkey = await apiRequest<PasskeyView>('POST', '/account/passkeys', { name, response });
        await changed();
        return passkey;
      },
      removePasskey: async (passkeyId: string) => {
        await apiRequest<void>('DELETE', `/account/passkeys/${encodeURIComponent(passkeyId)}`);
        await changed();
      },
    };
  }, [client]);
}

/** Gives a fresh second factor (step-up); the session's `stepUpUntil` follows. */
export function useStepUp(): (factor: StepUpFactor | 'passkey') => Promise<void> {
  const client = useQueryClient();
  return useCallback(
    async (factor: StepUpFactor | 'passkey') => {
      let body: StepUpFactor;
      if (factor === 'passkey') {
        const { passkey } = await apiRequest<{ passkey: Record<string, unknown> | null }>('POST', '/session/step-up/options');
        if (passkey === null) {
          throw new Error('You have no passkey to use.');
        }
        body = { passkey: await passkeyAssertion(passkey) };
      } else {
        body = factor;
      }
      const { stepUpUntil } = await apiRequest<StepUpView>('POST', '/session/step-up', body);
      client.setQueryData<ConsoleAccountView | null>(queryKeys.session, (session) => (session ? { ...session, stepUpUntil } : session));
    },
    [client],
  );
}
