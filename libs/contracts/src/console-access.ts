/**
 * Who may do what in the console: the operators' roles and the one table of what each role may do. Identity enforces
 * it for every console pattern (the wallet and core services ask identity with `identity.console.authorize`); the
 * gateway and the console read the same table only to show or hide what an operator cannot do.
 */

/** The console roles, from the most to the least trusted. */
export const CONSOLE_ROLES = ['owner', 'admin', 'developer', 'support', 'viewer'] as const;
export type ConsoleRole = (typeof CONSOLE_ROLES)[number];

export function isConsoleRole(value: unknown): value is ConsoleRole {
  return typeof value === 'string' && (CONSOLE_ROLES as readonly string[]).includes(value);
}

/** A role for every game of the instance (`gameId: null`) or for one game. */
export interface RoleGrant {
  role: ConsoleRole;
  gameId: string | null;
}

/** What a permission needs besides the role. */
export interface PermissionRule {
  roles: readonly ConsoleRole[];
  /**
   * `instance`: only a grant for every game counts (the permission is not about one game: creating a game, the
   * instance's settings). `game`: a grant for every game or for the game the request names.
   */
  scope: 'game' | 'instance' | 'team';
  /** Needs a second factor (or, for an operator without one, the password) given within the last 5 minutes. */
  stepUp: boolean;
  /** What the README's table says of it. */
  summary: string;
}

const EVERYONE: readonly ConsoleRole[] = CONSOLE_ROLES;
const READERS: readonly ConsoleRole[] = ['owner', 'admin', 'developer', 'viewer'];
const DEVELOPERS: readonly ConsoleRole[] = ['owner', 'admin', 'developer'];
const ADMINS: readonly ConsoleRole[] = ['owner', 'admin'];
const OWNERS: readonly ConsoleRole[] = ['owner'];

/**
 * The one table of console permissions. `team` scope: an owner of every game manages every operator; an owner of
 * listed games sees the operators with a grant in one of them and manages only grants within the games they own.
 * Every operator manages their own account (password, second factors, sessions) without a permission.
 */
export const CONSOLE_PERMISSIONS = {
  'games.read': { roles: EVERYONE, scope: 'game', stepUp: false, summary: 'see the game (its name and id)' },
  'games.create': { roles: ADMINS, scope: 'instance', stepUp: false, summary: 'create games' },
  'apiKeys.read': { roles: READERS, scope: 'game', stepUp: false, summary: 'list API keys (names, previews, states; never a secret)' },
  'apiKeys.create': { roles: DEVELOPERS, scope: 'game', stepUp: true, summary: 'create an API key' },
  'apiKeys.update': { roles: DEVELOPERS, scope: 'game', stepUp: false, summary: 'activate or deactivate an API key' },
  'apiKeys.delete': { roles: DEVELOPERS, scope: 'game', stepUp: true, summary: 'delete an API key' },
  'apiKeys.signing': {
    roles: DEVELOPERS,
    scope: 'game',
    stepUp: true,
    summary: "register or remove an API key's request-signing keys; require signatures or not",
  },
  'webhooks.read': { roles: READERS, scope: 'game', stepUp: false, summary: 'see webhook endpoints and their delivery log (never a secret)' },
  'webhooks.manage': { roles: DEVELOPERS, scope: 'game', stepUp: true, summary: 'add, change, delete webhook endpoints; rotate their secrets' },
  'webhooks.deliver': { roles: DEVELOPERS, scope: 'game', stepUp: false, summary: 'send a test event; redeliver events' },
  'players.read': { roles: EVERYONE, scope: 'game', stepUp: false, summary: 'look up players and their wallet addresses' },
  'audit.read': { roles: EVERYONE, scope: 'game', stepUp: false, summary: "read the game's audit trail" },
  'policy.read': { roles: READERS, scope: 'game', stepUp: false, summary: 'read the signing policy, its versions and draft; dry runs and replays' },
  'policy.draft': { roles: ADMINS, scope: 'game', stepUp: false, summary: 'save or discard a draft of the signing policy (it decides nothing)' },
  'policy.write': { roles: ADMINS, scope: 'game', stepUp: true, summary: 'change the signing policy (save a version, activate the draft)' },
  'operators.read': { roles: OWNERS, scope: 'team', stepUp: false, summary: 'see the team: operators, their roles and invitations' },
  'operators.manage': { roles: OWNERS, scope: 'team', stepUp: true, summary: "invite, change roles, suspend, remove, end others' sessions" },
  'settings.manage': { roles: OWNERS, scope: 'instance', stepUp: true, summary: 'require two factors for every operator' },
} as const satisfies Record<string, PermissionRule>;

export type ConsolePermission = keyof typeof CONSOLE_PERMISSIONS;

export function isConsolePermission(value: unknown): value is ConsolePermission {
  return typeof value === 'string' && Object.hasOwn(CONSOLE_PERMISSIONS, value);
}

/** How long a second factor (or a step-up) counts as fresh for the permissions that need it. */
export const STEP_UP_WINDOW_MS = 5 * 60_000;

/** The roles of `grants` that apply to `gameId` (null: the grants for every game only). */
export function rolesFor(grants: readonly RoleGrant[], gameId: string | null): Set<ConsoleRole> {
  return new Set(grants.filter((grant) => grant.gameId === null || (gameId !== null && grant.gameId === gameId)).map((grant) => grant.role));
}

/**
 * Whether `grants` allow `permission` (for `gameId` when the permission is about a game). Fails closed: an unknown
 * permission or role allows nothing. Step-up is checked apart ({@link CONSOLE_PERMISSIONS}`[p].stepUp`).
 */
export function grantsAllow(grants: readonly RoleGrant[], permission: ConsolePermission, gameId: string | null = null): boolean {
  const rule: PermissionRule | undefined = CONSOLE_PERMISSIONS[permission];
  if (rule === undefined) {
    return false;
  }
  const roles = rolesFor(grants, rule.scope === 'game' ? gameId : null);
  if (rule.scope === 'team') {
    // Any owner grant opens the team pages; which operators it reaches is decided per operator.
    grants.filter((grant) => grant.gameId !== null).forEach((grant) => roles.add(grant.role));
  }
  return rule.roles.some((role) => roles.has(role));
}

/** The permissions `grants` give for `gameId`, in the table's order (what the console shows or hides). */
export function permissionsFor(grants: readonly RoleGrant[], gameId: string | null): ConsolePermission[] {
  return (Object.keys(CONSOLE_PERMISSIONS) as ConsolePermission[]).filter((permission) => grantsAllow(grants, permission, gameId));
}

/** Whether an owner with `ownerGrants` may give or take away `grant`: an owner of every game any, else only within their games. */
export function ownerReaches(ownerGrants: readonly RoleGrant[], grant: RoleGrant): boolean {
  const owns = ownerGrants.filter((held) => held.role === 'owner');
  return owns.some((held) => held.gameId === null || (grant.gameId !== null && held.gameId === grant.gameId));
}

export type OperatorStatus = 'active' | 'suspended';

/** An operator as the Team page shows them. */
export interface OperatorView {
  id: string;
  email: string;
  displayName: string;
  status: OperatorStatus;
  grants: RoleGrant[];
  twoFactor: { totp: boolean; passkeys: number };
  createdAt: string;
  lastSignInAt: string | null;
}

/** The signed-in operator, their grants and second factors (what `GET /v1/console/session` answers). */
export interface ConsoleAccountView {
  operator: { id: string; email: string; displayName: string; grants: RoleGrant[] };
  /** the session's end */
  expiresAt: string;
  sessionId: string;
  twoFactor: { totp: boolean; passkeys: PasskeyView[]; recoveryCodesLeft: number; required: boolean };
  /** until when step-up actions need no new second factor (null: they need one now) */
  stepUpUntil: string | null;
}

export interface PasskeyView {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/** A console session, as its operator (or an owner) lists it. */
export interface ConsoleSessionEntryView {
  id: string;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
  /** the client address the gateway saw at sign-in */
  ip: string | null;
  userAgent: string | null;
  /** the session this list was asked from */
  current: boolean;
}

/** Step 1 of a sign-in with a second factor: the password was right; the second factor completes it. */
export interface SecondFactorChallengeView {
  secondFactor: {
    /** single use, 5 minutes: sent back with the second factor to `POST /v1/console/session/second-factor` */
    challenge: string;
    methods: ('totp' | 'recovery-code' | 'passkey')[];
    /** WebAuthn request options (PublicKeyCredentialRequestOptionsJSON) when the operator has passkeys */
    passkey: Record<string, unknown> | null;
    expiresAt: string;
  };
}

/** A second factor as a request carries it: a TOTP code, a recovery code, a passkey's assertion or (step-up of an operator without a second factor) the password. */
export type SecondFactorInput =
  | { totp: string }
  | { recoveryCode: string }
  | { passkey: Record<string, unknown> };

export interface StepUpView {
  stepUpUntil: string;
}

export interface TotpEnrollmentView {
  /** base32, for entering by hand */
  secret: string;
  /** `otpauth://totp/…`, what the QR code holds */
  uri: string;
}

/** Ten single-use recovery codes, shown once (stored hashed). */
export interface RecoveryCodesView {
  recoveryCodes: string[];
}

export interface InvitationView {
  id: string;
  email: string;
  grants: RoleGrant[];
  invitedBy: string;
  createdAt: string;
  expiresAt: string;
  status: 'pending' | 'accepted' | 'revoked' | 'expired';
}

/** A new invitation: `link` holds the single-use token and is shown this one time only. */
export interface CreatedInvitationView extends InvitationView {
  link: string;
  /** whether the link was also sent by e-mail (SMTP configured) */
  mailed: boolean;
}

/** What the invitation page shows before the invitee sets a password. */
export interface InvitationPreview {
  email: string;
  grants: RoleGrant[];
  expiresAt: string;
}

export interface ConsoleSettingsView {
  /** every operator must have a second factor (those without one can only set one up) */
  requireTwoFactor: boolean;
}

/** Where a WebAuthn ceremony happens: the console's origin and its relying-party id (the host), as the gateway serves it. */
export interface WebAuthnOrigin {
  origin: string;
  rpId: string;
}
