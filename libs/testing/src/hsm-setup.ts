// Jest setup of the `hsm` project: the wallet and player suites run again with the wallet's master keys in a SoftHSM2
// token of each suite's own (see TestPlatform and softhsm.ts).
process.env.TEST_MASTER_KEY_PROVIDER = 'pkcs11';
