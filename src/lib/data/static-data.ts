/**
 * The static data lists of spec §3 (quota, customerTelephone, validity) and the module switch
 * (`GET /api/dict/group/get`), as the tenant has them: read through the data layer, kept in the
 * account's partition so a page offline shows the last answer.
 */
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { DICTIONARIES } from '../../../common/api/endpoints/dictionaries';
import { DICT_GROUP } from '../../../common/api/dictionaries';
import { defaultQuotaOf, quotaChoicesOf, type QuotaChoice } from '../../../common/org/quota';
import { api } from '../api';

export const STATIC_DATA_KEYS = {
  quota: ['account', 'staticData', 'quota'] as const,
  moduleSwitch: ['account', 'dict', 'module-switch'] as const,
};

/** The tenant's `quota` list (enabled entries, in its order) and the one a new account gets. */
export function useQuotaChoices(): { choices: QuotaChoice[]; defaultChoice: QuotaChoice | null; isPending: boolean; isError: boolean } {
  const query = useQuery({
    queryKey: STATIC_DATA_KEYS.quota,
    queryFn: ({ signal }) => api.call(DICTIONARIES.staticData, { names: [DICT_GROUP.quota] }, { signal }),
    staleTime: 60_000,
  });
  const choices = useMemo(() => quotaChoicesOf(query.data?.quota ?? []), [query.data]);
  return { choices, defaultChoice: choices.length > 0 ? defaultQuotaOf(choices) : null, isPending: query.isPending, isError: query.isError };
}

/**
 * The module switch (dictionary group `module-switch`): whether a module is on for the tenant. The
 * server already leaves switched-off modules out of the menu (and so out of the routes); this is for
 * what the menu does not cover — buttons and badges of a module shown elsewhere. Unknown (not loaded
 * yet, offline with nothing cached): on, as the server's menu decides access anyway.
 */
export function useModuleSwitch(): (code: string) => boolean {
  const query = useQuery({
    queryKey: STATIC_DATA_KEYS.moduleSwitch,
    queryFn: ({ signal }) => api.call(DICTIONARIES.groupGet, { group: DICT_GROUP.moduleSwitch }, { signal, onError: () => undefined }),
    staleTime: 60_000,
  });
  return useMemo(() => {
    const off = new Set((query.data?.items ?? []).filter((i) => !i.enabled).map((i) => i.code));
    return (code: string) => !off.has(code);
  }, [query.data]);
}
