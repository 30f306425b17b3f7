import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderGameTab, stubApi } from '../test-utils';
import { PlayersTab } from './players-tab';

const game = { id: 'g1', name: 'Space Miners', createdAt: '2026-11-21T10:00:00.000Z' };
const HOSTILE = '<img src=x onerror=alert(1)>';
const player = (id: string, uniqueId: string, image: string | null = null) => ({
  id,
  applicationId: 'g1',
  uniqueId,
  image,
  userData: { note: HOSTILE, level: 3 },
  profileId: `p-${id}`,
  walletId: `w-${id}`,
  createdAt: '2026-11-21T10:00:00.000Z',
  updatedAt: '2026-11-21T10:00:00.000Z',
  addresses: { evm: `0xEVM${id}`, sol: `SOL${id}`, sui: `0xSUI${id}` },
});

describe(PlayersTab.name, () => {
  it('renders what games stored as text, never as markup', async () => {
    const alert = vi.fn();
    vi.stubGlobal('alert', alert);
    stubApi({ 'GET /games/g1/players?limit=20': { status: 200, body: { items: [player('1', HOSTILE, 'javascript:alert(1)')], nextCursor: null } } });
    renderGameTab(<PlayersTab />, game);
    expect(await screen.findByText(HOSTILE)).toBeInTheDocument();
    expect(document.querySelector('img[src="x"]')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: `Details of ${HOSTILE}` }));
    const drawer = screen.getByRole('dialog');
    expect(within(drawer).getByLabelText('userData as JSON').textContent).toContain(`"note": "${HOSTILE.replace(/"/g, '\\"')}"`);
    expect(within(drawer).queryByRole('img')).toBeNull();
    expect(within(drawer).getByText(/not an http\(s\) address/)).toBeInTheDocument();
    expect(alert).not.toHaveBeenCalled();
  });

  it('shows an http(s) image without sending a referrer', async () => {
    stubApi({ 'GET /games/g1/players?limit=20': { status: 200, body: { items: [player('1', 'ada', 'https://cdn.example.com/ada.png')], nextCursor: null } } });
    renderGameTab(<PlayersTab />, game);
    await userEvent.click(await screen.findByRole('button', { name: 'Details of ada' }));
    const image = within(screen.getByRole('dialog')).getByRole('img', { name: 'Image of player ada' });
    expect(image).toHaveAttribute('src', 'https://cdn.example.com/ada.png');
    expect(image).toHaveAttribute('referrerpolicy', 'no-referrer');
  });

  it('searches by exact uniqueId and pages forward and back by cursor', async () => {
    const calls = stubApi({
      'GET /games/g1/players?limit=20': { status: 200, body: { items: [player('2', 'newest')], nextCursor: 'c1' } },
      'GET /games/g1/players?cursor=c1&limit=20': { status: 200, body: { items: [player('1', 'older')], nextCursor: null } },
      'GET /games/g1/players?uniqueId=older&limit=20': { status: 200, body: { items: [player('1', 'older')], nextCursor: null } },
    });
    renderGameTab(<PlayersTab />, game);
    expect(await screen.findByText('newest')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('older')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Previous' }));
    expect(await screen.findByText('newest')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Search by uniqueId'), 'older{Enter}');
    expect(await screen.findByText('older')).toBeInTheDocument();
    expect(calls.map((call) => call.path)).toContain('/games/g1/players?uniqueId=older&limit=20');
    for (const chain of ['0xEVM1', 'SOL1', '0xSUI1']) {
      expect(screen.getByText(chain)).toBeInTheDocument();
    }
  });
});
