import { AppError } from './app-error';
import { GamePrincipal, Ownership, requireOwned } from './principal';

interface Thing {
  applicationId: string;
  profileId: string;
}

const THINGS: Ownership<Thing> = { notFound: ['WALLET_NOT_FOUND', 'No wallet with this id'], forbidden: 'Another owner' };
const PROFILE_THINGS: Ownership<Thing> = { ...THINGS, profileOf: (thing) => thing.profileId };
const apiKey = (applicationId: string): GamePrincipal => ({ kind: 'apiKey', applicationId, keyId: 'k1' });
const profile = (applicationId: string, profileId: string): GamePrincipal =>
  ({ kind: 'profile', applicationId, profileId, apiKeyId: 'k1', tokenExpiresAt: 0 });
const codeOf = (run: () => unknown): string | undefined => {
  try {
    run();
    return undefined;
  } catch (error) {
    return error instanceof AppError ? error.code : String(error);
  }
};

describe('requireOwned', () => {
  const thing: Thing = { applicationId: 'game-a', profileId: 'p1' };

  it('answers the not-found code first, whoever asks', () => {
    expect(codeOf(() => requireOwned(null, apiKey('game-b'), THINGS))).toBe('WALLET_NOT_FOUND');
    expect(codeOf(() => requireOwned(undefined, profile('game-a', 'p1'), PROFILE_THINGS))).toBe('WALLET_NOT_FOUND');
  });

  it("refuses another game's resource with 403 FORBIDDEN", () => {
    expect(codeOf(() => requireOwned(thing, apiKey('game-b'), THINGS))).toBe('FORBIDDEN');
    expect(codeOf(() => requireOwned(thing, profile('game-b', 'p1'), PROFILE_THINGS))).toBe('FORBIDDEN');
  });

  it("refuses a profile token another profile's resource of the same game", () => {
    expect(codeOf(() => requireOwned(thing, profile('game-a', 'p2'), PROFILE_THINGS))).toBe('FORBIDDEN');
  });

  it('refuses a profile token a resource that names no profile (API keys only)', () => {
    expect(codeOf(() => requireOwned(thing, profile('game-a', 'p1'), THINGS))).toBe('FORBIDDEN');
  });

  it("gives the game's API key, and the owning profile's token, the resource itself", () => {
    expect(requireOwned(thing, apiKey('game-a'), THINGS)).toBe(thing);
    expect(requireOwned(thing, profile('game-a', 'p1'), PROFILE_THINGS)).toBe(thing);
  });
});
