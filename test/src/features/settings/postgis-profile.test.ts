import { screen, waitFor, within } from '@testing-library/vue'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import * as bridge from '../../../../src/bridge'
import SettingsPanel from '../../../../src/features/settings/SettingsPanel.vue'
import { useSettingsStore } from '../../../../src/features/settings/settings-store'
import { ok, type PostgisFields, type SettingsView } from '@contract/index'
import type { TestConnectionAnswer } from '@contract/app/postgis'
import type { FakeGeo } from '../../support/fake-geo'
import { createTestApp, renderInApp } from '../../support/render'

vi.mock('../../../../src/bridge', async () => {
  const { createFakeGeo } = await import('../../support/fake-geo')
  const fake = createFakeGeo()
  return { geo: fake.geo, geoEvents: fake.geoEvents, geoFiles: fake.geoFiles, fake }
})

const fake = (bridge as unknown as { fake: FakeGeo }).fake
const PASSWORD = 'pg-canary-5b1e-never-shown'
const user = userEvent.setup()

/** The host's side: profiles kept in the fake's view, passwords in a "keychain", answers scripted. */
function scriptHost(answer: TestConnectionAnswer | ((name: string) => TestConnectionAnswer)) {
  const passwords = new Map<string, string>()
  const tested: string[] = []
  fake.respond(
    'settings.savePostgisProfile',
    ({ name, postgis }: { name: string; postgis: PostgisFields }) => {
      const view: SettingsView = fake.state.view
      view.profiles = [
        ...view.profiles.filter((p) => p.name !== name),
        { name, builtIn: true, urls: null, kind: 'postgis', postgis },
      ]
      return ok(structuredClone(view))
    },
  )
  fake.respond('secrets.setDatabasePassword', ({ profile, value }: { profile: string; value: string }) => {
    passwords.set(profile, value)
    return ok({ profile, set: true, store: 'keychain' as const })
  })
  fake.respond('settings.testConnection', ({ name }: { name: string }) => {
    tested.push(name)
    return ok(typeof answer === 'function' ? answer(name) : answer)
  })
  return { passwords, tested }
}

async function renderPanel() {
  const app = createTestApp()
  await useSettingsStore().load()
  const rendered = renderInApp(SettingsPanel, { app })
  await screen.findByRole('heading', { name: 'Connection profiles' })
  return rendered
}

async function fill(label: string | RegExp, value: string) {
  const control = screen.getByLabelText<HTMLInputElement>(label)
  await user.clear(control)
  if (value) await user.type(control, value)
  return control
}

/** The text a control's aria-describedby points at (its hint or error). */
function description(control: HTMLElement): string {
  const ids = (control.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean)
  return ids.map((id) => document.getElementById(id)?.textContent?.trim() ?? '').join(' ')
}

describe('PostGIS workspace profiles in the settings', () => {
  beforeEach(() => fake.reset())

  it('creates one: the fields to the profile, the password to the keychain only, listed with its kind', async () => {
    const host = scriptHost({
      ok: true,
      profile: 'Office db',
      database: 'gis',
      user: 'analyst',
      postgisVersion: '3.3.2',
      schemas: ['work', 'public'],
      datasets: 4,
    })
    const { pinia } = await renderPanel()
    await user.click(screen.getByRole('button', { name: 'New PostGIS workspace…' }))
    const form = screen.getByRole('form', { name: 'New PostGIS workspace' })
    await fill('Profile name', 'Office db')
    await fill('Host', 'db.example.org')
    await fill('Port', '6432')
    await fill('Database', 'gis')
    await fill('User', 'analyst')
    const password = await fill('Password', PASSWORD)
    expect(password.type).toBe('password')
    await fill('Schemas', 'work, public')
    await user.selectOptions(screen.getByLabelText('TLS (sslmode)'), 'require')
    await user.click(within(form).getByRole('button', { name: 'Save PostGIS workspace' }))

    await waitFor(() => expect(screen.queryByRole('form', { name: 'New PostGIS workspace' })).toBeNull())
    expect(fake.geo['settings.savePostgisProfile']).toHaveBeenCalledWith({
      name: 'Office db',
      postgis: {
        host: 'db.example.org',
        port: 6432,
        database: 'gis',
        user: 'analyst',
        schemas: ['work', 'public'],
        sslmode: 'require',
      },
    })
    expect(host.passwords.get('Office db')).toBe(PASSWORD)
    const row = screen.getByText('Office db').closest('li')!
    expect(within(row).getByText('PostGIS workspace')).toBeTruthy()
    expect(row.textContent).toContain(
      'analyst@db.example.org:6432/gis · schemas work, public · sslmode require',
    )
    expect(document.body.innerHTML).not.toContain(PASSWORD)
    expect(JSON.stringify(pinia.state.value)).not.toContain(PASSWORD)

    await user.click(within(row).getByRole('button', { name: 'Test connection to Office db' }))
    const status = await within(row).findByText(/^Connected/)
    expect(status.getAttribute('role')).toBe('status')
    expect(status.textContent).toBe(
      'Connected to “gis” as analyst: PostGIS 3.3.2, 4 datasets in schemas work, public.',
    )
    expect(within(row).queryByRole('alert')).toBeNull()
    expect(host.tested).toEqual(['Office db'])
  })

  it('shows what is wrong, in plain words, as an alert', async () => {
    const message = 'The database refused the password of user "analyst": wrong password.'
    scriptHost((name) => ({ ok: false, profile: name, problem: 'wrong-password', message }))
    await renderPanel()
    await user.click(screen.getByRole('button', { name: 'New PostGIS workspace…' }))
    await fill('Profile name', 'Office db')
    await fill('Host', 'db.example.org')
    await fill('Database', 'gis')
    await fill('User', 'analyst')
    await user.click(screen.getByRole('button', { name: 'Save PostGIS workspace' }))
    const button = await screen.findByRole('button', { name: 'Test connection to Office db' })
    await user.click(button)
    const alert = await screen.findByRole('alert')
    expect(alert.textContent?.trim()).toBe(message)
    expect(fake.geo['secrets.setDatabasePassword']).not.toHaveBeenCalled()
  })

  it('checks every field inline before anything is sent, naming what is wrong', async () => {
    scriptHost({ ok: false, profile: 'x', problem: 'refused', message: 'x' })
    await renderPanel()
    await user.click(screen.getByRole('button', { name: 'New PostGIS workspace…' }))
    await fill('Profile name', 'Office db')
    const host = await fill('Host', 'postgres://db.example.org')
    const port = await fill('Port', '99999')
    const schemas = await fill('Schemas', 'work, geo_analyst')
    await fill('User', 'analyst')
    await user.click(screen.getByRole('button', { name: 'Save PostGIS workspace' }))

    await waitFor(() => expect(host.getAttribute('aria-invalid')).toBe('true'))
    expect(description(host)).toMatch(/^host must be a host name/)
    expect(description(port)).toBe('port must be a whole number from 1 to 65535')
    expect(description(schemas)).toMatch(/"geo_analyst" holds the app's own bookkeeping/)
    expect(description(screen.getByLabelText('Database'))).toBe('database must not be empty')
    expect(screen.getByLabelText('User').getAttribute('aria-invalid')).toBeNull()
    expect(fake.geo['settings.savePostgisProfile']).not.toHaveBeenCalled()

    await fill('Host', 'db.example.org')
    await fill('Port', '5432')
    await fill('Schemas', 'work')
    await fill('Database', 'gis')
    await user.click(screen.getByRole('button', { name: 'Save PostGIS workspace' }))
    await waitFor(() => expect(fake.geo['settings.savePostgisProfile']).toHaveBeenCalledTimes(1))
  })

  it('edits one with its fields filled in, keeping the password when the field is left empty', async () => {
    scriptHost({ ok: false, profile: 'x', problem: 'refused', message: 'x' })
    const postgis: PostgisFields = {
      host: '10.0.0.7',
      port: 5432,
      database: 'gis',
      user: 'analyst',
      schemas: ['Ref Data', 'public'],
      sslmode: 'prefer',
    }
    fake.state.view.profiles.push({ name: 'Office db', builtIn: true, urls: null, kind: 'postgis', postgis })
    await renderPanel()
    await user.click(screen.getByRole('button', { name: 'Edit Office db' }))
    screen.getByRole('form', { name: 'Edit PostGIS workspace “Office db”' })
    expect(screen.getByLabelText<HTMLInputElement>('Schemas').value).toBe('Ref Data, public')
    expect(screen.getByLabelText<HTMLInputElement>('Host').value).toBe('10.0.0.7')
    expect(screen.getByLabelText<HTMLInputElement>('Password').value).toBe('')
    await fill('Database', 'gis2')
    await user.click(screen.getByRole('button', { name: 'Save PostGIS workspace' }))
    await waitFor(() =>
      expect(fake.geo['settings.savePostgisProfile']).toHaveBeenCalledWith({
        name: 'Office db',
        postgis: { ...postgis, database: 'gis2' },
      }),
    )
    expect(fake.geo['secrets.setDatabasePassword']).not.toHaveBeenCalled()
  })
})
