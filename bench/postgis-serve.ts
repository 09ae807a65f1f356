/**
 * The local service over a PostGIS workspace in a process of its own (`bench/postgis-joins.ts` reads its
 * memory from /proc): argv `URI ROWCAP`, the password in PGPASSWORD; answers its URLs on the IPC channel
 * and stops when the channel closes.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { startLocalService } from '../electron/local-service/index'

const [uri, rowCap] = process.argv.slice(2)
const dir = mkdtempSync(path.join(os.tmpdir(), 'geo-bench-pg-svc-'))
const service = await startLocalService({
  workspaceDir: dir,
  databaseUri: uri!,
  token: 'bench-token',
  sampleData: false,
  rowCap: Number(rowCap),
})
process.send!({ urls: service.urls })
process.on('disconnect', () => {
  void service.close().finally(() => {
    rmSync(dir, { recursive: true, force: true })
    process.exit(0)
  })
})
