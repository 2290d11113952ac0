import type { FastifyInstance } from 'fastify';
import { DICT_GROUP } from '../../common/api/dictionaries';
import type { ApiOk } from '../../common/api/envelope';
import { API } from '../../common/api/paths';
import type { DictGroup, DictItem, DictItemUpdateRequest, DictListRequest, StaticData, StaticDataRequest } from '../../common/api/tenant';
import { callerOf } from '../http/session-guard';
import type { DictService } from '../services/dict-service';

const code = { type: 'string', minLength: 1, maxLength: 64 } as const;

/** Spec §7 dictionary and static-data calls (every signed-in user of the tenant), and the admins' entry update. */
export function registerDictRoutes(app: FastifyInstance, dicts: DictService): void {
  app.post(
    API.dictList,
    { schema: { body: { type: 'object', properties: { groups: { type: 'array', maxItems: 50, items: code } } } } },
    async (request): Promise<ApiOk<DictGroup[]>> => {
      const groups = (request.body as DictListRequest | undefined)?.groups;
      return { data: await dicts.groups(callerOf(request).tenantId, groups ?? null) };
    },
  );

  app.get(
    API.dictQueryByGroup,
    { schema: { querystring: { type: 'object', required: ['group'], properties: { group: code } } } },
    async (request): Promise<ApiOk<DictItem[]>> => ({
      data: (await dicts.group(callerOf(request).tenantId, (request.query as { group: string }).group)).items,
    }),
  );

  app.get(
    API.dictGroupGet,
    { schema: { querystring: { type: 'object', properties: { group: code } } } },
    async (request): Promise<ApiOk<DictGroup>> => ({
      data: await dicts.group(callerOf(request).tenantId, (request.query as { group?: string }).group ?? DICT_GROUP.moduleSwitch),
    }),
  );

  app.post(
    API.dictItemUpdate,
    {
      config: { adminOnly: true },
      schema: {
        body: {
          type: 'object',
          required: ['group', 'code'],
          additionalProperties: false,
          properties: {
            group: code,
            code,
            label: { type: 'string', maxLength: 256 },
            value: { type: 'string', maxLength: 1024 },
            enabled: { type: 'boolean' },
            sort: { type: 'integer', minimum: 0, maximum: 10_000 },
          },
        },
      },
    },
    async (request): Promise<ApiOk<DictGroup>> => ({ data: await dicts.updateItem(callerOf(request), request.body as DictItemUpdateRequest) }),
  );

  app.post(
    API.staticData,
    { schema: { body: { type: 'object', required: ['names'], properties: { names: { type: 'array', minItems: 1, maxItems: 10, items: code } } } } },
    async (request): Promise<ApiOk<StaticData>> => ({
      data: await dicts.staticData(callerOf(request).tenantId, (request.body as StaticDataRequest).names),
    }),
  );
}
