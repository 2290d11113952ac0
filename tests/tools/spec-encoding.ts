/**
 * Does a served §7 call take its input the way the spec says? Compared with the route's declaration
 * (common/api/endpoints: its encoding and the TypeBox schemas Fastify validates with) and with what
 * the registered route enforces (its `bodyEncoding`, read by the body-encoding guard), not only its
 * method and path. Each disagreement is one sentence for the coverage table; none means it agrees.
 */
import type { AnyEndpoint } from '../../common/api/endpoint';
import type { SpecCall } from '../../common/api/spec-calls';

/** The JSON Schema keywords read here (TypeBox schemas are plain JSON Schema objects). */
interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
}

const SCALARS = new Set(['string', 'number', 'integer', 'boolean', 'null']);

/** A value a form field can carry: a scalar (or a choice of scalars); never a list or an object. */
function isScalar(s: Schema): boolean {
  if (s.anyOf) return s.anyOf.every(isScalar);
  if (s.enum || s.const !== undefined) return true;
  return [s.type ?? 'object'].flat().every((t) => SCALARS.has(t));
}

/** Whether a list's item schema takes `value` (an enum or constants must name it; a string takes any). */
function itemTakes(items: Schema | undefined, value: string): boolean {
  if (!items) return true;
  if (items.anyOf) return items.anyOf.some((s) => itemTakes(s, value));
  if (items.enum) return items.enum.includes(value);
  if (items.const !== undefined) return items.const === value;
  return [items.type ?? 'string'].flat().includes('string');
}

const fieldList = (s: Schema | undefined): string => Object.keys(s?.properties ?? {}).join(', ');

/**
 * Where the declaration takes its input (the table's "declared" column): where, not which fields, so
 * the table does not change with every field a declaration gains.
 */
export function declaredInput(endpoint: AnyEndpoint): string {
  const input = endpoint.encoding === 'query' ? endpoint.query : endpoint.body;
  const where = endpoint.encoding === 'query' ? 'query' : `${endpoint.encoding} body`;
  return input ? where : `${endpoint.encoding}, no input`;
}

/**
 * The ways `endpoint` (registered with `bodyEncoding`) departs from the spec's encoding for `call`:
 * - the declared encoding and the one the route enforces are the spec's;
 * - the input sits where that encoding carries it: a GET's in its query, never in a body; a POST's in
 *   its body, never in the query string (the spec's POSTs carry their payload in the body);
 * - a form body holds only scalar fields (a form cannot carry a list or an object);
 * - a JSON body is an object;
 * - the payload fields the spec names are declared there, a list the spec shows takes its values;
 * - the answer is the `{ data }` envelope (spec §7: "response fields are mostly in data").
 */
export function encodingMismatches(call: SpecCall, endpoint: AnyEndpoint, bodyEncoding: string | undefined): string[] {
  const found: string[] = [];
  const body = endpoint.body as Schema | undefined;
  const query = endpoint.query as Schema | undefined;
  if (endpoint.encoding !== call.encoding) found.push(`declared ${endpoint.encoding}, the spec says ${call.encoding}`);
  const enforced = bodyEncoding === 'form' ? 'form' : call.method === 'GET' ? 'query' : 'json';
  if (endpoint.encoding !== 'raw' && enforced !== call.encoding) found.push(`the route takes ${enforced} bodies, the spec says ${call.encoding}`);
  if (call.encoding === 'query' && body) found.push('a GET declared with a body');
  if (call.encoding !== 'query' && query && Object.keys(query.properties ?? {}).length > 0) found.push(`input in the query string (${fieldList(query)}), the spec says a ${call.encoding} body`);
  if (call.encoding === 'form' && body) {
    const nested = Object.entries(body.properties ?? {}).filter(([, s]) => !isScalar(s));
    if (nested.length > 0) found.push(`form fields that are not scalars: ${nested.map(([k]) => k).join(', ')}`);
  }
  if (call.encoding === 'json' && body && [body.type].flat()[0] !== 'object') found.push('a JSON body that is not an object');
  const input = call.encoding === 'query' ? query : body;
  const missing = (call.fields ?? []).filter((f) => !input?.properties?.[f]);
  if (missing.length > 0) found.push(`no ${missing.join(', ')} in the ${call.encoding === 'query' ? 'query' : 'body'}`);
  if (call.takesList) {
    const values = call.takesList;
    const lists = Object.values(input?.properties ?? {}).filter((s) => [s.type].flat().includes('array'));
    if (!lists.some((l) => values.every((v) => itemTakes(l.items, v)))) found.push(`no list that takes ${values.join(', ')}`);
  }
  if (endpoint.response.kind !== 'data') found.push(`answers ${endpoint.response.kind}, not the { data } envelope`);
  return found;
}
