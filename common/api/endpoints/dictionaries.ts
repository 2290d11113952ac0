import { Type, type Static } from 'typebox';
import { data, endpoint } from '../endpoint';
import { API } from '../paths';
import type { DictGroup, DictItem, StaticData } from '../tenant';

/** Spec §7's dictionary and static-data calls (defaults in ../dictionaries.ts, payloads in ../tenant.ts). */

const Code = Type.String({ minLength: 1, maxLength: 64 });

export const DictListBody = Type.Object({ groups: Type.Optional(Type.Array(Code, { maxItems: 50 })) });
export type DictListRequest = Static<typeof DictListBody>;
export const DictGroupQuery = Type.Object({ group: Code });
export const DictGroupOptionalQuery = Type.Object({ group: Type.Optional(Code) });
/** Changes one entry of the tenant's version of a group. */
export const DictItemUpdateBody = Type.Object(
  {
    group: Code,
    code: Code,
    label: Type.Optional(Type.String({ maxLength: 256 })),
    value: Type.Optional(Type.String({ maxLength: 1024 })),
    enabled: Type.Optional(Type.Boolean()),
    sort: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000 })),
  },
  { additionalProperties: false },
);
export type DictItemUpdateRequest = Static<typeof DictItemUpdateBody>;
export const StaticDataBody = Type.Object({ names: Type.Array(Code, { minItems: 1, maxItems: 10 }) });
export type StaticDataRequest = Static<typeof StaticDataBody>;

export const DICTIONARIES = {
  /** The tenant's version of the named groups (all without `groups`). */
  list: endpoint({ method: 'POST', path: API.dictList, access: 'member', action: null, body: DictListBody, response: data<DictGroup[]>() }),
  /** One group's entries, enabled and not. */
  queryByGroup: endpoint({ method: 'GET', path: API.dictQueryByGroup, access: 'member', action: null, query: DictGroupQuery, response: data<DictItem[]>() }),
  /** One group (default `module-switch`). */
  groupGet: endpoint({ method: 'GET', path: API.dictGroupGet, access: 'member', action: null, query: DictGroupOptionalQuery, response: data<DictGroup>() }),
  /** Ours, admins. */
  itemUpdate: endpoint({ method: 'POST', path: API.dictItemUpdate, access: 'admin', action: 'tenant.dictChange', body: DictItemUpdateBody, response: data<DictGroup>() }),
  /** The static data call of spec §7 (its path is ours): enabled entries of each named group. */
  staticData: endpoint({ method: 'POST', path: API.staticData, access: 'member', action: null, body: StaticDataBody, response: data<StaticData>() }),
};
