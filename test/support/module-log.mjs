// `node --import ./module-log.mjs …` with GEO_ANALYST_MODULE_LOG=FILE: every module the process imports is
// written to FILE, one URL a line (`module-log-hooks.mjs`). Modules a CommonJS package `require`s inside
// itself are not seen; its entry, imported, is.
import { register } from 'node:module'

if (process.env.GEO_ANALYST_MODULE_LOG)
  register('./module-log-hooks.mjs', import.meta.url, { data: { file: process.env.GEO_ANALYST_MODULE_LOG } })
