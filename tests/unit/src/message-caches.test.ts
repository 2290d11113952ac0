import { describe, expect, it } from 'vitest';
import { FILE_MESSAGE_CATEGORIES } from '../../../common/api/notices';
import { SHARING_KEYS } from '../../../src/lib/data/sharing';
import { cachesAbout } from '../../../src/lib/notices/message-caches';

/**
 * Issue 44 item 3, "lists updated live": every message about an application makes the applications,
 * their count (the 审批 badge) and 我的申请 stale, so a page showing them follows the message at once.
 * apply.forwarded (the first level passed it on) and apply.expired left 我的申请 saying 待审批.
 */
describe('what a file message makes stale', () => {
  for (const type of FILE_MESSAGE_CATEGORIES.apply.types) {
    it(`${type} refreshes the applications, the 审批 badge and 我的申请`, () => {
      expect(cachesAbout(type)).toContainEqual(SHARING_KEYS.all);
    });
  }
});
