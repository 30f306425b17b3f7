/**
 * Who is calling, as established by the gateway. It travels with every message so that every service query can be
 * scoped by it. A service never trusts an id from a request body over the principal.
 */
export type Principal =
  | { kind: 'apiKey'; applicationId: string; keyId: string }
  | { kind: 'profile'; applicationId: string; profileId: string }
  | { kind: 'operator'; operatorId: string }
  | { kind: 'system' };
