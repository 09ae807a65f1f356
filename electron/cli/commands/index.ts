import type { CliCommand } from '../context'
import { localServiceCommands } from './local-service'
import { callCommands } from './call'
import { historyCommands } from './history'
import { profileCommands } from './profile'
import { secretCommands } from './secret'

/** Every `geo-analyst` command. A new command is a file in this folder and one entry here. */
export const COMMANDS: readonly CliCommand[] = [
  ...profileCommands,
  ...secretCommands,
  ...localServiceCommands,
  ...callCommands,
  ...historyCommands,
]
