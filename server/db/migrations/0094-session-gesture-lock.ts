import { type Kysely, type Migration } from 'kysely';

/**
 * 手势密码 enforced by the server: a session the client has locked (at start, after idle or hidden) is
 * marked here, and while the mark holds the session guard refuses its calls except the lock screen's
 * own (GESTURE_LOCKED). A right pattern clears it; 0/1 like the other flags, for both engines.
 */
export const m0094_session_gesture_lock: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('sessions').addColumn('gesture_locked', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('sessions').dropColumn('gesture_locked').execute();
  },
};
