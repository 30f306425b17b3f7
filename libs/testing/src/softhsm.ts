import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from './launch/processes';

/** Debian's SoftHSM2 (`apt-get install softhsm2`): a real PKCS#11 token, kept in files. */
export const SOFTHSM_MODULE = '/usr/lib/softhsm/libsofthsm2.so';

/** Set by jest.config.js: the test run's own SoftHSM2 token store, which the test processes themselves can use. */
export const RUN_SOFTHSM_FOLDER = 'GWT_SOFTHSM_FOLDER';

/** A folder holding a SoftHSM2 configuration whose token store is its `tokens` subfolder. */
export function makeSoftHsmFolder(folder: string): string {
  mkdirSync(join(folder, 'tokens'), { recursive: true });
  const conf = join(folder, 'softhsm2.conf');
  writeFileSync(conf, `directories.tokendir = ${join(folder, 'tokens')}\nobjectstore.backend = file\nlog.level = ERROR\nslots.removable = false\n`);
  return conf;
}

/**
 * A SoftHSM2 token of a suite's own, initialised with a random PIN and label, never in the machine's default token
 * store: in the test run's private store (its `SOFTHSM2_CONF` is set for every test process before Jest starts them,
 * as a PKCS#11 library reads it from the real environment, which a test cannot change), or with `ownFolder` in a
 * folder of its own, which {@link takeAway} can remove. Keys are made with the wallet's `hsm-create-key` command.
 */
export class SoftHsmToken {
  readonly pin = randomBytes(8).toString('hex');
  private readonly tokens: string;

  private constructor(
    readonly conf: string,
    readonly label: string,
    private readonly ownFolder?: string,
  ) {
    this.tokens = join(conf, '..', 'tokens');
  }

  static create(options: { ownFolder?: boolean } = {}): SoftHsmToken {
    if (!existsSync(SOFTHSM_MODULE)) {
      throw new Error(`SoftHSM2 is not installed (${SOFTHSM_MODULE}): apt-get install -y --no-install-recommends softhsm2`);
    }
    const label = `wallet-${randomBytes(6).toString('hex')}`;
    const runFolder = process.env[RUN_SOFTHSM_FOLDER];
    const token =
      options.ownFolder || !runFolder
        ? (() => {
            const folder = mkdtempSync(join(tmpdir(), 'gwt-softhsm-'));
            return new SoftHsmToken(makeSoftHsmFolder(folder), label, folder);
          })()
        : new SoftHsmToken(join(runFolder, 'softhsm2.conf'), label);
    token.util('--init-token', '--free', '--label', label, '--pin', token.pin, '--so-pin', randomBytes(8).toString('hex'));
    return token;
  }

  /** What a process needs to use this token (the wallet service, its commands, a test's own PKCS#11 session). */
  get env(): Record<string, string> {
    return { SOFTHSM2_CONF: this.conf, PKCS11_MODULE: SOFTHSM_MODULE, PKCS11_TOKEN_LABEL: this.label, PKCS11_PIN: this.pin };
  }

  /** The wallet service's environment with this token's key `keyLabel` as the current master key. */
  walletEnv(keyLabel: string): Record<string, string> {
    return { ...this.env, WALLET_MASTER_KEY_PROVIDER: 'pkcs11', WALLET_MASTER_KEY_ID: keyLabel };
  }

  /** Creates a master key in the token with `npm run hsm:create-key` (the built command); returns its output. */
  createKey(keyLabel: string): string {
    return execFileSync(process.execPath, [join(REPO_ROOT, 'dist/apps/wallet/cli/hsm-create-key.js'), '--label', keyLabel], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? '', ...this.env },
      stdio: 'pipe',
    }).toString();
  }

  /**
   * Generates a secret key in the token with attributes `hsm-create-key` never gives, for the start-up checks' cases: an
   * AES-128 or AES-192 key (`bytes` 16 or 24), an `extractable` or not `sensitive` one, or a second key under a label
   * already taken (the defaults are a master key's: AES-256, sensitive, not extractable). Made in a process of its own,
   * which reads this token's configuration.
   */
  createKeyWith(keyLabel: string, attributes: { bytes?: 16 | 24 | 32; sensitive?: boolean; extractable?: boolean } = {}): void {
    const { bytes = 32, sensitive = true, extractable = false } = attributes;
    const script = `
      const lib = require('pkcs11js');
      const [keyLabel, bytes, sensitive, extractable] = process.argv.slice(1);
      const pkcs11 = new lib.PKCS11();
      pkcs11.load(process.env.PKCS11_MODULE);
      pkcs11.C_Initialize();
      try {
        const slot = pkcs11.C_GetSlotList(true).find((slot) => pkcs11.C_GetTokenInfo(slot).label.trim() === process.env.PKCS11_TOKEN_LABEL);
        const session = pkcs11.C_OpenSession(slot, lib.CKF_SERIAL_SESSION | lib.CKF_RW_SESSION);
        pkcs11.C_Login(session, lib.CKU_USER, process.env.PKCS11_PIN);
        pkcs11.C_GenerateKey(session, { mechanism: lib.CKM_AES_KEY_GEN }, [
          { type: lib.CKA_CLASS, value: lib.CKO_SECRET_KEY },
          { type: lib.CKA_KEY_TYPE, value: lib.CKK_AES },
          { type: lib.CKA_VALUE_LEN, value: Number(bytes) },
          { type: lib.CKA_LABEL, value: keyLabel },
          { type: lib.CKA_TOKEN, value: true },
          { type: lib.CKA_PRIVATE, value: true },
          { type: lib.CKA_SENSITIVE, value: sensitive === 'true' },
          { type: lib.CKA_EXTRACTABLE, value: extractable === 'true' },
          { type: lib.CKA_ENCRYPT, value: true },
          { type: lib.CKA_DECRYPT, value: true },
        ]);
      } finally {
        pkcs11.C_Finalize();
      }`;
    execFileSync(process.execPath, ['-e', script, keyLabel, String(bytes), String(sensitive), String(extractable)], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? '', ...this.env },
      stdio: 'pipe',
    });
  }

  /** Takes the token's files away, as a pulled token or an HSM gone from the network would be; {@link bringBack} undoes it. */
  takeAway(): void {
    if (!this.ownFolder) {
      throw new Error('Only a token in a folder of its own can be taken away (SoftHsmToken.create({ ownFolder: true }))');
    }
    renameSync(this.tokens, `${this.tokens}-away`);
  }

  bringBack(): void {
    renameSync(`${this.tokens}-away`, this.tokens);
  }

  destroy(): void {
    if (this.ownFolder) {
      rmSync(this.ownFolder, { recursive: true, force: true });
    } else {
      this.util('--delete-token', '--token', this.label);
    }
  }

  private util(...args: string[]): void {
    execFileSync('softhsm2-util', args, { env: { ...process.env, SOFTHSM2_CONF: this.conf }, stdio: 'pipe' });
  }
}

/**
 * The wallet suites run twice in `npm test`: with master keys from the environment, and (the `hsm` project, which sets
 * `TEST_MASTER_KEY_PROVIDER=pkcs11`) with them in a SoftHSM2 token of the suite's own.
 */
export const testsUseHsm = (): boolean => process.env.TEST_MASTER_KEY_PROVIDER === 'pkcs11';
