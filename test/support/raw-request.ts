// One HTTP call to the API as a given client, status and JSON body returned as they came: for tests
// that check statuses (202, 403) the renderer's client would turn into errors.
import { CLIENT_ID_HEADER, CLIENT_TOKEN_HEADER } from '../../src/shared/contract';

export type RawRequest = (
  method: string,
  path: string,
  body?: unknown,
) => Promise<{ status: number; body: unknown }>;

export function rawRequest(
  base: string,
  token: string,
  identity: { clientId: string; clientToken: string },
): RawRequest {
  return async (method, path, body) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        [CLIENT_ID_HEADER]: identity.clientId,
        [CLIENT_TOKEN_HEADER]: identity.clientToken,
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    return { status: response.status, body: await response.json() };
  };
}
