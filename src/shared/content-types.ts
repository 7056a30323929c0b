// Pure (no Node, no DOM): the content type of each kind of file in the renderer build, wherever it
// is served — by the HTTP server to a browser, by the desktop's app protocol to its windows.

const CONTENT_TYPES: ReadonlyMap<string, string> = new Map([
  ['.html', 'text/html; charset=utf-8'],
  ['.js', 'text/javascript; charset=utf-8'],
  ['.css', 'text/css; charset=utf-8'],
  ['.svg', 'image/svg+xml'],
  ['.png', 'image/png'],
  ['.ico', 'image/x-icon'],
  ['.json', 'application/json'],
  ['.wasm', 'application/wasm'],
  ['.woff2', 'font/woff2'],
]);

/** The type of a file by its extension (`.js`); what the build does not hold is sent as bytes. */
export function contentTypeOf(extension: string): string {
  return CONTENT_TYPES.get(extension) ?? 'application/octet-stream';
}
