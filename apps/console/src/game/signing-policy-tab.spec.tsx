import type { SigningPolicy } from '@game-wallet/contracts/views';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderGameTab, stubApi } from '../test-utils';
import { SigningPolicyTab } from './signing-policy-tab';

const game = { id: 'g1', name: 'Space Miners', createdAt: '2026-11-21T10:00:00.000Z' };
const stored: SigningPolicy = {
  operations: { apiKey: ['message', 'transaction', 'typed-data'], profile: ['message'] },
  evm: { chainIds: null, maxValueWei: null, maxFeeWei: '21000000000000', contracts: null, typedDataPrimaryTypes: ['Order'] },
  sol: { programs: null, maxLamports: null, maxPriorityMicroLamports: '5000000' },
  sui: { packages: null, allowTransfers: true, maxGasBudget: null },
};

describe(SigningPolicyTab.name, () => {
  it("shows each chain's limits with what each one limits, the stored values filled in", async () => {
    stubApi({ 'GET /games/g1/signing-policy': { status: 200, body: stored } });
    renderGameTab(<SigningPolicyTab />, game);
    const fee = await screen.findByLabelText('Most fees per transaction, in wei');
    expect(fee).toHaveValue('21000000000000');
    expect(fee).toHaveAccessibleDescription(/Gas limit × the highest fee per gas/);
    expect(screen.getByLabelText('Allowed typed-data primary types')).toHaveValue('Order');
    expect(screen.getByLabelText('Allowed typed-data primary types')).toHaveAccessibleDescription(/EIP-712 primaryType/);
    expect(screen.getByLabelText('Most priority fee per transaction, in micro-lamports')).toHaveValue('5000000');
    expect(screen.getByLabelText('Most priority fee per transaction, in micro-lamports')).toHaveAccessibleDescription(/ComputeBudget's unit price/);
    expect(screen.getByLabelText('Most gas budget per transaction, in MIST')).toHaveValue('');
    expect(screen.getByLabelText('Allowed addresses to call or pay')).toHaveAccessibleDescription(/verifyingContract/);
    expect(screen.getByLabelText('Most lamports per transaction')).toHaveAccessibleDescription(/TransferWithSeed, CreateAccount and CreateAccountWithSeed, summed\. With any Solana limit set, other System instructions are refused/);
    expect(screen.getByLabelText('Allowed Move packages')).toHaveAccessibleDescription(/Publish and Upgrade are refused/);
    expect(screen.getByRole('checkbox', { name: 'Allow transferring, splitting and merging coins' })).toHaveAccessibleDescription(/Move calls that can move coins or objects are refused/);
  });

  it('saves the new limits as entered, and an emptied one as no limit', async () => {
    const calls = stubApi({
      'GET /games/g1/signing-policy': { status: 200, body: stored },
      'PUT /games/g1/signing-policy': (body) => ({ status: 200, body }),
    });
    renderGameTab(<SigningPolicyTab />, game);
    await userEvent.clear(await screen.findByLabelText('Most fees per transaction, in wei'));
    await userEvent.type(screen.getByLabelText('Most gas budget per transaction, in MIST'), '50000000');
    await userEvent.type(screen.getByLabelText('Allowed typed-data primary types'), '{Enter}Permit');
    await userEvent.click(screen.getByRole('button', { name: 'Save policy' }));
    expect(await screen.findByText(/Signing policy saved/)).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({
      ...stored,
      evm: { ...stored.evm, maxFeeWei: null, typedDataPrimaryTypes: ['Order', 'Permit'] },
      sui: { ...stored.sui, maxGasBudget: '50000000' },
    });
  });
});
