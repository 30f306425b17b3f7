import { z } from 'zod';
import { envDocs } from './env-docs';

/**
 * `JWT_ISSUER`, read by identity (which signs) and the gateway (which verifies). In a file of its own, so that only
 * the apps that read it name it (tools/deploy-check follows the names a config uses to the files that define them).
 */
export const jwtIssuerEnvShape = {
  JWT_ISSUER: z.preprocess((value) => (value === '' ? undefined : value), z.string().max(200).default('game-wallet')).register(envDocs, {
    description:
      'The issuer (`iss`) of profile JWTs: identity signs with it, and the gateway accepts only tokens that carry it, ' +
      'so both must have the same. Text, at most 200 characters.',
  }),
};
