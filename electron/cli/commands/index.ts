import { inAreaOrder } from '../../contract/area'
import type { CliCommand } from '../context'
import * as AREA_COMMANDS from './area-list'
import { callCommands } from './call'
import { historyCommands } from './history'
import { localServiceCommands } from './local-service'
import { profileCommands } from './profile'
import { secretCommands } from './secret'
import { usersCommands } from './users'

/**
 * Every `geo-analyst` command: the app's own commands, then each area's (`geo-analyst <area> …`) from
 * `area-list.ts`, where a new area is one line.
 */
export const COMMANDS: readonly CliCommand[] = [
  ...profileCommands,
  ...secretCommands,
  ...localServiceCommands,
  ...usersCommands,
  ...callCommands,
  ...historyCommands,
  ...inAreaOrder<readonly CliCommand[]>(AREA_COMMANDS).flatMap(([, commands]) => commands),
]
