import type { Migration, MigrationProvider } from 'kysely';
import { m0001_initial } from './0001-initial';
import { m0002_transfer } from './0002-transfer';
import { m0003_pipelined_uploads } from './0003-pipelined-uploads';
import { m0004_accounts } from './0004-accounts';
import { m0005_files } from './0005-files';
import { m0007_files_trash_order } from './0007-files-trash-order';
import { m0008_single_piece_blobs } from './0008-single-piece-blobs';
import { m0009_client_ops } from './0009-client-ops';
import { m0010_nfc_names } from './0010-nfc-names';
import { m0011_action_log } from './0011-action-log';
import { m0012_tenant_profile } from './0012-tenant-profile';
import { m0020_organisation } from './0020-organisation';
import { m0021_organisation_counts } from './0021-organisation-counts';
import { m0040_finished_uploads } from './0040-finished-uploads';
import { m0041_blob_intents } from './0041-blob-intents';
import { m0042_stale_fingerprints } from './0042-stale-fingerprints';
import { m0030_sync } from './0030-sync';
import { m0050_sharing } from './0050-sharing';
import { m0060_name_sort_keys } from './0060-name-sort-keys';
import { m0070_notices } from './0070-notices';
import { m0081_ticket_metering } from './0081-ticket-metering';
import { m0082_approved_terms } from './0082-approved-terms';
import { m0083_action_log_head_mac } from './0083-action-log-head-mac';
import { m0084_fingerprint_chunk_size } from './0084-fingerprint-chunk-size';
import { m0085_postgres_byte_order } from './0085-postgres-byte-order';
import { m0086_postgres_name_trigrams } from './0086-postgres-name-trigrams';
import { m0087_usage_stats } from './0087-usage-stats';
import { m0088_client_releases } from './0088-client-releases';
import { m0089_postgres_name_grams } from './0089-postgres-name-grams';
import { m0090_gesture_patterns } from './0090-gesture-patterns';
import { m0091_session_devices } from './0091-session-devices';
import { m0092_tenant_home_url } from './0092-tenant-home-url';
import { m0094_session_gesture_lock } from './0094-session-gesture-lock';
import { m0097_document_jobs } from './0097-document-jobs';
import { m0098_content_text } from './0098-content-text';
import { m0099_document_job_requests } from './0099-document-job-requests';
import { m0101_content_grams_linear } from './0101-content-grams-linear';
import { m0102_content_body_lower } from './0102-content-body-lower';
import { m0095_device_passwords } from './0095-device-passwords';
import { m0096_dav_locks_properties } from './0096-dav-locks-properties';

/**
 * Versioned migrations, one module each, imported here: nothing is read from a migrations folder at run time.
 * A new migration is a new file with the next number, added to MIGRATIONS below.
 * Never edit a released migration: add a new one with the next number.
 */
const MIGRATIONS: Record<string, Migration> = {
  '0001_initial': m0001_initial,
  '0002_transfer': m0002_transfer,
  '0003_pipelined_uploads': m0003_pipelined_uploads,
  '0004_accounts': m0004_accounts,
  '0005_files': m0005_files,
  '0007_files_trash_order': m0007_files_trash_order,
  '0008_single_piece_blobs': m0008_single_piece_blobs,
  '0009_client_ops': m0009_client_ops,
  '0010_nfc_names': m0010_nfc_names,
  '0011_action_log': m0011_action_log,
  '0012_tenant_profile': m0012_tenant_profile,
  '0020_organisation': m0020_organisation,
  '0021_organisation_counts': m0021_organisation_counts,
  '0030_sync': m0030_sync,
  '0040_finished_uploads': m0040_finished_uploads,
  '0041_blob_intents': m0041_blob_intents,
  '0042_stale_fingerprints': m0042_stale_fingerprints,
  '0050_sharing': m0050_sharing,
  '0060_name_sort_keys': m0060_name_sort_keys,
  '0070_notices': m0070_notices,
  '0081_ticket_metering': m0081_ticket_metering,
  '0082_approved_terms': m0082_approved_terms,
  '0083_action_log_head_mac': m0083_action_log_head_mac,
  '0084_fingerprint_chunk_size': m0084_fingerprint_chunk_size,
  '0085_postgres_byte_order': m0085_postgres_byte_order,
  '0086_postgres_name_trigrams': m0086_postgres_name_trigrams,
  '0087_usage_stats': m0087_usage_stats,
  '0088_client_releases': m0088_client_releases,
  '0089_postgres_name_grams': m0089_postgres_name_grams,
  '0090_gesture_patterns': m0090_gesture_patterns,
  '0091_session_devices': m0091_session_devices,
  '0092_tenant_home_url': m0092_tenant_home_url,
  '0094_session_gesture_lock': m0094_session_gesture_lock,
  '0097_document_jobs': m0097_document_jobs,
  '0098_content_text': m0098_content_text,
  '0099_document_job_requests': m0099_document_job_requests,
  '0101_content_grams_linear': m0101_content_grams_linear,
  '0102_content_body_lower': m0102_content_body_lower,
  '0095_device_passwords': m0095_device_passwords,
  '0096_dav_locks_properties': m0096_dav_locks_properties,
};

export const migrationProvider: MigrationProvider = {
  async getMigrations() {
    return MIGRATIONS;
  },
};
