import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const PACKAGE = resolve(__dirname, '../../../dist/libs/sdk');
const TSC = resolve(__dirname, '../../../node_modules/typescript/bin/tsc');

/** The package `nx build sdk` makes, as a game backend installs it: its own files only, from ESM, CommonJS and TypeScript. */
describe('@game-wallet/sdk as built', () => {
  const manifest = JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8')) as Record<string, unknown>;

  it('depends on nothing and ships only what its exports name', () => {
    expect(manifest.name).toBe('@game-wallet/sdk');
    expect(manifest.dependencies).toBeUndefined();
    expect(manifest.files).toEqual(['index.js', 'index.cjs', 'index.d.ts', 'index.d.cts', 'README.md']);
    const declarations = readFileSync(join(PACKAGE, 'index.d.ts'), 'utf8');
    expect(declarations).not.toMatch(/from ['"](?!\.)/);
  });

  it.each([
    ['CommonJS', `const sdk = require(${JSON.stringify(join(PACKAGE, 'index.cjs'))}); console.log(Object.keys(sdk).sort().join(','))`, []],
    ['ESM', `import(${JSON.stringify(join(PACKAGE, 'index.js'))}).then((sdk) => console.log(Object.keys(sdk).sort().join(',')))`, ['--input-type=module']],
  ])('loads from %s with its classes, the offline verifier and the request signers', (_, script, flags) => {
    const output = execFileSync(process.execPath, [...flags, '-e', script], { encoding: 'utf8' }).trim();
    expect(output).toBe('ConsoleClient,GameWallet,GameWalletError,ProfileClient,ProfileTokenVerifier,requestSignerFromCryptoKey,requestSignerFromPem,requestSigningKeyId,verifyProfileJwt');
  });

  it('type-checks in a strict TypeScript project that has nothing else installed, where a verifier without its game does not', () => {
    const project = mkdtempSync(join(tmpdir(), 'gwt-sdk-consumer-'));
    try {
      mkdirSync(join(project, 'node_modules', '@game-wallet'), { recursive: true });
      symlinkSync(PACKAGE, join(project, 'node_modules', '@game-wallet', 'sdk'));
      writeFileSync(
        join(project, 'tsconfig.json'),
        JSON.stringify({ compilerOptions: { strict: true, noEmit: true, module: 'node16', moduleResolution: 'node16', target: 'es2022', lib: ['es2022', 'dom'], types: [] }, files: ['game.mts'] }),
      );
      writeFileSync(
        join(project, 'game.mts'),
        [
          "import { GameWallet, GameWalletError, ProfileTokenVerifier, requestSignerFromCryptoKey, requestSignerFromPem, requestSigningKeyId, type PlayerView, type RequestSigner } from '@game-wallet/sdk';",
          "const gw = new GameWallet({ baseUrl: 'http://localhost:3000', coreUrl: 'http://localhost:3001', apiKey: 'gk_x' });",
          "export async function run(): Promise<string> {",
          "  const { player }: { player: PlayerView } = await gw.players.create({ uniqueId: 'p1' });",
          "  try { return (await gw.wallets.sign(player.walletId, { chain: 'evm', message: 'hi' })).signature; }",
          "  catch (error) { if (error instanceof GameWalletError) { return error.details?.ruleId ?? error.code; } throw error; }",
          '}',
          '// A browser CryptoKeyPair (the DOM types) signs, as a PEM does; a write may carry its own Idempotency-Key.',
          'export async function signed(pem: string, pair: CryptoKeyPair): Promise<string> {',
          '  const signer: RequestSigner = await requestSignerFromPem(pem);',
          '  const fromKeys = await requestSignerFromCryptoKey(pair.privateKey, pair.publicKey);',
          "  const client = new GameWallet({ baseUrl: 'http://localhost:3000', coreUrl: 'http://localhost:3001', apiKey: 'gk_x', requestSigner: signer });",
          "  await client.players.create({ uniqueId: 'p2' }, { idempotencyKey: 'create-p2' });",
          '  return requestSigningKeyId(fromKeys.publicJwk);',
          '}',
          "const operator = GameWallet.forConsole({ baseUrl: 'http://localhost:3000', token: 'console-token' });",
          "export const policy = operator.signingPolicy.put('g', { rules: [{ id: 'short', action: 'accept', operation: 'message', criteria: [{ type: 'messageLength', operator: '<=', value: '200' }] }] }, { ifMatch: 0 });",
          '// @ts-expect-error -- a criterion has its own fields',
          "export const wrong = operator.signingPolicy.draft.put('g', { rules: [{ id: 'r', action: 'accept', operation: 'message', criteria: [{ type: 'messageLength', values: ['1'] }] }] });",
          "export const verifier = new ProfileTokenVerifier({ baseUrl: 'http://localhost:3000', app: 'game-id' });",
          "export const several = new ProfileTokenVerifier({ baseUrl: 'http://localhost:3000', app: ['game-1', 'game-2'] });",
          "export const anyGame = new ProfileTokenVerifier({ baseUrl: 'http://localhost:3000', acceptAnyApp: true });",
          '// @ts-expect-error -- the expected game is required',
          "export const unchecked = new ProfileTokenVerifier({ baseUrl: 'http://localhost:3000' });",
          '// @ts-expect-error -- a game, or every game, not both',
          "export const both = new ProfileTokenVerifier({ baseUrl: 'http://localhost:3000', app: 'game-id', acceptAnyApp: true });",
        ].join('\n'),
      );
      execFileSync(process.execPath, [TSC, '-p', project], { encoding: 'utf8' });
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });
});
