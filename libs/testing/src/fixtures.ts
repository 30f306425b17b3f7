import { PATTERNS, PlayerView, ProfileView } from '@game-wallet/contracts';
import { http } from './http';
import { TEST_OPERATOR, TestPlatform } from './platform';
import { steppedUpCall } from './step-up';

export interface GameFixture {
  gameId: string;
  key: string;
  keyId: string;
}

/** Signs the test operator in; returns the console token. */
export async function consoleToken(platform: TestPlatform): Promise<string> {
  const response = await http<{ token: string }>('POST', `${platform.baseUrl}/v1/console/session`, { body: TEST_OPERATOR });
  if (response.status !== 200) {
    throw new Error(`console sign-in failed: ${response.status} ${JSON.stringify(response.body)}`);
  }
  return response.body.token;
}

/** A new game with one active API key, made through the console API. */
export async function createGame(platform: TestPlatform, token: string, name = 'Test game'): Promise<GameFixture> {
  const game = await http<{ id: string }>('POST', `${platform.baseUrl}/v1/console/games`, { bearer: token, body: { name } });
  const key = await createKey(platform, token, game.body.id);
  return { gameId: game.body.id, ...key };
}

export async function createKey(platform: TestPlatform, token: string, gameId: string, name = 'test key'): Promise<{ key: string; keyId: string }> {
  const response = await steppedUpCall<{ key: string; id: string }>(platform, token, 'POST', `${platform.baseUrl}/v1/console/games/${gameId}/api-keys`, { name });
  if (response.status !== 201) {
    throw new Error(`key creation failed: ${response.status} ${JSON.stringify(response.body)}`);
  }
  return { key: response.body.key, keyId: response.body.id };
}

/**
 * A profile in the game, made the way player creation makes it (identity's create-or-get, asked as core, with the
 * game's key as principal). `keyId` and `applicationId` come from the fixture.
 */
export async function createProfile(platform: TestPlatform, game: GameFixture, externalKey = `player-${Math.random()}`): Promise<ProfileView> {
  const client = await platform.transportClient('core');
  try {
    return await client.call(PATTERNS.identity.createOrGetProfile, {
      payload: { externalKey },
      principal: { kind: 'apiKey', applicationId: game.gameId, keyId: game.keyId },
    });
  } finally {
    await client.close();
  }
}

/** A profile JWT obtained through the public route. */
export async function profileJwt(platform: TestPlatform, profileId: string, key: string, duration?: number | null): Promise<string> {
  const response = await http<{ jwt: string }>('POST', `${platform.baseUrl}/v1/profile/${profileId}/authenticate`, {
    apiKey: key,
    body: duration === undefined ? {} : { duration },
  });
  if (response.status !== 200) {
    throw new Error(`authenticate failed: ${response.status} ${JSON.stringify(response.body)}`);
  }
  return response.body.jwt;
}

/** A player made through the public route; returns the record. */
export async function createPlayer(platform: TestPlatform, key: string, uniqueId = `player-${Math.random()}`): Promise<PlayerView> {
  const response = await http<PlayerView>('POST', `${platform.coreUrl}/v1/player/create`, { apiKey: key, body: { uniqueId } });
  if (response.status !== 201 && response.status !== 200) {
    throw new Error(`player creation failed: ${response.status} ${JSON.stringify(response.body)}`);
  }
  return response.body;
}

/** The wallet of a profile made the way player creation makes it (the wallet service's create-or-get, asked as core). */
export async function createWallet(platform: TestPlatform, game: GameFixture, profileId: string): Promise<string> {
  const client = await platform.transportClient('core');
  try {
    const { walletId } = await client.call(PATTERNS.wallet.createOrGetWallet, {
      payload: { profileId },
      principal: { kind: 'apiKey', applicationId: game.gameId, keyId: game.keyId },
    });
    return walletId;
  } finally {
    await client.close();
  }
}
