// Pure (no Node, no DOM): the one content security policy and set of security headers of the
// renderer, wherever it is served — by the HTTP server to a browser, by the desktop's app protocol
// and session to its windows. Kept here so neither shell imports the other.

export type CspDirectives = Readonly<Record<string, readonly string[]>>;

/**
 * Scripts only from Gatehouse itself, no eval, nothing framed; CodeMirror injects style elements,
 * hence inline styles.
 */
export const CSP_DIRECTIVES = {
  'default-src': ["'none'"],
  'script-src': ["'self'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'"],
  'connect-src': ["'self'"],
  'worker-src': ["'self'", 'blob:'],
  'base-uri': ["'none'"],
  'form-action': ["'none'"],
  'frame-ancestors': ["'none'"],
} as const satisfies CspDirectives;

/** The header value of a policy: `name source source; name source`. */
export function serializeCsp(directives: CspDirectives): string {
  return Object.entries(directives)
    .map(([name, sources]) => [name, ...sources].join(' '))
    .join('; ');
}

export const CONTENT_SECURITY_POLICY = serializeCsp(CSP_DIRECTIVES);

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};
