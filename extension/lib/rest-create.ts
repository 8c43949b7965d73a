/**
 * REST v2's create with files (a multipart body): the one request the API client cannot make
 * over tRPC. Shared by the API client and the file host, which makes it without the client.
 */
export function restCreateRequest(serverUrl: string, token: string | undefined, form: FormData): [string, RequestInit] {
  return [restUrl(serverUrl, '/api/v2/pushes'), { method: 'POST', body: form, headers: restHeaders(token) }];
}

/** An address of the server's REST API. */
export function restUrl(serverUrl: string, path: string): string {
  return `${serverUrl.replace(/\/+$/, '')}${path}`;
}

export function restHeaders(token: string | undefined): Record<string, string> {
  return token ? { Authorization: `Bearer ${token}` } : {};
}
