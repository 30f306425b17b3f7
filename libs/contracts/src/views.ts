/**
 * The wire views of the public and console APIs, as types only and free of Node.js: what a browser client (the web
 * console) may share with the server. Imported as `@game-wallet/contracts/views`.
 */
export type * from './identity';
export type * from './wallet';
export type * from './signing-rules';
export type * from './console-access';
