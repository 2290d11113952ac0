import { describe, expect, it } from 'vitest';
import { ERRORS } from '../../../common/api/errors';
import { ApiCallError, classifyFailure } from '../../../common/api/failure';
import { remoteErrorOf } from '../../../workers/sync/http-remote';
import { RemoteError } from '../../../workers/sync/ports';

const refusal = (code: string, message: string) => {
  const body = { errorCode: code, errorMessage: message };
  return new ApiCallError(400, classifyFailure(400, body), body);
};

describe('the desktop sync reading the server\'s refusals', () => {
  it('a session whose gesture lock is up makes the pass wait and come again, it fails nothing', () => {
    const error = remoteErrorOf(refusal(ERRORS.GESTURE_LOCKED.code, ERRORS.GESTURE_LOCKED.message));
    expect(error).toBeInstanceOf(RemoteError);
    expect(error).toMatchObject({ kind: 'transient', message: '请先解锁手势密码' });
  });
  it('another refusal is still a refusal', () => {
    expect(remoteErrorOf(refusal(ERRORS.FORBIDDEN.code, ERRORS.FORBIDDEN.message))).toMatchObject({ kind: 'refused' });
  });
});
