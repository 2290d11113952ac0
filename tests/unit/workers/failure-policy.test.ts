import { describe, expect, it } from 'vitest';
import { ERRORS } from '../../../common/api/errors';
import { ApiCallError, classifyFailure } from '../../../common/api/failure';
import { decideOnFailure } from '../../../workers/engine/failure-policy';
import { MESSAGES } from '../../../workers/engine/messages';

const refusal = (code: string, message: string) => {
  const body = { errorCode: code, errorMessage: message };
  return new ApiCallError(400, classifyFailure(400, body), body);
};

describe('decideOnFailure: blocked types', () => {
  it('content the tenant blocks ends in the intercepted list, saying it was the content', () => {
    expect(decideOnFailure(refusal(ERRORS.FILE_CONTENT_BLOCKED.code, ERRORS.FILE_CONTENT_BLOCKED.message))).toEqual({
      action: 'fail',
      message: MESSAGES.blockedContent,
      holdReason: 'blockedType',
    });
  });
  it('a blocked name ends there too, with its own words', () => {
    expect(decideOnFailure(refusal(ERRORS.FILE_TYPE_BLOCKED.code, ERRORS.FILE_TYPE_BLOCKED.message))).toMatchObject({ action: 'fail', message: MESSAGES.blockedType, holdReason: 'blockedType' });
  });
});

describe('decideOnFailure: names the rule refuses', () => {
  it.each([ERRORS.NAME_INVALID_CHARS, ERRORS.NAME_INVISIBLE_CHARS, ERRORS.NAME_TRAILING_DOT, ERRORS.NAME_RESERVED, ERRORS.NAME_TOO_LONG, ERRORS.NAME_EMPTY])('$code fails for good as badName, with the server’s words', (e) => {
    expect(decideOnFailure(refusal(e.code, e.message))).toEqual({ action: 'fail', message: e.message, holdReason: 'badName' });
  });
  it('a session whose gesture lock is up holds the transfer (resumable), it does not fail it', () => {
    expect(decideOnFailure(refusal(ERRORS.GESTURE_LOCKED.code, ERRORS.GESTURE_LOCKED.message))).toEqual({ action: 'hold', message: '请先解锁手势密码', holdReason: 'unauthorized' });
  });
  it('a name clash is still a question, not a bad name', () => {
    expect(decideOnFailure(refusal(ERRORS.NAME_CONFLICT.code, ERRORS.NAME_CONFLICT.message))).toMatchObject({ action: 'hold', holdReason: 'exists' });
  });
});
