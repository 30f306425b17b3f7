export * from './app-error';
export * from './envelope';
export * from './error-codes';
export * from './patterns';
export * from './principal';
export * from './services';
