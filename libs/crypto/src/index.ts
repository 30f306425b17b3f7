export * from './aes-gcm';
export * from './dev-secret';
export * from './compact-jwt';
export * from './sealed-box';
export * from './audit-chain';
