import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Feature } from 'geojson'
import { describeIssues, primaryIssue, STATUS_BY_ISSUE_KIND } from '../../contract/common/issues'
import { validateJoinRequest } from '../../contract/gis/join-params'
import { JoinCancelled, type JoinPool } from '../engine/join-pool'
import { errorBody, JsonResponseWriter, readJsonBody, sendJson } from '../http-util'

export interface JoinRouteOptions {
  workspaceDir: string
  pool: JoinPool
  rowCap: number
  maxBodyBytes: number
}

/**
 * Spec §4.5: POST {mgis_url}/query_apply/join. Parameters are checked by the shared contract validator
 * (422 missing, 409 conflicting, 400 malformed); the engine runs in a worker and stops when the client leaves.
 */
export async function handleJoin(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  options: JoinRouteOptions,
) {
  const body = await readJsonBody(req, options.maxBodyBytes)
  const checked = validateJoinRequest(url.searchParams, body)
  if (!checked.ok) {
    const first = primaryIssue(checked.issues)!
    const status = STATUS_BY_ISSUE_KIND[first.kind]
    const issues = checked.issues.filter((i) => STATUS_BY_ISSUE_KIND[i.kind] === status)
    sendJson(
      res,
      status,
      errorBody(status, describeIssues(issues), { field: first.field, issues: checked.issues }),
    )
    return
  }
  const controller = new AbortController()
  res.on('close', () => {
    if (!res.writableFinished) controller.abort()
  })
  // The answer is streamed as the worker serializes it: status and head first, then the rows in parts.
  const writer = new JsonResponseWriter(res)
  try {
    await options.pool.run(
      {
        workspaceDir: options.workspaceDir,
        params: checked.value.params,
        body: checked.value.body as { features: Feature[] } | undefined,
        rowCap: options.rowCap,
      },
      (part) => writer.write(part.status, part.bytes, part.last),
      controller.signal,
    )
  } catch (error) {
    if (error instanceof JoinCancelled) return
    // Part of the body is out: the client must see a cut response, not a second status.
    if (writer.headersSent) {
      res.destroy(error instanceof Error ? error : undefined)
      return
    }
    throw error
  }
}
