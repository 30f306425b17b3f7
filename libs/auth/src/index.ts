/** Gateway authentication: the `@Authenticated()` decorator, the global guard and what backs them. */
export * from './api-key-resolver';
export * from './auth.guard';
export * from './authenticated.decorator';
export * from './credentials';
export * from './gateway-auth';
export * from './rate-limiter';
export * from './token-verifier';
export * from './request-signature';
