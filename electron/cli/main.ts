import { runCli } from './run'
import { version } from '../../package.json'

const code = await runCli(
  process.argv.slice(2),
  { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env },
  { version },
)
process.exitCode = code
