import { useMemo, type ReactNode } from 'react';
import { Router, useRouter } from 'wouter';

type Parser = ReturnType<typeof useRouter>['parser'];

/** `parser` remembering each pattern it has turned into a regular expression. */
export function rememberingParser(parser: Parser): Parser {
  const seen = new Map<string, ReturnType<Parser>>();
  return (route, loose) => {
    const key = (loose ? 'loose ' : 'exact ') + route;
    let parsed = seen.get(key);
    if (!parsed) seen.set(key, (parsed = parser(route, loose)));
    return parsed;
  };
}

/**
 * wouter's Switch parses every route's pattern into a regular expression on each render until one
 * matches; the app's two Switches hold ~100 patterns and render with every location change and every
 * render of the shell (a cold 个人文件: tens of ms in the shell's first tasks). Each pattern is parsed once.
 */
export function RoutePatterns({ children }: { children: ReactNode }) {
  const { parser } = useRouter();
  const remembering = useMemo(() => rememberingParser(parser), [parser]);
  return <Router parser={remembering}>{children}</Router>;
}
