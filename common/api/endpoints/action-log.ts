import { Type, type Static } from 'typebox';
import { ACTION_CODES } from '../action-codes';
import { ACTION_LOG_MAX_ACTIONS, ACTION_LOG_MAX_PAGE_SIZE, type ActionLogCheckpoint, type ActionLogListResponse } from '../action-log';
import { bytes, data, endpoint, jsonFile } from '../endpoint';
import { API } from '../paths';
import { IdString } from '../schemas';

/** The action log's list, export and checkpoint (ours; payloads in ../action-log.ts), admins only. */

const Time = Type.Integer({ minimum: 0, maximum: 8_640_000_000_000 });
/** The filter's fields (ActionLogFilter) as the list and the export take them, `actions` aside. */
const FilterFields = {
  from: Type.Optional(Time),
  to: Type.Optional(Time),
  userId: Type.Optional(IdString),
  account: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  departmentId: Type.Optional(IdString),
  fileName: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  outcome: Type.Optional(Type.Enum(['ok', 'refused'])),
  /**
   * Platform admins only (../tenant.ts): another tenant's log, or '' for the platform's own (failed
   * logins under names no account has). Anyone else naming another tenant: TENANT_NOT_FOUND.
   */
  tenantId: Type.Optional(Type.String({ maxLength: 64 })),
};

export const ActionLogListBody = Type.Object(
  {
    ...FilterFields,
    /** Action codes (../action-codes.ts); any of them. */
    actions: Type.Optional(Type.Array(Type.Unsafe<string>({ type: 'string', enum: ACTION_CODES }), { maxItems: ACTION_LOG_MAX_ACTIONS })),
    /** Opaque; null or absent for the first page. */
    cursor: Type.Optional(Type.Union([Type.String({ maxLength: 256 }), Type.Null()])),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: ACTION_LOG_MAX_PAGE_SIZE })),
  },
  { additionalProperties: false },
);
export type ActionLogListRequest = Static<typeof ActionLogListBody>;

/** The export's query string: the filter with `actions` comma-separated, and the viewer's time zone (minutes, as Date#getTimezoneOffset). */
export const ActionLogExportQuerySchema = Type.Object(
  {
    ...FilterFields,
    format: Type.Enum(['xlsx', 'csv']),
    actions: Type.Optional(Type.String({ maxLength: 64 * ACTION_LOG_MAX_ACTIONS })),
    tzOffset: Type.Optional(Type.Integer({ minimum: -840, maximum: 840 })),
  },
  { additionalProperties: false },
);
export type ActionLogExportQuery = Static<typeof ActionLogExportQuerySchema>;

export const ACTION_LOG = {
  list: endpoint({ method: 'POST', path: API.actionLogList, access: 'admin', action: null, body: ActionLogListBody, response: data<ActionLogListResponse>() }),
  /** Streamed as a sheet (xlsx or csv), any size: the browser downloads it from a link. */
  export: endpoint({ method: 'GET', path: API.actionLogExport, access: 'admin', action: 'audit.export', query: ActionLogExportQuerySchema, response: bytes }),
  /** The signed checkpoint of the log's head, as a JSON file to keep off the server. */
  checkpoint: endpoint({
    method: 'GET',
    path: API.actionLogCheckpoint,
    access: 'admin',
    action: 'audit.checkpoint',
    query: Type.Object({ tenantId: FilterFields.tenantId }, { additionalProperties: false }),
    response: jsonFile<ActionLogCheckpoint>(),
  }),
};
