import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { chromium, type Browser, type Page } from 'playwright-core'
import { afterAll, beforeAll, expect } from 'vitest'

const ROOT = path.resolve(import.meta.dirname, '../..')

/** Debian's Chromium, never a test tool's own browser download. */
export const CHROMIUM_PATH = process.env.GEO_ANALYST_CHROMIUM ?? '/usr/bin/chromium'
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--disable-quic',
]

export interface RunningHost {
  url: string
  port: number
  /** The host's process is still running. */
  alive(): boolean
  openUrl: string
  configDir: string
  dataDir: string
  output: () => string
  stop(): Promise<void>
}

/**
 * Start the built browser host (`out/web/main.mjs`) as its own process, on a free loopback port; with
 * `fromSource`, the TypeScript entry through tsx instead (node tests, which do not build first).
 */
export async function startHost(
  options: {
    configDir?: string
    dataDir?: string
    env?: NodeJS.ProcessEnv
    fromSource?: boolean
    args?: string[]
  } = {},
): Promise<RunningHost> {
  const configDir = options.configDir ?? mkdtempSync(path.join(os.tmpdir(), 'geo-e2e-config-'))
  const dataDir = options.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'geo-e2e-data-'))
  const entry = options.fromSource
    ? ['--import', 'tsx', path.join(ROOT, 'electron/web/main.ts')]
    : [path.join(ROOT, 'out/web/main.mjs')]
  const child: ChildProcess = spawn(
    process.execPath,
    [...entry, '--port', '0', '--config-dir', configDir, ...(options.args ?? [])],
    {
      cwd: ROOT,
      env: { ...process.env, GEO_ANALYST_DATA_DIR: dataDir, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  let output = ''
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()))
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()))
  const openUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`browser host did not start in 60 s:\n${output}`)),
      60_000,
    )
    const check = () => {
      const match = /(http:\/\/127\.0\.0\.1:\d+\/#session=[\w-]+)/.exec(output)
      if (match?.[1]) {
        clearTimeout(timer)
        resolve(match[1])
      }
    }
    child.stdout?.on('data', check)
    child.on('exit', (code) => reject(new Error(`browser host exited with ${code}:\n${output}`)))
  })
  const url = openUrl.split('#')[0] as string
  return {
    url,
    port: Number(new URL(url).port),
    alive: () => child.exitCode === null && child.signalCode === null,
    openUrl,
    configDir,
    dataDir,
    output: () => output,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve))
        child.kill('SIGTERM')
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))])
        if (child.exitCode === null) child.kill('SIGKILL')
      }
      if (!options.configDir) rmSync(configDir, { recursive: true, force: true })
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS })
}

/** Open the app as a person would: the URL the host printed, in a fresh browser context. */
export async function openApp(
  browser: Browser,
  host: RunningHost,
  viewport = { width: 1400, height: 900 },
  /** The activity bar's area to open first, by its name (e.g. "Spatial analytics"). */
  area?: string,
  /** Run on the page before the app is loaded (init scripts). */
  beforeOpen?: (page: Page) => Promise<void>,
): Promise<Page> {
  const context = await browser.newContext({ viewport, acceptDownloads: true })
  const page = await context.newPage()
  await beforeOpen?.(page)
  const problems: string[] = []
  page.on('pageerror', (error) => problems.push(error.message))
  page.on('console', (message) => {
    if (message.type() !== 'error') return
    problems.push(message.text())
    // Chromium reports what the page's policy refused on the console; every e2e session fails on it.
    if (/Content Security Policy/.test(message.text())) cspViolations.push(message.text())
  })
  ;(page as Page & { problems?: string[] }).problems = problems
  await watchCspViolations(page, cspViolations)
  await page.goto(host.openUrl)
  if (area) {
    const tab = page.getByRole('navigation', { name: 'Activity bar' }).getByRole('tab', { name: area })
    if ((await tab.getAttribute('aria-selected')) !== 'true') await tab.click()
  }
  return page
}

/** What the page's Content-Security-Policy refused, in any page of this test file. */
const cspViolations: string[] = []

/**
 * Collect every Content-Security-Policy violation the page reports through the `securitypolicyviolation`
 * event, from its first script on: Chromium reports some refusals (a refused `eval`) only there, not on the
 * console. Call before the page is opened.
 */
export async function watchCspViolations(page: Page, sink: string[]): Promise<void> {
  await page.exposeBinding('geoCspViolation', (_source, text: string) => void sink.push(text))
  await page.addInitScript(`document.addEventListener('securitypolicyviolation', (e) =>
    window.geoCspViolation(e.effectiveDirective + ' refused ' + (e.blockedURI || 'inline') + ' at ' +
      e.sourceFile + ':' + e.lineNumber + (e.sample ? ' (' + e.sample + ')' : '')))`)
}

export function pageProblems(page: Page): string[] {
  return (page as Page & { problems?: string[] }).problems ?? []
}

/**
 * One browser and one browser host for a test file: started before its tests, stopped after them.
 * `hostOptions` is asked when the host starts (after the hooks registered before this call have run), so a
 * test can point the host at what it started first (a database, say).
 */
export function useAppSession(hostOptions: () => Parameters<typeof startHost>[0] = () => ({})): {
  readonly browser: Browser
  readonly host: RunningHost
} {
  const session = {} as { browser: Browser; host: RunningHost }
  beforeAll(async () => {
    ;[session.browser, session.host] = await Promise.all([launchBrowser(), startHost(hostOptions())])
  })
  afterAll(async () => {
    await session.browser?.close()
    await session.host?.stop()
    // The app runs under its policy (no inline style without the nonce, images from the tile server only).
    expect(cspViolations.splice(0)).toEqual([])
  })
  return session
}

/** Choose an area in the activity bar (as a person would) and wait for its side panel. */
export async function openArea(page: Page, title: string): Promise<void> {
  const tab = page.getByRole('navigation', { name: 'Activity bar' }).getByRole('tab', { name: title })
  await tab.waitFor()
  if (
    (await tab.getAttribute('aria-selected')) !== 'true' ||
    (await tab.getAttribute('aria-expanded')) !== 'true'
  )
    await tab.click()
  await page.getByRole('tabpanel', { name: title }).waitFor()
}
