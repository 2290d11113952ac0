import type { FastifyInstance } from 'fastify';
import { DICT_GROUP } from '../../common/api/dictionaries';
import { DICTIONARIES } from '../../common/api/endpoints/dictionaries';
import { route } from '../http/endpoint-route';
import { callerOf } from '../http/session-guard';
import type { DictService } from '../services/dict-service';

/** Spec §7 dictionary and static-data calls, and the admins' entry update (common/api/endpoints/dictionaries.ts). */
export function registerDictRoutes(app: FastifyInstance, dicts: DictService): void {
  route(app, DICTIONARIES.list, async (request) => ({ data: await dicts.groups(callerOf(request).tenantId, request.body?.groups ?? null) }));
  route(app, DICTIONARIES.queryByGroup, async (request) => ({ data: (await dicts.group(callerOf(request).tenantId, request.query.group)).items }));
  route(app, DICTIONARIES.groupGet, async (request) => ({
    data: await dicts.group(callerOf(request).tenantId, request.query.group ?? DICT_GROUP.moduleSwitch),
  }));
  route(app, DICTIONARIES.itemUpdate, async (request) => ({ data: await dicts.updateItem(callerOf(request), request.body) }));
  route(app, DICTIONARIES.staticData, async (request) => ({ data: await dicts.staticData(callerOf(request).tenantId, request.body.names) }));
}
