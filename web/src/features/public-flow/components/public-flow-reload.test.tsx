// @vitest-environment happy-dom
import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { MOBILE, openOnForm, renderFlow, stored, stubFlowApi } from '../testing/flow-harness';

stubFlowApi();

describe('public flow: nothing lost on reload', () => {
  it('restores what was typed and the verification', async () => {
    const user = userEvent.setup();
    openOnForm();
    const first = await renderFlow();
    await user.type(screen.getByLabelText('Full name'), 'Kavya');
    await user.selectOptions(screen.getByLabelText('Revenue district'), 'Madurai');
    await user.click(screen.getByRole('radio', { name: 'Yes' }));
    fireEvent.change(screen.getByLabelText('Date of birth'), { target: { value: '2001-05-14' } });
    first.unmount();

    await renderFlow();
    expect(screen.getByRole('heading', { level: 1, name: 'Join the Movement' })).toBeTruthy();
    expect(screen.getByLabelText<HTMLInputElement>('Full name').value).toBe('Kavya');
    expect(screen.getByLabelText<HTMLSelectElement>('Revenue district').value).toBe('Madurai');
    expect(screen.getByRole<HTMLInputElement>('radio', { name: 'Yes' }).checked).toBe(true);
    expect(screen.getByLabelText<HTMLInputElement>('Date of birth').value).toBe('14/05/2001');
    // A reload does not move focus around.
    expect(document.activeElement).toBe(document.body);
  });

  it('keeps the typed number on step 1', async () => {
    const user = userEvent.setup();
    const first = await renderFlow();
    await user.type(screen.getByLabelText('Mobile number'), '98765');
    first.unmount();
    await renderFlow();
    expect(screen.getByLabelText<HTMLInputElement>('Mobile number').value).toBe('98765');
  });

  it('sends a visitor whose verification expired back to step 1, with the message and their answers', async () => {
    openOnForm({ name: 'Kavya' }, new Date(Date.now() - 1000).toISOString());
    await renderFlow('ta');
    expect(screen.getByRole('alert').textContent).toBe(
      'உங்கள் சரிபார்ப்பின் காலம் முடிந்துவிட்டது. உங்கள் கைபேசி எண்ணை மீண்டும் உறுதிசெய்யவும்.',
    );
    expect(screen.getByLabelText<HTMLInputElement>('கைபேசி எண்').value).toBe(MOBILE);
    expect(stored()).toMatchObject({ step: 'mobile', form: { name: 'Kavya' } });
  });
});
