import type { CredentialName } from '../../../../electron/contract'
import { createClient } from '../../../../electron/core/client/create-client'
import { Redactor } from '../../../../electron/core/http/redactor'
import type { HistoryEntry, HistoryRecorder } from '../../../../electron/core/workspace/request-history'
import { fakeUrls, type FakeProvider } from '../../../support/fake-provider'

export const TOKEN = 'tok-GIS-0123456789'
export const KEY = 'lic-KEY-9876543210'

export function clientFor(
  fake: FakeProvider,
  creds: Partial<Record<CredentialName, string>> = { token: TOKEN, 'licence-key': KEY },
) {
  const history: HistoryEntry[] = []
  const recorder: HistoryRecorder = {
    async record(entry) {
      history.push(entry)
    },
  }
  const redactor = new Redactor()
  const client = createClient({
    urls: fakeUrls(fake.base),
    credential: async (name) => creds[name] ?? null,
    redactor,
    history: recorder,
    transport: { sleep: async () => undefined, retry: { attemptTimeoutMs: 2_000 } },
  })
  return { client, history, redactor }
}
