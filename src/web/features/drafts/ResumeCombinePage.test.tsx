import { describe, expect, it } from 'vitest';
import { act, screen, within } from '@testing-library/react';
import ResumeCombinePage from './ResumeCombinePage';
import { fakeApi, renderPage } from '../../test/render';

const draft = {
  id: 'draft-1',
  status: 'incomplete',
  totalAmountCents: 8_800,
  sourceCount: 1,
  currentStep: 3,
  promoApplied: false,
  createdAt: '2026-11-20T10:00:00.000Z',
  savedAt: '2026-11-20T10:05:00.000Z',
  completedAt: null,
  keptUntil: '2026-11-27T10:00:00.000Z',
  card: null,
};

describe('/resume-combine', () => {
  it('a fast double click on Delete deletes once and says only that it was deleted', async () => {
    let deleted = false;
    const api = fakeApi({
      'GET /api/combines': () => ({ body: { combines: deleted ? [] : [draft] } }),
      'DELETE /api/combines/draft-1': () => {
        if (deleted) return { status: 404, body: { error: { code: 'not_found', message: 'Combine not found.' } } };
        deleted = true;
        return { status: 204 };
      },
    });
    const { user } = renderPage(<ResumeCombinePage />, { path: '/resume-combine' });
    await user.click(await screen.findByRole('button', { name: 'Delete saved combine of $88.00' }));
    const confirm = within(await screen.findByRole('dialog', { name: 'Delete this saved combine?' })).getByRole('button', { name: 'Delete' });
    // Both clicks in one task, as a browser delivers a fast double click.
    act(() => {
      confirm.click();
      confirm.click();
    });
    expect(await screen.findByText('Combine deleted successfully')).toBeVisible();
    expect(await screen.findByRole('heading', { name: 'No saved combines' })).toBeVisible();
    expect(api.sent.filter((r) => r.method === 'DELETE')).toHaveLength(1);
    expect(screen.queryByText('Failed to delete combine')).toBeNull();
  });
});
