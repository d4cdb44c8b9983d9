// @vitest-environment happy-dom
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { staffEn } from '../../../i18n/staff-en';
import { staffTa } from '../../../i18n/staff-ta';
import { renderWithI18n } from '../../../testing/render';
import { LoginScreen } from './login-screen';
import { SignInForm } from './sign-in-form';

const auth = vi.hoisted(() => ({
  signIn: vi.fn<(input: unknown) => Promise<unknown>>(),
  confirmSignIn: vi.fn<(input: unknown) => Promise<unknown>>(),
}));
vi.mock('aws-amplify/auth', () => auth);

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
});

const email = () => screen.getByLabelText<HTMLInputElement>('Email');
const password = () => screen.getByLabelText<HTMLInputElement>('Password');
const login = () => screen.getByRole('button', { name: 'Login' });

async function fillAndLogin(user: ReturnType<typeof userEvent.setup>, pw = 'Temporary-Pass-1!') {
  await user.type(email(), 'staff@example.org');
  await user.type(password(), pw);
  await user.click(login());
}

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
    expect(auth.signIn).not.toHaveBeenCalled();
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

  it.each([
    ['NotAuthorizedException', 'Incorrect username or password.'],
    // cognito-local: an unknown email, then a known one with a wrong password.
    ['NotAuthorizedException', 'User not authorized'],
    ['InvalidPasswordException', 'Invalid password'],
    ['UserNotFoundException', 'User does not exist.'],
  ])('says the same translated words for %s ("%s"), never the service’s own', async (name, message) => {
    auth.signIn.mockRejectedValue(Object.assign(new Error(message), { name }));
    const user = userEvent.setup();
    renderWithI18n(<SignInForm />);
    await fillAndLogin(user, 'correct horse');

    expect((await screen.findByRole('alert')).textContent).toBe(staffEn.login.wrongCredentials);
    expect(auth.signIn).toHaveBeenCalledWith({
      username: 'staff@example.org',
      password: 'correct horse',
      options: { authFlowType: 'USER_SRP_AUTH' },
    });
    expect(login().hasAttribute('disabled')).toBe(false);
  });

  it('says it in Tamil on the Tamil screen, with no English from the service', async () => {
    auth.signIn.mockRejectedValue(Object.assign(new Error('User not authorized'), { name: 'NotAuthorizedException' }));
    const user = userEvent.setup();
    renderWithI18n(<SignInForm />, 'ta');
    await user.type(screen.getByLabelText('மின்னஞ்சல்'), 'staff@example.org');
    await user.type(screen.getByLabelText('கடவுச்சொல்'), 'wrong');
    await user.click(screen.getByRole('button', { name: 'உள்நுழை' }));
    const text = (await screen.findByRole('alert')).textContent ?? '';
    expect(text).toBe(staffTa.login.wrongCredentials);
    expect(text).not.toMatch(/[A-Za-z]/);
  });

  it('says "Login failed" when the failure is not one it knows', async () => {
    auth.signIn.mockRejectedValue(Object.assign(new Error('Something odd'), { name: 'InternalErrorException' }));
    const user = userEvent.setup();
    renderWithI18n(<SignInForm />);
    await fillAndLogin(user);
    expect((await screen.findByRole('alert')).textContent).toBe('Login failed');
  });

  it('asks to wait after too many attempts', async () => {
    auth.signIn.mockRejectedValue(Object.assign(new Error('Password attempts exceeded'), { name: 'TooManyRequestsException' }));
    const user = userEvent.setup();
    renderWithI18n(<SignInForm />);
    await fillAndLogin(user);
    expect((await screen.findByRole('alert')).textContent).toBe(staffEn.login.tooManyAttempts);
  });

  it('shows the loading state while signing in', async () => {
    auth.signIn.mockReturnValue(new Promise(() => undefined));
    const user = userEvent.setup();
    renderWithI18n(<SignInForm />);
    await fillAndLogin(user);
    expect(screen.getByRole('button', { name: 'Signing in...' }).hasAttribute('disabled')).toBe(true);
  });

  it('speaks Tamil', () => {
    renderWithI18n(<SignInForm />, 'ta');
    expect(screen.getByLabelText('மின்னஞ்சல்')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'உள்நுழை' })).toBeTruthy();
  });
});

describe('first sign-in of an admin-created user', () => {
  const newPassword = () => screen.getByLabelText<HTMLInputElement>('New password');
  const repeat = () => screen.getByLabelText<HTMLInputElement>('Repeat the new password');
  const save = () => screen.getByRole('button', { name: 'Set password and sign in' });

  async function reachNewPassword(user: ReturnType<typeof userEvent.setup>) {
    auth.signIn.mockResolvedValue({
      isSignedIn: false,
      nextStep: { signInStep: 'CONFIRM_SIGN_IN_WITH_NEW_PASSWORD_REQUIRED' },
    });
    renderWithI18n(<LoginScreen />);
    await fillAndLogin(user);
    await screen.findByRole('heading', { level: 1, name: 'Set a new password' });
  }

  it('asks for a new password, explaining the policy, and answers the challenge', async () => {
    const user = userEvent.setup();
    await reachNewPassword(user);
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1 }));
    const rules = screen.getAllByRole('listitem').map((li) => li.textContent);
    expect(rules).toHaveLength(5);
    expect(rules[0]).toContain('at least 12 characters');

    auth.confirmSignIn.mockResolvedValue({ isSignedIn: true, nextStep: { signInStep: 'DONE' } });
    await user.type(newPassword(), 'My-New-Password-9');
    await user.type(repeat(), 'My-New-Password-9');
    expect(screen.getAllByRole('listitem').every((li) => li.getAttribute('data-met') === 'true')).toBe(true);
    await user.click(save());
    expect(auth.confirmSignIn).toHaveBeenCalledWith({ challengeResponse: 'My-New-Password-9' });
  });

  it('refuses a password outside the policy, or two that differ, before asking Cognito', async () => {
    const user = userEvent.setup();
    await reachNewPassword(user);
    await user.type(newPassword(), 'short');
    await user.click(save());
    expect(newPassword().getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('The new password does not meet every rule below.')).toBeTruthy();

    await user.clear(newPassword());
    await user.type(newPassword(), 'My-New-Password-9');
    await user.type(repeat(), 'My-New-Password-8');
    await user.click(save());
    expect(repeat().getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('The two passwords are not the same.')).toBeTruthy();
    expect(auth.confirmSignIn).not.toHaveBeenCalled();
  });

  it("translates Cognito's refusal of the new password", async () => {
    const user = userEvent.setup();
    await reachNewPassword(user);
    auth.confirmSignIn.mockRejectedValue(
      Object.assign(new Error('Password does not conform to policy: Password not long enough'), { name: 'InvalidPasswordException' }),
    );
    await user.type(newPassword(), 'My-New-Password-9');
    await user.type(repeat(), 'My-New-Password-9');
    await user.click(save());
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(staffEn.newPassword.policyFailed);
    expect(alert.textContent).not.toContain('conform');
  });

  it('can go back to the sign-in form', async () => {
    const user = userEvent.setup();
    await reachNewPassword(user);
    await user.click(screen.getByRole('button', { name: 'Back to sign in' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Staff sign in' })).toBeTruthy();
  });
});
