import { describe, expect, it } from 'vitest';
import { KYC_STATUSES, KYC_TRANSITIONS, kycPath, moveKyc, stepKyc } from '../../src/domain/kyc.js';
import { isCalendarDate, maskDocumentNumber } from '../../src/domain/kyb.js';

describe('the KYC transition table', () => {
  it('allows exactly these moves, each through legal steps', () => {
    const allowed = KYC_STATUSES.flatMap((from) => KYC_STATUSES.filter((to) => kycPath(from, to)).map((to) => `${from}→${to}`));
    expect(allowed.sort()).toEqual(
      [
        'not_started→pending',
        'not_started→in_review',
        'not_started→approved',
        'not_started→rejected',
        'pending→in_review',
        'pending→approved',
        'pending→rejected',
        'in_review→approved',
        'in_review→rejected',
        'rejected→pending',
        'rejected→in_review',
        'rejected→approved',
      ].sort(),
    );
    for (const from of KYC_STATUSES) {
      for (const to of KYC_STATUSES) {
        let at = from;
        for (const step of kycPath(from, to) ?? []) at = KYC_TRANSITIONS[at][step]!;
        if (kycPath(from, to)) expect(at).toBe(to);
      }
    }
  });

  it('never leaves approved, and refuses with kyc_transition_not_allowed', () => {
    for (const to of KYC_STATUSES) expect(() => moveKyc('approved', to)).toThrow(expect.objectContaining({ code: 'kyc_transition_not_allowed' }));
  });

  it('sets the sub status of the last step', () => {
    expect(moveKyc('not_started', 'approved')).toMatchObject({ steps: ['start', 'submit', 'approve'], subStatus: 'kyc_approved' });
    expect(moveKyc('rejected', 'in_review')).toMatchObject({ steps: ['start', 'submit'], subStatus: 'kyc_form_submitted' });
    expect(stepKyc('pending', 'start')).toBeNull();
    expect(stepKyc('rejected', 'start')?.subStatus).toBe('kyc_form_submission_started');
  });
});

describe('KYB helpers', () => {
  it.each([
    ['2024-02-29', true],
    ['2023-02-29', false],
    ['2023-02-30', false],
    ['2023-04-31', false],
    ['2023-13-01', false],
    ['2023-1-01', false],
    ['2099-01-01', true],
  ])('isCalendarDate(%s) is %s', (value, expected) => expect(isCalendarDate(value)).toBe(expected));

  it('masks document numbers down to their last characters', () => {
    expect(maskDocumentNumber('N1234567')).toBe('…4567');
    expect(maskDocumentNumber('D12')).toBe('…2');
  });
});
