import { screen, waitFor, within } from '@testing-library/vue'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import * as bridge from '../../../../src/bridge'
import SettingsPanel from '../../../../src/features/settings/SettingsPanel.vue'
import SettingsDialog from '../../../../src/features/settings/SettingsDialog.vue'
import { useSettingsStore } from '../../../../src/features/settings/settings-store'
import { useShellStore } from '../../../../src/features/shell/shell-store'
import {
  BASE_URL_KEYS,
  CREDENTIAL_LABELS,
  CREDENTIAL_NAMES,
  NEXT_STEP_BY_CLASS,
  geoError,
} from '@contract/index'
import type { FakeGeo } from '../../support/fake-geo'
import { createTestApp, renderInApp } from '../../support/render'

vi.mock('../../../../src/bridge', async () => {
  const { createFakeGeo } = await import('../../support/fake-geo')
  const fake = createFakeGeo()
  return { geo: fake.geo, geoEvents: fake.geoEvents, geoFiles: fake.geoFiles, fake }
})

const fake = (bridge as unknown as { fake: FakeGeo }).fake
const CANARY = 'canary-7c4e9a-never-shown'
const user = userEvent.setup()

async function renderPanel() {
  const app = createTestApp()
  await useSettingsStore().load()
  const rendered = renderInApp(SettingsPanel, { app })
  await screen.findByRole('heading', { name: 'Connection profiles' })
  return rendered
}

/** The text a control's aria-describedby points at (its status, hint or error). */
function description(control: HTMLElement): string {
  const ids = (control.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean)
  return ids.map((id) => document.getElementById(id)?.textContent?.trim() ?? '').join(' ')
}

async function fill(control: HTMLElement, value: string) {
  await user.clear(control)
  if (value)
    await user.type(
      control,
      value.replace(/[{[]/g, (c) => c + c),
    )
}

describe('Settings screen', () => {
  beforeEach(() => fake.reset())

  it('saves a credential through secrets.set, empties the input and shows the status, never the value', async () => {
    const { pinia } = await renderPanel()
    const input = screen.getByLabelText<HTMLInputElement>(CREDENTIAL_LABELS.token)
    expect(input.type).toBe('password')
    await fill(input, CANARY)
    await user.click(screen.getByRole('button', { name: 'Save Bearer token (all groups)' }))

    expect(fake.geo['secrets.set']).toHaveBeenCalledWith({ profile: 'Local', name: 'token', value: CANARY })
    await waitFor(() => expect(input.value).toBe(''))
    expect(description(input)).toBe('Set (2026-11-22 10:15 UTC)')
    expect(document.body.innerHTML).not.toContain(CANARY)
    expect(JSON.stringify(pinia.state.value)).not.toContain(CANARY)
  })

  it('offers Save and Clear for every credential, each with its own name and status', async () => {
    fake.keychain.set('Local/licence-key', 'k')
    await renderPanel()
    for (const name of CREDENTIAL_NAMES) {
      const label = CREDENTIAL_LABELS[name]
      const input = screen.getByLabelText<HTMLInputElement>(label)
      expect(input.type).toBe('password')
      screen.getByRole('button', { name: `Save ${label}` })
      const clear = screen.getByRole<HTMLButtonElement>('button', { name: `Clear ${label}` })
      expect(clear.disabled).toBe(name !== 'licence-key')
      expect(description(input)).toBe(name === 'licence-key' ? 'Set' : 'Not set')
    }
    await user.click(screen.getByRole('button', { name: `Clear ${CREDENTIAL_LABELS['licence-key']}` }))
    await waitFor(() => expect(fake.keychain.has('Local/licence-key')).toBe(false))
    expect(fake.geo['secrets.clear']).toHaveBeenCalledWith({ profile: 'Local', name: 'licence-key' })
  })

  it('shows the host’s error inline with the next step of its failure class', async () => {
    await renderPanel()
    fake.failNext('secrets.set', geoError('local-configuration', 'The keychain is locked.'))
    const label = CREDENTIAL_LABELS['token.gis']
    await fill(screen.getByLabelText(label), CANARY)
    await user.click(screen.getByRole('button', { name: `Save ${label}` }))
    const alert = await screen.findByRole('alert', { name: '' })
    expect(alert.textContent).toContain('The keychain is locked.')
    expect(alert.textContent).toContain(NEXT_STEP_BY_CLASS['local-configuration'])
  })

  it('warns prominently when credentials live only in this session’s memory', async () => {
    fake.state.store = 'session-memory'
    await renderPanel()
    expect(
      screen.getAllByRole('alert').filter((a) => /memory for this session only/.test(a.textContent ?? '')),
    ).toHaveLength(1)
  })

  it('shows the built-in Local profile as active and read-only', async () => {
    await renderPanel()
    const [local] = within(screen.getByRole('list', { name: 'Profiles' })).getAllByRole('listitem')
    expect(local?.getAttribute('aria-current')).toBe('true')
    expect(local?.textContent).toContain('Built-in, read-only')
    expect(screen.queryAllByRole('button', { name: /^(Edit|Delete) Local$/ })).toHaveLength(0)
  })

  it('creates a remote profile from the six spec placeholders, then makes it active', async () => {
    await renderPanel()
    await user.click(screen.getByRole('button', { name: 'New profile' }))
    await fill(screen.getByRole('textbox', { name: 'Profile name' }), 'Cloud')
    for (const key of BASE_URL_KEYS)
      await fill(screen.getByRole('textbox', { name: key }), `https://${key.replace(/_/g, '-')}.example.test`)
    await user.click(screen.getByRole('button', { name: 'Save profile' }))
    await waitFor(() =>
      expect(fake.state.view.profiles.find((p) => p.name === 'Cloud')?.urls?.mgis_v2_url).toBe(
        'https://mgis-v2-url.example.test',
      ),
    )
    await user.click(screen.getByRole('button', { name: 'Use Cloud' }))
    await screen.findByRole('heading', { name: 'Credentials of profile “Cloud”' })
    expect(fake.state.view.activeProfile).toBe('Cloud')
    const cloud = within(screen.getByRole('list', { name: 'Profiles' }))
      .getAllByRole('listitem')
      .find((li) => li.textContent?.includes('Cloud'))
    expect(cloud?.getAttribute('aria-current')).toBe('true')
  })

  it('names the invalid URL field next to it and does not call the host', async () => {
    await renderPanel()
    await user.click(screen.getByRole('button', { name: 'New profile' }))
    await fill(screen.getByRole('textbox', { name: 'Profile name' }), 'Cloud')
    for (const key of BASE_URL_KEYS)
      await fill(screen.getByRole('textbox', { name: key }), 'https://ok.example.test')
    const telematics = screen.getByRole('textbox', { name: 'telematics_url' })
    await fill(telematics, 'ftp://fleet.example.test')
    await user.click(screen.getByRole('button', { name: 'Save profile' }))
    await waitFor(() => expect(telematics.getAttribute('aria-invalid')).toBe('true'))
    expect(fake.geo['settings.saveProfile']).not.toHaveBeenCalled()
    expect(description(telematics)).toContain('must be an absolute http(s) URL')
  })

  it('deletes a remote profile after confirmation', async () => {
    fake.state.view.profiles.push({
      name: 'Old',
      builtIn: false,
      urls: Object.fromEntries(BASE_URL_KEYS.map((k) => [k, 'https://old.example.test'])) as never,
    })
    await renderPanel()
    await user.click(screen.getByRole('button', { name: 'Delete Old' }))
    expect(fake.geo['settings.deleteProfile']).not.toHaveBeenCalled()
    await user.click(
      within(screen.getByRole('group', { name: 'Delete Old?' })).getByRole('button', {
        name: 'Confirm delete Old',
      }),
    )
    await waitFor(() => expect(screen.queryAllByRole('button', { name: /Old/ })).toHaveLength(0))
    expect(fake.state.view.profiles.map((p) => p.name)).toEqual(['Local'])
  })

  it('switches the basemap to online XYZ tiles with a custom URL', async () => {
    await renderPanel()
    await user.click(screen.getByRole('radio', { name: 'Online: XYZ tiles (needs network)' }))
    const url = screen.getByRole('textbox', { name: 'XYZ tile URL template' })
    expect(description(url)).toContain('With {z}, {x} and {y}')
    await fill(url, 'https://t.example.test/{z}/{x}/{y}.png')
    await user.click(screen.getByRole('button', { name: 'Save basemap' }))
    await screen.findByRole('status', { name: '' })
    expect(fake.state.view.preferences.basemap).toEqual({
      kind: 'xyz',
      xyzUrl: 'https://t.example.test/{z}/{x}/{y}.png',
    })
    await fill(url, 'https://t.example.test/tile.png')
    await user.click(screen.getByRole('button', { name: 'Save basemap' }))
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toMatch(/\{x\}, \{y\} and \{z\}/)
    expect(url.getAttribute('aria-invalid')).toBe('true')
  })

  it('goes straight to a credential when opened for it (settings.open)', async () => {
    const { shell } = await renderPanel()
    await shell.run('settings.open', { section: 'credentials', credential: 'token.gis' })
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByLabelText(CREDENTIAL_LABELS['token.gis'])),
    )
    await shell.run('settings.open', { section: 'basemap' })
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Basemap' })))
    expect(useShellStore().settingsOpen).toBe(true)
  })

  it('opens as a modal dialog named and headed “Settings”, and closes from its Close button', async () => {
    const app = createTestApp()
    await useSettingsStore().load()
    const { emitted } = renderInApp(SettingsDialog, { app, props: { open: true } })
    const dialog = await screen.findByRole('dialog', { name: 'Settings' })
    expect((dialog as HTMLDialogElement).open).toBe(true)
    within(dialog).getByRole('heading', { name: 'Settings', level: 2 })
    await user.click(within(dialog).getByRole('button', { name: 'Close Settings' }))
    expect(emitted()['update:open']).toEqual([[false]])
  })
})
