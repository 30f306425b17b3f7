import { envDocs, portVar, z } from '@game-wallet/config';
import { renderConfigurationPage } from './configuration-page';

const TEMPLATE = '# Configuration\n\n{{variables}}\n\n{{apps}}\n';
const documented = (description: string) => z.string().optional().register(envDocs, { description });

describe(renderConfigurationPage.name, () => {
  const shared = { LOG_LEVEL: documented('The lowest level logged.') };
  const shapes = {
    gateway: { ...shared, BASE_PORT: portVar(3000).register(envDocs, { description: 'Public port.' }) },
    identity: { ...shared, JWT_ISSUER: documented('The issuer.') },
    wallet: { ...shared, JWT_ISSUER: documented('The issuer.'), PKCS11_PIN: z.string().optional().register(envDocs, { description: 'The PIN.', secret: true }) },
    core: { ...shared },
  };

  it('lists each variable once, with the apps that read it, its default from the schema, and secrets marked', () => {
    const page = renderConfigurationPage(shapes, TEMPLATE);
    expect(page).toContain('| `LOG_LEVEL` | every app | — | — | The lowest level logged. |');
    expect(page).toContain('| `BASE_PORT` | gateway | — | `3000` | Public port. |');
    expect(page).toContain('| `JWT_ISSUER` | identity, wallet | — | — | The issuer. |');
    expect(page).toContain('| `PKCS11_PIN` | wallet | — | — | **Secret.** The PIN. |');
    expect(page.match(/`JWT_ISSUER` \|/g)).toHaveLength(1);
    expect(page).toContain('- **wallet**: `JWT_ISSUER`, `PKCS11_PIN`');
  });

  it('refuses a variable two apps describe differently', () => {
    const differing = { ...shapes, core: { ...shared, JWT_ISSUER: documented('Another issuer.') } };
    expect(() => renderConfigurationPage(differing, TEMPLATE)).toThrow('JWT_ISSUER is documented differently in the identity and the core');
  });

  it('refuses a variable without a description', () => {
    expect(() => renderConfigurationPage({ ...shapes, core: { ...shared, UNDOCUMENTED: z.string() } }, TEMPLATE)).toThrow('UNDOCUMENTED has no description');
  });

  it('keeps a table cell on one line and its pipes escaped', () => {
    const page = renderConfigurationPage({ ...shapes, core: { ...shared, MODE: documented('`a|b`, or\n  `c`.') } }, TEMPLATE);
    expect(page).toContain('| `a\\|b`, or `c`. |');
  });
});
