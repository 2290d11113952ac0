import { sql, type Kysely, type Migration } from 'kysely';

const DAY_MS = 24 * 3600 * 1000;

interface ApprovedRow {
  id: string;
  created_at: number | string;
  settings: string;
  levels: number | string;
  made_at: number | string | null;
}

/**
 * Approved terms are a ceiling (issue 35, common/api/share-terms.ts): a share or link made by an
 * approved application carries what the approval granted, as JSON in `approved_terms`
 * (ApprovedShareTerms / ApprovedLinkTerms; null = made without approval), written with the row so it
 * cannot be lost with the application. Existing approved rows get theirs from their application: its
 * settings, the end date counted from the moment approval made the row (the application's 'created'
 * step, else the row's creation), its levels, and no reasons (unknown then: a stricter policy in force
 * counts as one the approval did not answer). Rows that an earlier update widened beyond their
 * approval keep their current terms; from now on they may only narrow.
 */
export const m0082_approved_terms: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('shares').addColumn('approved_terms', 'text').execute();
    await db.schema.alterTable('share_links').addColumn('approved_terms', 'text').execute();
    for (const table of ['shares', 'share_links'] as const) {
      const rows = (
        await sql<ApprovedRow>`select r.id, r.created_at, a.settings, a.levels,
            (select max(s.at) from share_application_steps s where s.application_id = a.id and s.kind = 'created') as made_at
          from ${sql.table(table)} r join share_applications a on a.id = r.application_id`.execute(db)
      ).rows;
      for (const row of rows) {
        const terms = termsOf(row);
        if (terms) await sql`update ${sql.table(table)} set approved_terms = ${JSON.stringify(terms)} where id = ${row.id}`.execute(db);
      }
    }
  },
};

function termsOf(row: ApprovedRow): Record<string, unknown> | null {
  const madeAt = Number(row.made_at ?? row.created_at);
  const endOf = (days: number): number | null => (days === 0 ? null : madeAt + days * DAY_MS);
  const record = { reasons: [] as string[], levels: Number(row.levels) };
  const settings = JSON.parse(row.settings) as {
    share?: { permission: string; validityDays: number };
    link?: { code: string | null; validityDays: number; downloadLimit: number | null; previewOnly: boolean };
  };
  if (settings.share) return { permission: settings.share.permission, expiresAt: endOf(settings.share.validityDays), ...record };
  if (settings.link) {
    const l = settings.link;
    return { code: l.code !== null, expiresAt: endOf(l.validityDays), downloadLimit: l.downloadLimit, previewOnly: Boolean(l.previewOnly), ...record };
  }
  return null;
}
