import type { RequestPreview } from '../../contract'
import type { BuiltRequest } from '../client/execute'
import { toCli, toCurl } from '../http/copy-as-command'
import { REDACTED, type Redactor } from '../http/redactor'

/** Where the CLI form reads the user geometry from: the renderer offers the body as this file. */
export const PREVIEW_BODY_FILE = 'body.geojson'

/**
 * The read-only preview of a join: the request exactly as built for sending, then redacted — the
 * Authorization value, every live secret and token-like query values. Also as `curl` and as the CLI
 * (`geo-analyst call gis.join name=value ... --body body.geojson`).
 */
export function joinPreview(
  request: BuiltRequest,
  params: Readonly<Record<string, unknown>>,
  hasBody: boolean,
  redactor: Redactor,
): RequestPreview {
  return requestPreview(
    request,
    toCli('gis.join', params, redactor, hasBody ? { body: PREVIEW_BODY_FILE } : {}),
    redactor,
  )
}

/**
 * The read-only preview of any built request: the Authorization value, every live secret and token-like
 * query values redacted; as `curl` and as the given CLI line.
 */
export function requestPreview(request: BuiltRequest, cli: string, redactor: Redactor): RequestPreview {
  const headers: Array<[string, string]> = Object.entries(request.headers).map(([name, value]) => [
    name,
    name.toLowerCase() === 'authorization' ? value.replace(/^(\S+)\s.*$/, `$1 ${REDACTED}`) : value,
  ])
  const url = new URL(request.url)
  const preview: RequestPreview = {
    method: request.method,
    url: request.url,
    query: [...url.searchParams.entries()],
    headers,
    ...(request.bodyText !== undefined ? { body: request.bodyText } : {}),
    curl: toCurl(
      { method: request.method, url: request.url, headers: request.headers, body: request.bodyText },
      redactor,
    ),
    cli,
  }
  return redactor.redactDeep(preview)
}
