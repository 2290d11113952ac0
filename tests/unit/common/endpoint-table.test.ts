import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { AnyEndpoint } from '../../../common/api/endpoint';
import { clientEndpointModule, clientFields } from '../../../common/api/endpoint-table';
import { ENDPOINTS } from '../../../common/api/endpoints';

const DECLARATIONS = fileURLToPath(new URL('../../../common/api/endpoints/', import.meta.url));
const domainFiles = readdirSync(DECLARATIONS).filter((f) => f.endsWith('.ts') && f !== 'index.ts');

/** What the build gives the web app for one declaration file, evaluated as the browser would. */
async function clientModuleOf(file: string): Promise<{ source: string; module: Record<string, unknown>; real: Record<string, unknown> }> {
  const real = (await import(path.join(DECLARATIONS, file))) as Record<string, unknown>;
  const source = clientEndpointModule(real, `common/api/endpoints/${file}`);
  const module = (await import(`data:text/javascript,${encodeURIComponent(source)}`)) as Record<string, unknown>;
  return { source, module, real };
}

describe('the endpoint tables the web app is built with', () => {
  it('hold every declared entry with the fields api.call reads, equal to the declaration', async () => {
    const shipped: AnyEndpoint[] = [];
    for (const file of domainFiles) {
      const { module, real } = await clientModuleOf(file);
      for (const [name, table] of Object.entries(module)) {
        for (const [key, entry] of Object.entries(table as Record<string, AnyEndpoint>)) {
          const declared = (real[name] as Record<string, AnyEndpoint>)[key]!;
          expect(entry, `${file} ${name}.${key}`).toEqual(clientFields(declared));
          shipped.push(declared);
        }
      }
    }
    expect(new Set(shipped)).toEqual(new Set(ENDPOINTS));
  });

  it('carry no schema and import nothing, so TypeBox stays out of the client build', async () => {
    for (const file of domainFiles) {
      const { source, module } = await clientModuleOf(file);
      expect(source, file).not.toMatch(/^import |"body":|"query":|"params":|"type":"object"/m);
      for (const table of Object.values(module)) for (const entry of Object.values(table as object)) expect(Object.keys(entry as object).sort()).toEqual(['access', 'action', 'encoding', 'method', 'path', 'response']);
    }
  });

  it('leave out what is not an entry (schemas), so a run-time import of one from the client fails the build', async () => {
    const { module, real } = await clientModuleOf('auth.ts');
    expect(real.LoginBody).toBeDefined();
    expect(module.LoginBody).toBeUndefined();
    expect(module.AUTH).toBeDefined();
  });
});
