import { Inject, Injectable } from '@nestjs/common';
import { PolicyRule, VelocityCriterion, serviceUnavailable } from '@game-wallet/contracts';
import { APP_REDIS } from '@game-wallet/http';
import { velocityKey } from '@game-wallet/transport';
import { createHash } from 'node:crypto';
import Redis from 'ioredis';
import { WalletConfig } from '../config';
import { WALLET_CONFIG } from '../wallet-config.token';
import { CriterionOutcome, SigningFacts } from '../chains/chain-signer';

/**
 * Velocity limits (SPEC §11): at most N accepted signatures and/or V of the chain's native unit moved per wallet,
 * profile or game in a sliding window, counted in Redis so every replica shares one count. A window is kept as 60
 * buckets (a hash per counter: `c<bucket>` signatures, `v<bucket>` native units as decimal digits, added in Lua as
 * strings, since wei overflow Lua's numbers); a signature counts in the buckets of the last window. Counting and
 * checking are one script over every counter of the rule, on Redis's clock, so parallel requests on any number of
 * replicas can never take more than the limit. Redis unavailable: 503, never an unchecked signature.
 */

const BUCKETS = 60;

/**
 * KEYS: the counters. ARGV[1] reserve (1) or only check (0); ARGV[2] the amount this signature moves (decimal);
 * then per key: window ms, max count (-1: none), max value (decimal, or '' for none).
 * Returns {1} when every counter has room (and, reserving, counts it), else {0, index, count, value} of the first
 * counter without room.
 */
const RESERVE = `
local function add(a, b)
  local result, carry = {}, 0
  local i, j = #a, #b
  while i > 0 or j > 0 or carry > 0 do
    local digit = carry + (i > 0 and tonumber(a:sub(i, i)) or 0) + (j > 0 and tonumber(b:sub(j, j)) or 0)
    table.insert(result, 1, tostring(digit % 10))
    carry = math.floor(digit / 10)
    i, j = i - 1, j - 1
  end
  local text = table.concat(result):gsub('^0+', '')
  return text == '' and '0' or text
end
local function greater(a, b)
  if #a ~= #b then return #a > #b end
  return a > b
end
local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)
local amount = ARGV[2]
local sums = {}
for index, key in ipairs(KEYS) do
  local window = tonumber(ARGV[3 * index])
  local maxCount = tonumber(ARGV[3 * index + 1])
  local maxValue = ARGV[3 * index + 2]
  local size = math.ceil(window / ${BUCKETS})
  local current = math.floor(now / size)
  local count, value = 0, '0'
  local fields = redis.call('HGETALL', key)
  for f = 1, #fields, 2 do
    local bucket = tonumber(fields[f]:sub(2))
    if bucket <= current - ${BUCKETS} then
      redis.call('HDEL', key, fields[f])
    elseif fields[f]:sub(1, 1) == 'c' then
      count = count + tonumber(fields[f + 1])
    else
      value = add(value, fields[f + 1])
    end
  end
  if (maxCount >= 0 and count + 1 > maxCount) or (maxValue ~= '' and greater(add(value, amount), maxValue)) then
    return {0, index, count, value}
  end
  sums[index] = {current, window}
end
if ARGV[1] == '1' then
  for index, key in ipairs(KEYS) do
    local bucket = sums[index][1]
    redis.call('HINCRBY', key, 'c' .. bucket, 1)
    if amount ~= '0' then
      redis.call('HSET', key, 'v' .. bucket, add(redis.call('HGET', key, 'v' .. bucket) or '0', amount))
    end
    redis.call('PEXPIRE', key, sums[index][2] + 60000)
  end
end
return {1}
`;

type VelocityRedis = Redis & { velocityReserve(keys: number, ...args: (string | number)[]): Promise<[number, number?, number?, string?]> };

/** Who a velocity limit counts for: the wallet, its player's profile, or the game. */
export interface VelocitySubject {
  gameId: string;
  walletId: string;
  profileId: string;
}

@Injectable()
export class VelocityLimits {
  private readonly redis: VelocityRedis;

  constructor(@Inject(APP_REDIS) redis: Redis, @Inject(WALLET_CONFIG) private readonly config: WalletConfig) {
    redis.defineCommand('velocityReserve', { lua: RESERVE });
    this.redis = redis as VelocityRedis;
  }

  /**
   * Whether the rule's velocity criteria all have room for this signature; with `reserve`, counts it in each, in the
   * same script. The criterion without room, with what it observed, when one has none.
   */
  async check(rule: PolicyRule, criteria: VelocityCriterion[], subject: VelocitySubject, facts: SigningFacts, reserve: boolean): Promise<{ criterion: VelocityCriterion; outcome: CriterionOutcome } | undefined> {
    if (criteria.length === 0) {
      return undefined;
    }
    const needsValue = criteria.some((criterion) => criterion.maxValue !== undefined);
    if (needsValue && facts.nativeValue === null) {
      return { criterion: criteria.find((criterion) => criterion.maxValue !== undefined) as VelocityCriterion, outcome: { result: 'unknown', observed: 'the native value this moves cannot be counted' } };
    }
    const keys = criteria.map((criterion, index) => this.keyOf(rule, criterion, index, subject, facts));
    // The script compares decimal strings by length first: a bound is given without leading zeros ("0010" is 10).
    const args = criteria.flatMap((criterion) => [criterion.windowSeconds * 1000, criterion.maxCount ?? -1, criterion.maxValue === undefined ? '' : BigInt(criterion.maxValue).toString()]);
    let answer: [number, number?, number?, string?];
    try {
      answer = await this.redis.velocityReserve(keys.length, ...keys, reserve ? '1' : '0', facts.nativeValue ?? '0', ...args);
    } catch {
      throw serviceUnavailable('The velocity limits cannot be counted: Redis is unavailable');
    }
    if (answer[0] === 1) {
      return undefined;
    }
    const criterion = criteria[(answer[1] as number) - 1];
    const count = answer[2] ?? 0;
    return {
      criterion,
      outcome: { result: 'fails', observed: `${count} signatures${criterion.maxValue === undefined ? '' : ` moving ${answer[3]}`} in the window, and this one ${facts.nativeValue ?? '0'}` },
    };
  }

  /** One counter: the game, the rule and criterion (by the rule's id and the criterion's own terms), the subject, and for a value limit the chain. */
  private keyOf(rule: PolicyRule, criterion: VelocityCriterion, index: number, subject: VelocitySubject, facts: SigningFacts): string {
    const id = { wallet: subject.walletId, profile: subject.profileId, game: subject.gameId }[criterion.scope];
    const terms = createHash('sha256').update(JSON.stringify([rule.id, index, criterion.windowSeconds])).digest('base64url').slice(0, 16);
    // Signatures count across chains; a value limit counts each chain's native unit apart (wei are not lamports).
    return velocityKey(this.config.keyPrefix, subject.gameId, `${terms}:${criterion.scope}:${id}:${criterion.maxValue === undefined ? 'any' : facts.chain}`);
  }
}
