import type { AnyEndpoint } from './endpoint';

/**
 * What the web app gets of a domain's declarations: each entry without its schemas.
 *
 * `api.call` reads an entry's method, path, encoding and answer kind; the body, query and parameter
 * schemas are for the server, which validates with them. Shipped as they are, they bring TypeBox and
 * every schema into the first screens (measured: the login page's scripts grew from 188 to 200 kB
 * compressed, its budget). So the build replaces each `common/api/endpoints/<domain>.ts` with the
 * module this function writes from the real one (vite.config.ts, endpointTablesForClient): the same
 * tables, evaluated from the same declarations, minus the schemas. Types still come from the source.
 * A client that imports a schema at run time fails the build (it is not exported here).
 */
export function clientEndpointModule(module: Readonly<Record<string, unknown>>, source: string): string {
  const lines = [`// ${source} as the web app gets it: its entries without their schemas (common/api/endpoint-table.ts).`];
  for (const [name, value] of Object.entries(module)) {
    if (isEntry(value)) lines.push(`export const ${name} = ${JSON.stringify(clientFields(value))};`);
    else if (isEntryTable(value)) {
      const table = Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, clientFields(entry)]));
      lines.push(`export const ${name} = ${JSON.stringify(table)};`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** The fields the client reads; `body`, `query` and `params` (the schemas) stay on the server. */
export function clientFields(entry: AnyEndpoint): Pick<AnyEndpoint, 'method' | 'path' | 'access' | 'action' | 'encoding' | 'response'> {
  return { method: entry.method, path: entry.path, access: entry.access, action: entry.action, encoding: entry.encoding, response: { kind: entry.response.kind } };
}

function isEntry(value: unknown): value is AnyEndpoint {
  if (typeof value !== 'object' || value === null) return false;
  const e = value as Partial<AnyEndpoint>;
  return typeof e.method === 'string' && typeof e.path === 'string' && typeof e.encoding === 'string' && typeof e.response?.kind === 'string';
}

function isEntryTable(value: unknown): value is Record<string, AnyEndpoint> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const values = Object.values(value);
  return values.length > 0 && values.every(isEntry);
}
