import type { CredentialKind, PolicyEvaluationRequest } from '@game-wallet/contracts/views';
import type { ChainName, SigningOperation } from '@game-wallet/contracts/views';
import type { Parsed } from './rule-form';

/** The "Test a request" form: the request as a signing route would get it, the payload as pasted. */
export interface TestRequestForm {
  policy: 'active' | 'draft';
  operation: SigningOperation;
  chain: ChainName;
  kind: CredentialKind;
  /** empty: none given */
  apiKeyId: string;
  /** empty: velocity is not read */
  walletId: string;
  payload: string;
}

/** What the payload field takes for this operation and chain: its label and hint. */
export function payloadFormat(operation: SigningOperation, chain: ChainName): { label: string; hint: string } {
  if (operation === 'message') {
    return { label: 'Message, as text', hint: 'The text to sign; the console sends it as UTF-8 in base64, as a game would.' };
  }
  if (operation === 'typed-data') {
    return { label: 'Typed data, as JSON', hint: 'EIP-712: {"domain": {…}, "types": {…}, "primaryType": "…", "message": {…}}.' };
  }
  return chain === 'evm'
    ? { label: 'Transaction, as JSON', hint: 'EVM fields as /sign-transaction takes them: {"chainId": 8453, "to": "0x…", "value": "1000", "data": "0x…"}.' }
    : { label: 'Transaction, in base64', hint: chain === 'sol' ? 'A Solana transaction in wire format, base64.' : "Sui TransactionData in BCS, base64 (a wallet's transaction bytes)." };
}

/** A payload to start from, where one can be written by hand. */
export function examplePayload(operation: SigningOperation, chain: ChainName): string | undefined {
  if (operation === 'message') {
    return 'Sign in to Space Miners: 3f9a2c';
  }
  if (operation === 'typed-data') {
    return JSON.stringify(
      {
        domain: { name: 'Space Miners Market', version: '1', chainId: 8453, verifyingContract: '0x1111111111111111111111111111111111111111' },
        types: { Order: [{ name: 'item', type: 'uint256' }, { name: 'price', type: 'uint256' }] },
        primaryType: 'Order',
        message: { item: '42', price: '1000' },
      },
      null,
      2,
    );
  }
  return chain === 'evm' ? JSON.stringify({ chainId: 8453, to: '0x1111111111111111111111111111111111111111', value: '1000' }, null, 2) : undefined;
}

/** Text as UTF-8, in base64. */
export function base64OfText(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) {
    binary += String.fromCharCode(byte);
  }
  return btoa(binary);
}

function parseJson(text: string, what: string): Parsed<unknown> {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, problems: [`${what} is not JSON: ${error instanceof Error ? error.message : String(error)}`] };
  }
}

/** The dry run's request, or what keeps the payload from being one. Typed data is EVM's only. */
export function evaluationOfForm(form: TestRequestForm): Parsed<PolicyEvaluationRequest> {
  const chain = form.operation === 'typed-data' ? 'evm' : form.chain;
  let payload: Parsed<unknown>;
  if (form.operation === 'message') {
    payload = { ok: true, value: base64OfText(form.payload) };
  } else if (form.operation === 'typed-data') {
    payload = parseJson(form.payload, 'The typed data');
  } else if (chain === 'evm') {
    payload = parseJson(form.payload, 'The transaction');
  } else {
    const base64 = form.payload.replace(/\s+/g, '');
    payload = base64 === '' ? { ok: false, problems: ['Paste the transaction in base64'] } : { ok: true, value: base64 };
  }
  if (!payload.ok) {
    return payload;
  }
  return {
    ok: true,
    value: {
      operation: form.operation,
      chain,
      credential: { kind: form.kind, ...(form.apiKeyId.trim() === '' || form.kind !== 'apiKey' ? {} : { apiKeyId: form.apiKeyId.trim() }) },
      ...(form.walletId.trim() === '' ? {} : { walletId: form.walletId.trim() }),
      payload: payload.value,
      policy: form.policy,
    },
  };
}
