/**
 * Who is calling, as established by the gateway. It travels with every message so that every service query can be
 * scoped by it. A service never trusts an id from a request body over the principal.
 */
export type Principal =
  | { kind: 'apiKey'; applicationId: string; keyId: string }
  | { kind: 'profile'; applicationId: string; profileId: string }
  | { kind: 'operator'; operatorId: string; sessionId: string }
  | { kind: 'system' };

/** How a principal is named in the audit trail (never a secret). */
export function actorOf(principal: Principal): string {
  switch (principal.kind) {
    case 'apiKey':
      return `api-key:${principal.keyId}`;
    case 'profile':
      return `profile:${principal.profileId}`;
    case 'operator':
      return `operator:${principal.operatorId}`;
    case 'system':
      return 'system';
  }
}

/** The game a principal acts for; operators and the system act for none. */
export function applicationOf(principal: Principal): string | undefined {
  return principal.kind === 'apiKey' || principal.kind === 'profile' ? principal.applicationId : undefined;
}
