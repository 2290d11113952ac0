/**
 * The WebDAV `If` request header (RFC 4918 §10.4): parsed into lists of conditions, evaluated against
 * the state (ETag, lock tokens) of the resources it names. Pure: the caller says what a resource's
 * state is (server/dav/locks/preconditions.ts).
 *
 *   If = 1*No-tag-list | 1*Tagged-list
 *   Tagged-list = "<" Resource-URL ">" 1*List      List = "(" 1*Condition ")"
 *   Condition = ["Not"] ( "<" state-token ">" | "[" entity-tag "]" )
 */

export interface IfCondition {
  not: boolean;
  /** A state token (a lock token, or any URI such as DAV:no-lock, which names no lock). */
  token?: string;
  /** An entity tag, as written (quotes and W/ kept). */
  etag?: string;
}

export interface IfList {
  /** The tagged resource as written (an absolute URL or an absolute path); null = the request URL. */
  resource: string | null;
  conditions: IfCondition[];
}

export class IfHeaderSyntaxError extends Error {}

/** Parses an If header; throws IfHeaderSyntaxError on anything the grammar does not allow (answered 400). */
export function parseIfHeader(value: string): IfList[] {
  const lists: IfList[] = [];
  let i = 0;
  let tag: string | null = null;
  let sawTagged = false;
  let sawUntagged = false;
  const skip = () => {
    while (i < value.length && /\s/.test(value[i]!)) i++;
  };
  const until = (close: string): string => {
    const end = value.indexOf(close, i);
    if (end < 0) throw new IfHeaderSyntaxError(`If: missing "${close}"`);
    const text = value.slice(i, end);
    i = end + 1;
    return text;
  };
  skip();
  if (i >= value.length) throw new IfHeaderSyntaxError('If: empty');
  while (i < value.length) {
    const c = value[i];
    if (c === '<') {
      i++;
      tag = until('>').trim();
      if (!tag) throw new IfHeaderSyntaxError('If: empty resource tag');
      sawTagged = true;
      skip();
      if (value[i] !== '(') throw new IfHeaderSyntaxError('If: a resource tag must be followed by a list');
      continue;
    }
    if (c !== '(') throw new IfHeaderSyntaxError(`If: unexpected "${c}"`);
    if (tag === null) sawUntagged = true;
    i++;
    const conditions: IfCondition[] = [];
    for (;;) {
      skip();
      if (value[i] === ')') {
        i++;
        break;
      }
      let not = false;
      if (value.slice(i, i + 3).toLowerCase() === 'not' && /[\s<[]/.test(value[i + 3] ?? '')) {
        not = true;
        i += 3;
        skip();
      }
      if (value[i] === '<') {
        i++;
        const token = until('>').trim();
        if (!token) throw new IfHeaderSyntaxError('If: empty state token');
        conditions.push({ not, token });
      } else if (value[i] === '[') {
        i++;
        const etag = until(']').trim();
        if (!etag) throw new IfHeaderSyntaxError('If: empty entity tag');
        conditions.push({ not, etag });
      } else {
        throw new IfHeaderSyntaxError(i >= value.length ? 'If: unterminated list' : `If: unexpected "${value[i]}" in a list`);
      }
    }
    if (conditions.length === 0) throw new IfHeaderSyntaxError('If: empty list');
    lists.push({ resource: tag, conditions });
    skip();
  }
  // The grammar has either untagged lists or tagged ones, never both.
  if (sawTagged && sawUntagged) throw new IfHeaderSyntaxError('If: tagged and untagged lists mixed');
  return lists;
}

/** The state of one resource as the If header sees it. */
export interface IfResourceState {
  /** Its current entity tag (with quotes), or null when it does not exist. */
  etag: string | null;
  /** The tokens of the locks that cover it now (direct and inherited). */
  lockTokens: ReadonlySet<string>;
}

/** The state tokens a request submits: every token of the header not under Not (RFC 4918 §10.4.1). */
export function submittedTokens(lists: readonly IfList[]): Set<string> {
  const out = new Set<string>();
  for (const l of lists) for (const c of l.conditions) if (c.token && !c.not) out.add(c.token);
  return out;
}

/**
 * The tag as written against the current one, character for character (RFC 4918 gives no other rule;
 * SabreDAV and mod_dav compare so too). A resource that does not exist matches no tag.
 */
function etagMatches(written: string, current: string | null): boolean {
  return current !== null && written === current;
}

/**
 * True when at least one list is true for the resource it applies to (the request URL for an untagged
 * list); a list is true when all its conditions are. `stateOf` resolves a tagged resource (null = the
 * request URL).
 */
export async function evaluateIf(lists: readonly IfList[], stateOf: (resource: string | null) => Promise<IfResourceState>): Promise<boolean> {
  const states = new Map<string | null, IfResourceState>();
  for (const list of lists) {
    let state = states.get(list.resource);
    if (!state) {
      state = await stateOf(list.resource);
      states.set(list.resource, state);
    }
    const s = state;
    const holds = list.conditions.every((c) => {
      const matched = c.token !== undefined ? s.lockTokens.has(c.token) : etagMatches(c.etag!, s.etag);
      return c.not ? !matched : matched;
    });
    if (holds) return true;
  }
  return false;
}

/** The path of a tagged resource, whether written as an absolute URL or a path; null when it is neither. */
export function taggedPath(resource: string): string | null {
  if (resource.startsWith('/')) return resource;
  try {
    return new URL(resource).pathname;
  } catch {
    return null;
  }
}
