import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type {
  ConsoleSessionEntryView,
  ConsoleSettingsView,
  CreatedInvitationView,
  InvitationView,
  OperatorStatus,
  OperatorView,
  RoleGrant,
} from '@game-wallet/contracts/console-access';
import { apiRequest } from './client';
import { queryKeys } from './queries';

/** The team: operators, their sessions, invitations, and the instance's settings. */

const operatorPath = (operatorId: string, rest = '') => `/operators/${encodeURIComponent(operatorId)}${rest}`;

export function useOperators() {
  return useQuery({ queryKey: queryKeys.operators, queryFn: async () => (await apiRequest<{ items: OperatorView[] }>('GET', '/operators')).items });
}

/** Changes an operator's grants or status; the list then holds what the platform answered. */
export function useUpdateOperator(operatorId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (change: { grants?: RoleGrant[]; status?: OperatorStatus }) => apiRequest<OperatorView>('PATCH', operatorPath(operatorId), change),
    onSuccess: (updated) => {
      client.setQueryData<OperatorView[]>(queryKeys.operators, (operators) => operators?.map((operator) => (operator.id === updated.id ? updated : operator)));
      if (updated.status === 'suspended') {
        void client.invalidateQueries({ queryKey: queryKeys.operatorSessions(operatorId) });
      }
    },
  });
}

export function useRemoveOperator(operatorId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<void>('DELETE', operatorPath(operatorId)),
    onSuccess: () => {
      client.setQueryData<OperatorView[]>(queryKeys.operators, (operators) => operators?.filter((operator) => operator.id !== operatorId));
      client.removeQueries({ queryKey: queryKeys.operatorSessions(operatorId) });
    },
  });
}

export function useOperatorSessions(operatorId: string) {
  return useQuery({
    queryKey: queryKeys.operatorSessions(operatorId),
    queryFn: async () => (await apiRequest<{ items: ConsoleSessionEntryView[] }>('GET', operatorPath(operatorId, '/sessions'))).items,
  });
}

/** Ends one session of an operator, or (no id) all of them. */
export function useEndOperatorSession(operatorId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (sessionId: string | null) =>
      apiRequest<void>('DELETE', operatorPath(operatorId, sessionId === null ? '/sessions' : `/sessions/${encodeURIComponent(sessionId)}`)),
    onSuccess: (_result, sessionId) => {
      client.setQueryData<ConsoleSessionEntryView[]>(queryKeys.operatorSessions(operatorId), (sessions) =>
        sessionId === null ? [] : sessions?.filter((session) => session.id !== sessionId),
      );
    },
  });
}

export function useInvitations() {
  return useQuery({ queryKey: queryKeys.invitations, queryFn: async () => (await apiRequest<{ items: InvitationView[] }>('GET', '/invitations')).items });
}

/** Strips the link from a new invitation: only the dialog that shows it once may hold it, never a cache. */
export function withoutLink({ link: _link, mailed: _mailed, ...view }: CreatedInvitationView): InvitationView {
  return view;
}

/** Invites an e-mail. Not a cached mutation: the answer's single-use link goes to the caller only. */
export function useCreateInvitation(): (email: string, grants: RoleGrant[]) => Promise<CreatedInvitationView> {
  const client = useQueryClient();
  return useCallback(
    async (email: string, grants: RoleGrant[]) => {
      const created = await apiRequest<CreatedInvitationView>('POST', '/invitations', { email, grants });
      client.setQueryData<InvitationView[]>(queryKeys.invitations, (invitations) => [withoutLink(created), ...(invitations ?? [])]);
      return created;
    },
    [client],
  );
}

export function useRevokeInvitation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (invitationId: string) => apiRequest<void>('DELETE', `/invitations/${encodeURIComponent(invitationId)}`),
    onSuccess: (_result, invitationId) => {
      client.setQueryData<InvitationView[]>(queryKeys.invitations, (invitations) =>
        invitations?.map((invitation) => (invitation.id === invitationId ? { ...invitation, status: 'revoked' } : invitation)),
      );
    },
  });
}

export function useConsoleSettings(enabled = true) {
  return useQuery({ queryKey: queryKeys.settings, queryFn: () => apiRequest<ConsoleSettingsView>('GET', '/settings'), enabled });
}

export function useUpdateConsoleSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (settings: ConsoleSettingsView) => apiRequest<ConsoleSettingsView | undefined>('PUT', '/settings', settings),
    onSuccess: (answer, settings) => {
      client.setQueryData(queryKeys.settings, answer ?? settings);
      void client.invalidateQueries({ queryKey: queryKeys.session });
    },
  });
}
