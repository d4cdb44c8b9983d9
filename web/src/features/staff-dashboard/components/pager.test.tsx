// @vitest-environment happy-dom
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithI18n } from '../../../testing/render';
import { Pager } from './pager';

afterEach(cleanup);

const props = { busy: false, onPrevious: () => undefined, onNext: () => undefined };

describe('pager', () => {
  it('reads "Page X of Y • N total" for the active filters', () => {
    renderWithI18n(<Pager {...props} page={2} pageSize={10} total={43} hasNext />);
    expect(screen.getByTestId('pager-text').textContent).toBe('Page 2 of 5 • 43 total');
  });

  it('says page 1 of 1 when nothing matches', () => {
    renderWithI18n(<Pager {...props} page={1} pageSize={10} total={0} hasNext={false} />);
    expect(screen.getByTestId('pager-text').textContent).toBe('Page 1 of 1 • 0 total');
    expect(screen.getByRole('button', { name: /Previous/ }).hasAttribute('disabled')).toBe(true);
    expect(screen.getByRole('button', { name: /Next/ }).hasAttribute('disabled')).toBe(true);
  });

  it('groups large numbers the Indian way', () => {
    renderWithI18n(<Pager {...props} page={1} pageSize={100} total={100_000} hasNext />);
    expect(screen.getByTestId('pager-text').textContent).toBe('Page 1 of 1,000 • 1,00,000 total');
  });

  it('enables Previous after page 1 and Next while there is a next page', async () => {
    const onPrevious = vi.fn();
    const onNext = vi.fn();
    const user = userEvent.setup();
    renderWithI18n(
      <Pager busy={false} page={2} pageSize={20} total={45} hasNext onPrevious={onPrevious} onNext={onNext} />,
    );
    await user.click(screen.getByRole('button', { name: /Previous/ }));
    await user.click(screen.getByRole('button', { name: /Next/ }));
    expect(onPrevious).toHaveBeenCalledTimes(1);
    expect(onNext).toHaveBeenCalledTimes(1);
  });

  it('speaks Tamil', () => {
    renderWithI18n(<Pager {...props} page={3} pageSize={10} total={43} hasNext />, 'ta');
    expect(screen.getByTestId('pager-text').textContent).toBe('பக்கம் 3 / 5 • மொத்தம் 43');
    expect(screen.getByRole('navigation', { name: 'பக்கங்கள்' })).toBeTruthy();
  });
});
