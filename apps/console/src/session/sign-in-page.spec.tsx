import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderAt, stubApi } from '../test-utils';
import { SignInPage } from './sign-in-page';

describe(SignInPage.name, () => {
  it("shows the platform's message inline on wrong credentials and keeps nothing in storage", async () => {
    stubApi({
      'GET /session': { status: 401, body: { message: 'A console session is required', code: 'UNAUTHENTICATED' } },
      'POST /session': { status: 401, body: { message: 'Wrong e-mail or password', code: 'INVALID_CREDENTIALS' } },
    });
    renderAt(<SignInPage />, '/sign-in');
    await userEvent.type(await screen.findByLabelText('E-mail'), 'ops@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'nope{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('Wrong e-mail or password');
    expect(screen.getByLabelText('Password')).toHaveValue('');
    expect(localStorage.length + sessionStorage.length).toBe(0);
  });

  it('says how long a lockout lasts and holds the button until then', async () => {
    stubApi({
      'GET /session': { status: 401, body: { message: 'A console session is required', code: 'UNAUTHENTICATED' } },
      'POST /session': { status: 429, body: { message: 'Too many failed sign-ins', code: 'RATE_LIMITED' }, headers: { 'retry-after': '37' } },
    });
    renderAt(<SignInPage />, '/sign-in');
    await userEvent.type(await screen.findByLabelText('E-mail'), 'ops@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'nope{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent(/locked\. Try again in 3[67] s\./);
    await userEvent.type(screen.getByLabelText('Password'), 'again');
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeDisabled();
  });
});
