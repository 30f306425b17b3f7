// Starting the platform on this machine, one way for `npm start`, the test platform, the drill, the soak and the
// benchmarks. The scripts load the compiled copy (`dist/out-tsc/libs/testing/src/launch`, `nx run tools:compile`).
export * from './image-runtime';
export * from './launcher';
export * from './ports';
export * from './processes';
