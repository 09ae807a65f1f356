import { screen, waitFor, within } from '@testing-library/vue'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import * as bridge from '../../../../src/bridge'
import SettingsPanel from '../../../../src/features/settings/SettingsPanel.vue'
import { useSettingsStore } from '../../../../src/features/settings/settings-store'
import { BASE_URL_KEYS } from '@contract/index'
import type { FakeGeo } from '../../support/fake-geo'
import { createTestApp, renderInApp } from '../../support/render'
// (.txt: Vite refuses to serve *.pem.) A throw-away CA made with `openssl req -x509 -newkey ec …` (its key was deleted at once).
import caPem from './fixtures/team-ca-pem.txt?raw'

/** `openssl x509 -in fixtures/team-ca-pem.txt -noout -fingerprint -sha256` */
const CA_FINGERPRINT =
  '7D:03:CA:A1:F3:51:DE:CF:19:A2:27:2D:6D:73:3F:D7:25:44:92:05:96:7C:F7:2A:4A:B3:82:7B:E5:1B:48:8F'
/** Shaped as a PEM private key (not a real one): what a person might choose by mistake. */
const KEY_PEM = '-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIA==\n-----END PRIVATE KEY-----\n'

vi.mock('../../../../src/bridge', async () => {
  const { createFakeGeo } = await import('../../support/fake-geo')
  const fake = createFakeGeo()
  return { geo: fake.geo, geoEvents: fake.geoEvents, geoFiles: fake.geoFiles, fake }
})

const fake = (bridge as unknown as { fake: FakeGeo }).fake
const user = userEvent.setup()
beforeEach(() => fake.reset())

async function renderPanel() {
  const app = createTestApp()
  await useSettingsStore().load()
  renderInApp(SettingsPanel, { app })
  await screen.findByRole('heading', { name: 'Connection profiles' })
}

const pem = (name: string, text: string) => new File([text], name, { type: 'application/x-pem-file' })

async function newProfile(name: string) {
  await user.click(screen.getByRole('button', { name: 'New profile' }))
  const profileName = screen.getByRole('textbox', { name: 'Profile name' })
  await user.clear(profileName)
  await user.type(profileName, name)
  for (const key of BASE_URL_KEYS) {
    const field = screen.getByRole('textbox', { name: key })
    await user.clear(field)
    await user.type(field, `https://team.example.test:8443/${key}`)
  }
}

describe('the remote profile form: Server CA certificate', () => {
  it('reads a chosen .pem, shows its file name and SHA-256 fingerprint, and saves it with the profile', async () => {
    await renderPanel()
    await newProfile('Team')
    await user.upload(screen.getByLabelText('Server CA certificate'), pem('team-ca.pem', caPem))
    const shown = await screen.findByTestId('ca-certificate')
    await waitFor(() => expect(shown.textContent).toContain(`SHA-256 ${CA_FINGERPRINT}`))
    expect(shown.textContent).toContain('team-ca.pem')
    await user.click(screen.getByRole('button', { name: 'Save profile' }))
    await waitFor(() =>
      expect(fake.state.view.profiles.find((p) => p.name === 'Team')?.caCertificate).toBe(caPem),
    )
  })

  it('refuses a private key or a file that is not a certificate, next to the field', async () => {
    await renderPanel()
    await newProfile('Keyed')
    const input = screen.getByLabelText('Server CA certificate')
    await user.upload(input, pem('server.key', KEY_PEM))
    await waitFor(() => expect(input.getAttribute('aria-invalid')).toBe('true'))
    expect(document.getElementById(input.getAttribute('aria-describedby')!)?.textContent).toContain(
      'server.key: this is a private key',
    )
    expect(screen.queryByTestId('ca-certificate')).toBeNull()
    await user.upload(input, pem('notes.crt', 'hello'))
    await waitFor(() =>
      expect(document.getElementById(input.getAttribute('aria-describedby')!)?.textContent).toContain(
        'notes.crt: a CA certificate must be PEM text',
      ),
    )
    await user.click(screen.getByRole('button', { name: 'Save profile' }))
    await waitFor(() => expect(fake.state.view.profiles.some((p) => p.name === 'Keyed')).toBe(true))
    expect(fake.state.view.profiles.find((p) => p.name === 'Keyed')?.caCertificate).toBeUndefined()
  })

  it('shows a saved CA when editing, and removes it', async () => {
    fake.state.view.profiles.push({
      name: 'Pinned',
      builtIn: false,
      urls: Object.fromEntries(BASE_URL_KEYS.map((k) => [k, 'https://team.example.test'])) as never,
      caCertificate: caPem,
    })
    await renderPanel()
    await user.click(screen.getByRole('button', { name: 'Edit Pinned' }))
    const shown = await screen.findByTestId('ca-certificate')
    expect(shown.textContent).toContain('saved with the profile')
    await user.click(within(shown).getByRole('button', { name: 'Remove CA certificate' }))
    expect(screen.queryByTestId('ca-certificate')).toBeNull()
    await user.click(screen.getByRole('button', { name: 'Save profile' }))
    await waitFor(() =>
      expect(fake.state.view.profiles.find((p) => p.name === 'Pinned')?.caCertificate).toBeUndefined(),
    )
  })
})
