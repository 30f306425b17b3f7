import { RoleGrant } from '@game-wallet/contracts';
import { checkGrants, reachesAll, replaceReachedGrants } from './grants';

const A = '01900000-0000-7000-8000-00000000000a';
const B = '01900000-0000-7000-8000-00000000000b';

describe('team grants', () => {
  const ownerOfA: RoleGrant[] = [{ role: 'owner', gameId: A }];
  const ownerOfAll: RoleGrant[] = [{ role: 'owner', gameId: null }];

  it('takes known roles for a game or every game, without duplicates, at most 100', () => {
    expect(checkGrants([{ role: 'viewer', gameId: A }, { role: 'viewer', gameId: A }, { role: 'admin', gameId: null }])).toEqual([
      { role: 'viewer', gameId: A },
      { role: 'admin', gameId: null },
    ]);
    expect(() => checkGrants([{ role: 'root', gameId: null }])).toThrow('Each grant is');
    expect(() => checkGrants([{ role: 'viewer', gameId: 'a' }])).toThrow('Each grant is');
    expect(() => checkGrants([null])).toThrow('Each grant is');
    expect(() => checkGrants(Array.from({ length: 101 }, () => ({ role: 'viewer', gameId: A })))).toThrow('At most 100 grants');
  });

  it('lets an owner of listed games set only the roles within them, keeping the others', () => {
    const held: RoleGrant[] = [{ role: 'admin', gameId: A }, { role: 'viewer', gameId: B }];
    expect(replaceReachedGrants(ownerOfA, held, [{ role: 'developer', gameId: A }])).toEqual([{ role: 'viewer', gameId: B }, { role: 'developer', gameId: A }]);
    expect(replaceReachedGrants(ownerOfA, held, [])).toEqual([{ role: 'viewer', gameId: B }]);
    expect(() => replaceReachedGrants(ownerOfA, held, [{ role: 'viewer', gameId: B }])).toThrow('You can only give roles in games you own');
    expect(() => replaceReachedGrants(ownerOfA, held, [{ role: 'viewer', gameId: null }])).toThrow('You can only give roles in games you own');
    expect(replaceReachedGrants(ownerOfAll, held, [{ role: 'viewer', gameId: null }])).toEqual([{ role: 'viewer', gameId: null }]);
  });

  it('needs every grant of an operator within reach to remove or suspend them', () => {
    expect(reachesAll(ownerOfA, [{ role: 'admin', gameId: A }])).toBe(true);
    expect(reachesAll(ownerOfA, [{ role: 'admin', gameId: A }, { role: 'viewer', gameId: B }])).toBe(false);
    expect(reachesAll(ownerOfA, [{ role: 'viewer', gameId: null }])).toBe(false);
    expect(reachesAll([{ role: 'admin', gameId: null }], [{ role: 'viewer', gameId: A }])).toBe(false);
    expect(reachesAll(ownerOfAll, [{ role: 'owner', gameId: null }, { role: 'viewer', gameId: B }])).toBe(true);
  });
});
