import type { CliCommand } from '../context'
import { localServiceCommands } from './local-service'
import { callCommands } from './call'
import { fleetCommands } from './fleet'
import { gisCommands } from './gis'
import { historyCommands } from './history'
import { mapCommands } from './map'
import { placesCommands } from './places'
import { profileCommands } from './profile'
import { routingCommands } from './routing'
import { secretCommands } from './secret'
import { visionCommands } from './vision'

/**
 * Every `geo-analyst` command. The app's own commands, then one module per area (`geo-analyst <area> …`),
 * one line each: a new area is a file in this folder and one entry here.
 */
export const COMMANDS: readonly CliCommand[] = [
  ...profileCommands,
  ...secretCommands,
  ...localServiceCommands,
  ...callCommands,
  ...historyCommands,
  ...mapCommands,
  ...placesCommands,
  ...routingCommands,
  ...fleetCommands,
  ...gisCommands,
  ...visionCommands,
]
