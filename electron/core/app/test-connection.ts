import type { TestConnectionAnswer } from '../../contract/app/postgis'
import type { CoreContext } from '../area'
import { localServiceDatabase } from './postgis-profile'

/**
 * "Test connection" of a PostGIS workspace profile: its fields and its keychain password, checked by the
 * host's port (connect, PostGIS, each schema usable, the datasets counted from the catalogs). Any problem
 * is an answer in plain words, not a failure: the form shows it beside the button.
 */
export async function testConnection(core: CoreContext, name: string): Promise<TestConnectionAnswer> {
  const profile = await core.settings.profile(name)
  const database = localServiceDatabase(profile, null)
  if (!database)
    return {
      ok: false,
      profile: profile.name,
      problem: 'not-a-postgis-profile',
      message: `"${profile.name}" is not a PostGIS workspace profile: there is no database to test.`,
    }
  const port = core.ports.postgisCheck
  if (!port)
    return {
      ok: false,
      profile: profile.name,
      problem: 'cannot-test-here',
      message: `This ${core.host} host cannot reach a database: test the connection in the desktop app or the browser host.`,
    }
  const password = await core.credentials.revealDatabasePassword(profile.name)
  const result = await port.check(localServiceDatabase(profile, password)!)
  if (result.ok) return { ...result, profile: profile.name }
  // The check builds its words from the names given; a password is still never let through.
  const message = password ? result.message.split(password).join('•••') : result.message
  return { ok: false, profile: profile.name, problem: result.problem, message }
}
