// @vitest-environment happy-dom
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithI18n } from '../../../testing/render';
import { SignInForm } from './sign-in-form';

afterEach(cleanup);

const email = () => screen.getByLabelText<HTMLInputElement>('Email');
const password = () => screen.getByLabelText<HTMLInputElement>('Password');
const login = () => screen.getByRole('button', { name: 'Login' });

describe('staff sign-in form', () => {
  it('has labelled email and password fields', () => {
    renderWithI18n(<SignInForm />);
    expect(email().type).toBe('email');
    expect(password().type).toBe('password');
    expect(password().getAttribute('autocomplete')).toBe('current-password');
  });

  it('requires both email and password before trying to sign in', async () => {
    const user = userEvent.setup();
    renderWithI18n(<SignInForm />);
    await user.click(login());

    expect(screen.getByText('Please enter your email.')).toBeTruthy();
    expect(screen.getByText('Please enter your password.')).toBeTruthy();
    expect(email().getAttribute('aria-invalid')).toBe('true');
    expect(password().getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(email());
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('requires the password when only the email is given', async () => {
    const user = userEvent.setup();
    renderWithI18n(<SignInForm />);
    await user.type(email(), 'staff@example.org');
    await user.click(login());

    expect(screen.queryByText('Please enter your email.')).toBeNull();
    expect(password().getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(password().getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      'Please enter your password.',
    );
    expect(document.activeElement).toBe(password());
  });

  it('shows the sign-in failure in the alert banner', async () => {
    const user = userEvent.setup();
    renderWithI18n(<SignInForm />);
    await user.type(email(), 'staff@example.org');
    await user.type(password(), 'correct horse');
    await user.click(login());

    // The sign-in seam is not wired to Cognito yet: it fails, and says so.
    expect((await screen.findByRole('alert')).textContent).toBe('Sign-in is not available yet');
    expect(email().getAttribute('aria-invalid')).toBe('false');
  });

  it('speaks Tamil', () => {
    renderWithI18n(<SignInForm />, 'ta');
    expect(screen.getByLabelText('மின்னஞ்சல்')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'உள்நுழை' })).toBeTruthy();
  });
});
