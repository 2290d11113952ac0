import { UNASSIGNED_DEPARTMENT_NAME } from '../../common/api/org-types';
import type { Db } from '../db/database';
import { newId } from '../ids';
import type { BlobStore } from '../storage/byte-store';
import { defaultLogoSvg } from './logo-svg';
import { hashPassword } from './password-hash';

/** Demo data documented in the README; keep these credentials exactly. */
export const DEMO = {
  brandName: '演示企业云盘',
  tenantName: '演示企业',
  admin: { username: 'admin', password: 'Admin@2024', nickName: '管理员' },
  member: { username: 'member', password: 'Member@2024', nickName: '张三' },
} as const;

/** Creates the demo tenant and accounts on first run; does nothing once a tenant exists. */
export async function seedDemoData(db: Db, blobs: BlobStore, quota: number, now = Date.now()): Promise<void> {
  const existing = await db.selectFrom('tenants').select('id').limit(1).executeTakeFirst();
  if (existing) return;

  const writer = await blobs.createWriter();
  await writer.write(Buffer.from(defaultLogoSvg(DEMO.brandName), 'utf8'));
  const logoKey = await writer.commit();

  const tenantId = newId();
  const adminHash = await hashPassword(DEMO.admin.password);
  const memberHash = await hashPassword(DEMO.member.password);
  await db.transaction().execute(async (tx) => {
    await tx
      .insertInto('tenants')
      .values({ id: tenantId, name: DEMO.tenantName, brand_name: DEMO.brandName, logo_key: logoKey, created_at: now })
      .execute();
    const unassignedId = newId();
    await tx
      .insertInto('departments')
      .values({ id: unassignedId, tenant_id: tenantId, parent_id: null, name: UNASSIGNED_DEPARTMENT_NAME, name_key: UNASSIGNED_DEPARTMENT_NAME, sort_order: 1_000_000, manager_id: null, kind: 'unassigned', created_at: now, updated_at: now })
      .execute();
    // Both demo accounts may use the public-network build, so the demo works from either build.
    const base = { tenant_id: tenantId, phone: '', avatar: '', quota, used_size: 0, created_at: now, outer_login: 1, department_id: unassignedId };
    await tx
      .insertInto('users')
      .values([
        {
          ...base,
          id: newId(),
          username: DEMO.admin.username,
          username_key: DEMO.admin.username,
          nick_name: DEMO.admin.nickName,
          role: 'admin',
          password_hash: adminHash,
          must_change_password: 0,
          password_changed_at: now,
          phone: '13800000000',
        },
        {
          ...base,
          id: newId(),
          username: DEMO.member.username,
          username_key: DEMO.member.username,
          nick_name: DEMO.member.nickName,
          role: 'member',
          password_hash: memberHash,
          must_change_password: 1,
          password_changed_at: null,
          phone: '13900000000',
        },
      ])
      .execute();
  });
}
