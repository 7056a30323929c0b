import { commands, type CommandName } from '../../shared/contract';

interface Route {
  name: CommandName;
  method: string;
  segments: string[];
}

/** The HTTP routes, derived from the contract's command table. */
const routes: Route[] = (Object.keys(commands) as CommandName[]).map((name) => ({
  name,
  method: commands[name].http.method,
  segments: commands[name].http.path.split('/').filter(Boolean),
}));

export type RouteMatch =
  | { kind: 'found'; name: CommandName; params: Record<string, string> }
  | { kind: 'method_not_allowed'; allowed: string[] }
  | { kind: 'not_found' };

export function matchRoute(method: string, pathname: string): RouteMatch {
  const parts = pathname.split('/').filter(Boolean);
  const allowed: string[] = [];
  for (const route of routes) {
    if (route.segments.length !== parts.length) continue;
    const params: Record<string, string> = {};
    const matches = route.segments.every((segment, i) => {
      const part = parts[i]!;
      if (segment.startsWith(':')) {
        try {
          params[segment.slice(1)] = decodeURIComponent(part);
        } catch {
          return false;
        }
        return true;
      }
      return segment === part;
    });
    if (!matches) continue;
    if (route.method === method) return { kind: 'found', name: route.name, params };
    allowed.push(route.method);
  }
  return allowed.length ? { kind: 'method_not_allowed', allowed } : { kind: 'not_found' };
}
