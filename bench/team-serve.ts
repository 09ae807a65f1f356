/**
 * One team-server instance for `bench/team.ts`, in a process of its own (its memory is read from /proc):
 * argv `URI USERS_FILE CERT KEY`, the password in PGPASSWORD; HTTPS on 127.0.0.1 with the users file, over
 * the PostGIS workspace. Answers its URLs on the IPC channel, then its event loop's delay every 5 s, and
 * stops when the channel closes.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { startLocalService } from '../electron/local-service/index'

const [uri, usersFile, certFile, keyFile] = process.argv.slice(2)
const dir = mkdtempSync(path.join(os.tmpdir(), 'geo-bench-team-'))
const service = await startLocalService({
  workspaceDir: dir,
  databaseUri: uri!,
  usersFile: usersFile!,
  tls: { certFile: certFile!, keyFile: keyFile! },
  listen: { host: '127.0.0.1', port: 0 },
  sampleData: false,
  pool: {
    ...(process.env.BENCH_DATABASE_JOINS ? { databaseJoins: Number(process.env.BENCH_DATABASE_JOINS) } : {}),
    ...(process.env.BENCH_PER_USER_LARGE_JOINS
      ? { perUserLargeJoins: Number(process.env.BENCH_PER_USER_LARGE_JOINS) }
      : {}),
  },
})
process.send!({ urls: service.urls })
// The event loop's delay, each 5 s: what a cheap request waits for behind the instance's own work.
const delay = monitorEventLoopDelay({ resolution: 10 })
delay.enable()
let cpu = process.cpuUsage()
setInterval(() => {
  const used = process.cpuUsage(cpu)
  cpu = process.cpuUsage()
  const cpuPercent = (used.user + used.system) / 50_000
  // The channel closes when the bench stops this instance, before the instance has stopped.
  if (process.connected)
    process.send!({ loop: { p99: delay.percentile(99) / 1e6, max: delay.max / 1e6, cpuPercent } })
  delay.reset()
}, 5000).unref()
process.on('disconnect', () => {
  void service.close().finally(() => {
    rmSync(dir, { recursive: true, force: true })
    process.exit(0)
  })
})
