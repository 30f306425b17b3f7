import { TEST_OPERATOR, TestPlatform, queryOnce } from '@game-wallet/testing';
import type { Browser, CDPSession, Page } from 'playwright-core';
import { launchChromium, openPage, startTogether } from './browser';

type Json = Record<string, unknown>;
type Answer = { status: number; body: Json & { code?: string } };

/**
 * Passkeys as a second factor, in Debian's Chromium with its virtual authenticator (CDP `WebAuthn`): registration,
 * two-step sign-in and step-up, against the gateway that serves the console (same origin, so the relying party is
 * the host: `localhost`, as WebAuthn takes no IP address).
 */
describe('passkeys (Chromium virtual authenticator)', () => {
  let platform: TestPlatform;
  let browser: Browser;
  let page: Page;
  let cdp: CDPSession;
  let origin: string;

  /** A JSON call from the page, with its cookie, as the console makes it. */
  const call = (method: string, path: string, body?: unknown): Promise<Answer> =>
    page.evaluate(
      async ([method, path, body]) => {
        const response = await fetch(path as string, {
          method: method as string,
          headers: body === null ? {} : { 'content-type': 'application/json' },
          body: body === null ? undefined : JSON.stringify(body),
          credentials: 'same-origin',
        });
        const text = await response.text();
        return { status: response.status, body: text === '' ? {} : (JSON.parse(text) as Json) };
      },
      [method, path, body ?? null] as const,
    );

  /** `navigator.credentials.create` with the server's options (base64url fields turned into bytes and back). */
  const create = (options: Json): Promise<Json> =>
    page.evaluate(async (options: Json) => {
      const bytes = (text: string) => Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((text.length + 3) % 4)), (c) => c.charCodeAt(0));
      const text = (buffer: ArrayBuffer) => btoa(String.fromCharCode(...new Uint8Array(buffer))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
      const o = options as { challenge: string; user: { id: string; name: string; displayName: string }; excludeCredentials?: { id: string; type: 'public-key' }[] };
      const credential = (await navigator.credentials.create({
        publicKey: {
          ...(options as unknown as PublicKeyCredentialCreationOptions),
          challenge: bytes(o.challenge),
          user: { ...o.user, id: bytes(o.user.id) },
          excludeCredentials: (o.excludeCredentials ?? []).map((c) => ({ ...c, id: bytes(c.id) })),
        },
      })) as PublicKeyCredential;
      const response = credential.response as AuthenticatorAttestationResponse;
      return {
        id: credential.id,
        rawId: text(credential.rawId),
        type: credential.type,
        response: { clientDataJSON: text(response.clientDataJSON), attestationObject: text(response.attestationObject), transports: response.getTransports() },
        clientExtensionResults: credential.getClientExtensionResults() as Json,
        authenticatorAttachment: credential.authenticatorAttachment ?? undefined,
      };
    }, options);

  /** `navigator.credentials.get` with the server's request options; the assertion as JSON. */
  const get = (options: Json): Promise<Json> =>
    page.evaluate(async (options: Json) => {
      const bytes = (text: string) => Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((text.length + 3) % 4)), (c) => c.charCodeAt(0));
      const text = (buffer: ArrayBuffer) => btoa(String.fromCharCode(...new Uint8Array(buffer))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
      const o = options as { challenge: string; allowCredentials?: { id: string; type: 'public-key' }[] };
      const assertion = (await navigator.credentials.get({
        publicKey: {
          ...(options as unknown as PublicKeyCredentialRequestOptions),
          challenge: bytes(o.challenge),
          allowCredentials: (o.allowCredentials ?? []).map((c) => ({ ...c, id: bytes(c.id) })),
        },
      })) as PublicKeyCredential;
      const response = assertion.response as AuthenticatorAssertionResponse;
      return {
        id: assertion.id,
        rawId: text(assertion.rawId),
        type: assertion.type,
        response: {
          clientDataJSON: text(response.clientDataJSON),
          authenticatorData: text(response.authenticatorData),
          signature: text(response.signature),
          userHandle: response.userHandle ? text(response.userHandle) : undefined,
        },
        clientExtensionResults: assertion.getClientExtensionResults() as Json,
        authenticatorAttachment: assertion.authenticatorAttachment ?? undefined,
      };
    }, options);

  const passkeyRow = async () =>
    (await queryOnce<{ counter: string; last_used_at: Date | null }>(platform.databaseUrl, `SELECT counter, last_used_at FROM identity.operator_passkeys`))[0];

  beforeAll(async () => {
    await startTogether(TestPlatform.start('passkeys', { apps: ['gateway', 'identity'] }).then((started) => (platform = started)), launchChromium().then((launched) => (browser = launched)));
    origin = `http://localhost:${platform.ports.base}`;
    ({ page } = await openPage(browser));
    cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
    });
    await page.goto(`${origin}/console`);
  });

  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  it('registers a passkey for the signed-in operator (relying party: the console host)', async () => {
    expect((await call('POST', '/v1/console/session', TEST_OPERATOR)).status).toBe(200);
    const options = await call('POST', '/v1/console/account/passkeys/options');
    expect(options.status).toBe(200);
    expect(options.body).toMatchObject({ rp: { id: 'localhost' }, user: { name: TEST_OPERATOR.email }, authenticatorSelection: { userVerification: 'preferred' } });
    const response = await create(options.body);
    const registered = await call('POST', '/v1/console/account/passkeys', { name: 'Virtual authenticator', response });
    expect(registered.status).toBe(201);
    expect(registered.body).toMatchObject({ name: 'Virtual authenticator', lastUsedAt: null });
    // The same answer again: its challenge was taken.
    expect((await call('POST', '/v1/console/account/passkeys', { name: 'Again', response })).status).toBe(400);
    const account = await call('GET', '/v1/console/session');
    expect((account.body.twoFactor as { passkeys: unknown[] }).passkeys).toHaveLength(1);
  });

  it('signs in with the password, then the passkey; the counter moves and an assertion is never taken twice', async () => {
    expect((await call('DELETE', '/v1/console/session')).status).toBe(204);
    const first = await call('POST', '/v1/console/session', TEST_OPERATOR);
    const { secondFactor } = first.body as { secondFactor: { challenge: string; methods: string[]; passkey: Json } };
    expect(secondFactor.methods).toEqual(['passkey', 'recovery-code']);
    expect(secondFactor.passkey).toMatchObject({ rpId: 'localhost', userVerification: 'preferred' });
    const assertion = await get(secondFactor.passkey);
    const before = await passkeyRow();
    const signedIn = await call('POST', '/v1/console/session/second-factor', { challenge: secondFactor.challenge, passkey: assertion });
    expect(signedIn.status).toBe(200);
    expect((await call('GET', '/v1/console/session')).status).toBe(200);
    const after = await passkeyRow();
    expect(after.last_used_at).not.toBeNull();
    expect(Number(after.counter)).toBeGreaterThan(Number(before.counter));
    // The same assertion on another sign-in: its challenge was another's, and taken.
    const again = (await call('POST', '/v1/console/session', TEST_OPERATOR)).body as { secondFactor: { challenge: string } };
    const replayed = await call('POST', '/v1/console/session/second-factor', { challenge: again.secondFactor.challenge, passkey: assertion });
    expect([replayed.status, replayed.body.code]).toEqual([401, 'INVALID_CREDENTIALS']);
    const audit = await queryOnce<{ details: { method: string } }>(platform.databaseUrl, `SELECT details FROM identity.audit_events WHERE action = 'operator.signed_in' ORDER BY at DESC LIMIT 1`);
    expect(audit[0].details.method).toBe('passkey');
  });

  it('steps up with the passkey, then removes it (a step-up action)', async () => {
    const { sessionId } = (await call('GET', '/v1/console/session')).body as { sessionId: string };
    await queryOnce(platform.databaseUrl, `UPDATE identity.console_sessions SET second_factor_at = now() - interval '6 minutes' WHERE id = $1`, [sessionId]);
    const passkeyId = ((await call('GET', '/v1/console/session')).body.twoFactor as { passkeys: { id: string }[] }).passkeys[0].id;
    const refused = await call('DELETE', `/v1/console/account/passkeys/${passkeyId}`);
    expect([refused.status, refused.body.code]).toEqual([401, 'STEP_UP_REQUIRED']);
    const options = await call('POST', '/v1/console/session/step-up/options');
    const steppedUp = await call('POST', '/v1/console/session/step-up', { passkey: await get(options.body.passkey as Json) });
    expect(steppedUp.status).toBe(200);
    expect((await call('DELETE', `/v1/console/account/passkeys/${passkeyId}`)).status).toBe(204);
    expect(await passkeyRow()).toBeUndefined();
  });
});
