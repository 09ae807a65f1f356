import { Readable } from 'node:stream'
import { afterEach } from 'vitest'
import { createCore, type Core } from '../../electron/core/app-core'
import { MemorySecretStore } from '../../electron/core/secrets/memory-secret-store'
import { startLocalService, type LocalServiceOptions } from '../../electron/local-service'
import { UploadStore } from '../../electron/web/uploads'

export type LocalCore = Core & {
  uploads: UploadStore
  /** A file offered for import as the browser host receives one: streamed to a private temp file, by reference. */
  offer(bytes: Buffer | string, fileName: string): Promise<string>
}

/**
 * Cores as the browser host makes them, on the Local profile: a real local service over a temp workspace
 * and uploads as the import-file port. Closed after each test.
 */
export function useLocalCores(
  tempDir: () => string,
): (service?: Partial<LocalServiceOptions>) => Promise<LocalCore> {
  const made: Array<{ core: Core; uploads: UploadStore }> = []
  afterEach(async () => {
    const all = made.splice(0)
    await Promise.all(all.map((m) => m.core.close()))
    await Promise.all(all.map((m) => m.uploads.close()))
  })
  return async (service = {}) => {
    const workspaceDir = tempDir()
    const uploads = new UploadStore({ tempDir: tempDir() })
    const core = await createCore({
      configDir: tempDir(),
      dataDir: tempDir(),
      host: 'web',
      version: '0',
      secretStore: new MemorySecretStore(),
      startLocalService: () => startLocalService({ workspaceDir, sampleData: false, ...service }),
      ports: { importFiles: uploads },
    })
    made.push({ core, uploads })
    const offer = async (bytes: Buffer | string, fileName: string) =>
      (await uploads.receive(Readable.from([Buffer.from(bytes)]), fileName)).file
    return Object.assign(core, { uploads, offer })
  }
}
