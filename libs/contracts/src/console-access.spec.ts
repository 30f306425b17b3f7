import { CONSOLE_PERMISSIONS, CONSOLE_ROLES, ConsolePermission, RoleGrant, grantsAllow, ownerReaches, permissionsFor } from './console-access';

const GAME = '0198a0c0-0000-7000-8000-000000000001';
const OTHER = '0198a0c0-0000-7000-8000-000000000002';

describe(grantsAllow.name, () => {
  it('follows the table: viewer reads but writes nothing; support reads players and audit only; developer manages keys and webhooks; admin changes the policy; owner manages the team', () => {
    const allowed = (role: RoleGrant['role']) => permissionsFor([{ role, gameId: GAME }], GAME);
    expect(allowed('viewer')).toEqual(['games.read', 'apiKeys.read', 'webhooks.read', 'players.read', 'audit.read', 'policy.read']);
    expect(allowed('support')).toEqual(['games.read', 'players.read', 'audit.read']);
    expect(allowed('developer')).toEqual([
      'games.read',
      'apiKeys.read',
      'apiKeys.create',
      'apiKeys.update',
      'apiKeys.delete',
      'apiKeys.signing',
      'webhooks.read',
      'webhooks.manage',
      'webhooks.deliver',
      'players.read',
      'audit.read',
      'policy.read',
    ]);
    expect(allowed('admin')).toEqual([...allowed('developer'), 'policy.draft', 'policy.write']);
    expect(allowed('owner')).toEqual([...allowed('admin'), 'operators.read', 'operators.manage']);
  });

  it('gives a grant for one game nothing on another game, and nothing that is about the whole instance', () => {
    const grants: RoleGrant[] = [{ role: 'owner', gameId: GAME }];
    expect(grantsAllow(grants, 'apiKeys.read', OTHER)).toBe(false);
    expect(grantsAllow(grants, 'games.create')).toBe(false);
    expect(grantsAllow(grants, 'settings.manage')).toBe(false);
    expect(grantsAllow([{ role: 'owner', gameId: null }], 'settings.manage')).toBe(true);
    expect(grantsAllow([{ role: 'admin', gameId: null }], 'apiKeys.delete', OTHER)).toBe(true);
  });

  it('unites the grants that apply: support of every game and admin of one game', () => {
    const grants: RoleGrant[] = [
      { role: 'support', gameId: null },
      { role: 'admin', gameId: GAME },
    ];
    expect(grantsAllow(grants, 'policy.write', GAME)).toBe(true);
    expect(grantsAllow(grants, 'policy.write', OTHER)).toBe(false);
    expect(grantsAllow(grants, 'players.read', OTHER)).toBe(true);
  });

  it('fails closed on what it does not know: an unknown permission or role allows nothing', () => {
    expect(grantsAllow([{ role: 'owner', gameId: null }], 'everything' as ConsolePermission, GAME)).toBe(false);
    expect(grantsAllow([{ role: 'root' as RoleGrant['role'], gameId: null }], 'games.read', GAME)).toBe(false);
    expect(grantsAllow([], 'games.read', GAME)).toBe(false);
  });

  it('needs a step-up exactly for creating and deleting API keys, changing their request signing, managing webhook endpoints, changing the policy, managing operators and the settings', () => {
    const stepUp = (Object.keys(CONSOLE_PERMISSIONS) as ConsolePermission[]).filter((permission) => CONSOLE_PERMISSIONS[permission].stepUp);
    expect(stepUp).toEqual(['apiKeys.create', 'apiKeys.delete', 'apiKeys.signing', 'webhooks.manage', 'policy.write', 'operators.manage', 'settings.manage']);
    expect(CONSOLE_ROLES).toEqual(['owner', 'admin', 'developer', 'support', 'viewer']);
  });
});

describe(ownerReaches.name, () => {
  it('lets an owner of every game give any grant, and an owner of one game only grants within it', () => {
    expect(ownerReaches([{ role: 'owner', gameId: null }], { role: 'owner', gameId: null })).toBe(true);
    expect(ownerReaches([{ role: 'owner', gameId: GAME }], { role: 'viewer', gameId: GAME })).toBe(true);
    expect(ownerReaches([{ role: 'owner', gameId: GAME }], { role: 'viewer', gameId: OTHER })).toBe(false);
    expect(ownerReaches([{ role: 'owner', gameId: GAME }], { role: 'viewer', gameId: null })).toBe(false);
    expect(ownerReaches([{ role: 'admin', gameId: null }], { role: 'viewer', gameId: GAME })).toBe(false);
  });
});
