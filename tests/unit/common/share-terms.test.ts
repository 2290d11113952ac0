import { describe, expect, it } from 'vitest';
import { approvalAnswers, refusalReasons, widerLinkTerms, widerShareTerms, type LinkTerms } from '../../../common/api/share-terms';

/** The order of each term (common/api/share-terms.ts): what counts as wider, what as narrowing or keeping. */
describe('wider terms', () => {
  it('share: a stronger permission, a later end, "until revoked" after any end; equal is no wider', () => {
    const now = { permission: 'download' as const, expiresAt: 1000 };
    expect(widerShareTerms({ permission: 'edit' }, now)).toEqual(['permission']);
    expect(widerShareTerms({ permission: 'download', expiresAt: 1000 }, now)).toEqual([]);
    expect(widerShareTerms({ permission: 'preview', expiresAt: 999 }, now)).toEqual([]);
    expect(widerShareTerms({ expiresAt: 1001 }, now)).toEqual(['expiresAt']);
    expect(widerShareTerms({ expiresAt: null }, now)).toEqual(['expiresAt']);
    expect(widerShareTerms({ expiresAt: null }, { ...now, expiresAt: null })).toEqual([]);
    expect(widerShareTerms({ expiresAt: 5 }, { ...now, expiresAt: null })).toEqual([]);
    expect(widerShareTerms({}, now)).toEqual([]);
  });

  it('link: no code after a code, more or unlimited downloads, downloadable after preview-only', () => {
    const strict: LinkTerms = { code: true, expiresAt: 1000, downloadLimit: 1, previewOnly: true };
    expect(widerLinkTerms({ code: false, expiresAt: null, downloadLimit: null, previewOnly: false }, strict)).toEqual(['code', 'expiresAt', 'downloadLimit', 'previewOnly']);
    expect(widerLinkTerms({ code: true, expiresAt: 1000, downloadLimit: 1, previewOnly: true }, strict)).toEqual([]);
    expect(widerLinkTerms({ downloadLimit: 2 }, strict)).toEqual(['downloadLimit']);
    const loose: LinkTerms = { code: false, expiresAt: null, downloadLimit: null, previewOnly: false };
    expect(widerLinkTerms({ code: true, expiresAt: 1, downloadLimit: 100000, previewOnly: true }, loose)).toEqual([]);
  });
});

describe('refusal reasons', () => {
  const policy = (reasons: string[], levels = 1) => ({ required: reasons.length > 0, reasons, levels });
  const approval = { reasons: ['A'], levels: 1 };

  it('nothing widened: never refused, whatever the policy', () => {
    expect(refusalReasons([], ['beyond'], approval, policy(['A', 'B'], 2))).toBeNull();
  });
  it('no approval: the policy in force decides, like a create', () => {
    expect(refusalReasons(['permission'], [], null, policy([]))).toBeNull();
    expect(refusalReasons(['permission'], [], null, policy(['A']))).toEqual(['A']);
  });
  it('beyond the approved ceiling: refused even under a looser policy, the policy reasons first', () => {
    expect(refusalReasons(['permission'], ['line'], approval, policy([]))).toEqual(['line']);
    expect(refusalReasons(['permission'], ['line'], approval, policy(['A']))).toEqual(['A', 'line']);
  });
  it('within the ceiling: accepted while the approval answers the policy in force', () => {
    expect(refusalReasons(['permission'], [], approval, policy(['A']))).toBeNull();
    expect(refusalReasons(['permission'], [], approval, policy([]))).toBeNull();
    expect(refusalReasons(['permission'], [], approval, policy(['A', 'B']))).toEqual(['A', 'B']);
    expect(refusalReasons(['permission'], [], approval, policy(['A'], 2))).toEqual(['A']);
    expect(approvalAnswers(approval, { required: false, reasons: [], levels: 2 })).toBe(true);
  });
});
