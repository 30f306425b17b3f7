import type { InvitationView, OperatorView } from '@game-wallet/contracts/console-access';

/** An operator's second factors in words. */
export function describeTwoFactor(twoFactor: OperatorView['twoFactor']): string {
  const parts = [twoFactor.totp ? 'authenticator app' : null, twoFactor.passkeys === 0 ? null : twoFactor.passkeys === 1 ? '1 passkey' : `${twoFactor.passkeys} passkeys`].filter(
    (part): part is string => part !== null,
  );
  if (parts.length === 0) {
    return 'None';
  }
  const text = parts.join(' and ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export const INVITATION_STATUS: Record<InvitationView['status'], string> = { pending: 'Pending', accepted: 'Accepted', revoked: 'Revoked', expired: 'Expired' };
