import type { MultipleFileCheckResult } from '../../../common/transfer/checks';

/** A multipleFile/check answer that finds nothing, but for what `found` says. */
export const checkAnswer = (found: Partial<MultipleFileCheckResult>): MultipleFileCheckResult => ({
  key: '0',
  blockedType: false,
  sensitive: false,
  locked: false,
  exists: false,
  existingFileId: null,
  replaceable: true,
  suggestedName: '',
  overQuota: false,
  ...found,
});
