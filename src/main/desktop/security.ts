// The one module that applies Gatehouse's security restrictions to Electron (cf. Podman Desktop's
// security-restrictions): navigation, window-open, permissions, CSP. The decisions themselves are
// pure functions in security-policy.ts, tested under Node.
import { shell, type App, type Session, type WebContents } from 'electron';
import {
  contentSecurityPolicy,
  downloadAllowed,
  navigationAllowed,
  permissionDecision,
  windowOpenDecision,
} from './security-policy';

export {
  APP_ORIGIN,
  APP_SCHEME,
  isAppUrl,
  isAllowedExternal,
  secureWebPreferences,
  EXTERNAL_LINK_ALLOWLIST,
} from './security-policy';

export function restrictWebContents(contents: WebContents, devServerUrl?: string): void {
  const guard = (event: { preventDefault(): void }, url: string) => {
    if (!navigationAllowed(url, devServerUrl)) event.preventDefault();
  };
  contents.on('will-navigate', guard);
  contents.on('will-redirect', guard);
  contents.on('will-frame-navigate', (event) => guard(event, event.url));
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    const decision = windowOpenDecision(url);
    if (decision.openExternal) void shell.openExternal(decision.openExternal);
    return { action: decision.action };
  });
}

export function restrictSession(session: Session, devServerUrl?: string): void {
  session.setPermissionRequestHandler((_contents, permission, callback, details) =>
    callback(permissionDecision(permission, details.requestingUrl)),
  );
  session.setPermissionCheckHandler((_contents, permission, requestingOrigin) =>
    permissionDecision(permission, requestingOrigin),
  );
  session.setDevicePermissionHandler(() => false);
  session.setDisplayMediaRequestHandler((_request, callback) => callback({}));
  session.on('will-download', (event, item) => {
    if (!downloadAllowed(item.getURL(), devServerUrl)) event.preventDefault();
  });
  const csp = contentSecurityPolicy(devServerUrl);
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [csp] } });
  });
}

export function restrictApp(app: App, devServerUrl?: string): void {
  // Every renderer sandboxed, whatever a window's own preferences say.
  app.enableSandbox();
  app.on('web-contents-created', (_event, contents) => restrictWebContents(contents, devServerUrl));
}
