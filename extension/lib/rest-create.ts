/**
 * REST v2's create with files (a multipart body): the one request the API client cannot make
 * over tRPC. Shared by the API client and the file host, which makes it without the client.
 */
export function restCreateRequest(serverUrl: string, token: string | undefined, form: FormData): [string, RequestInit] {
  return [`${serverUrl.replace(/\/+$/, '')}/api/v2/pushes`, { method: 'POST', body: form, headers: token ? { Authorization: `Bearer ${token}` } : {} }];
}
