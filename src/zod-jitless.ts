/**
 * Imported first by `main.ts`, before any schema of the contract is made. Zod compiles object parsers with
 * `new Function` when it may, and finds out by trying once; the page's policy has no `'unsafe-eval'`, so
 * the try is refused and Chromium reports a `securitypolicyviolation` (script-src, eval) although zod
 * catches the error. Told it is jitless it does not try, and parses as it would after a refused try.
 */
import { config } from 'zod'

config({ jitless: true })
