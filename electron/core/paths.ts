import os from 'node:os'
import path from 'node:path'

export const APP_DIR_NAME = 'geo-analyst'

/**
 * The app's config folder: `--config-dir`, else `GEO_ANALYST_CONFIG_DIR`, else the platform's
 * convention (XDG on Linux, Application Support on macOS, AppData on Windows).
 */
export function resolveConfigDir(
  options: { flag?: string; env?: NodeJS.ProcessEnv; platform?: NodeJS.Platform; home?: string } = {},
): string {
  const env = options.env ?? process.env
  if (options.flag) return path.resolve(options.flag)
  if (env.GEO_ANALYST_CONFIG_DIR) return path.resolve(env.GEO_ANALYST_CONFIG_DIR)
  const home = options.home ?? os.homedir()
  const platform = options.platform ?? process.platform
  if (platform === 'win32') {
    return path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), APP_DIR_NAME)
  }
  if (platform === 'darwin') {
    return path.join(home, 'Library', 'Application Support', APP_DIR_NAME)
  }
  const xdg = env.XDG_CONFIG_HOME
  return path.join(xdg && path.isAbsolute(xdg) ? xdg : path.join(home, '.config'), APP_DIR_NAME)
}

/**
 * The app's data folder (datasets workspace, drawings, request history): `GEO_ANALYST_DATA_DIR`, else the
 * platform's convention (XDG data home on Linux).
 */
export function resolveDataDir(
  options: { flag?: string; env?: NodeJS.ProcessEnv; platform?: NodeJS.Platform; home?: string } = {},
): string {
  const env = options.env ?? process.env
  if (options.flag) return path.resolve(options.flag)
  if (env.GEO_ANALYST_DATA_DIR) return path.resolve(env.GEO_ANALYST_DATA_DIR)
  const home = options.home ?? os.homedir()
  const platform = options.platform ?? process.platform
  if (platform === 'win32') {
    return path.join(env.LOCALAPPDATA ?? path.join(home, 'AppData', 'Local'), APP_DIR_NAME)
  }
  if (platform === 'darwin') {
    return path.join(home, 'Library', 'Application Support', APP_DIR_NAME, 'data')
  }
  const xdg = env.XDG_DATA_HOME
  return path.join(xdg && path.isAbsolute(xdg) ? xdg : path.join(home, '.local', 'share'), APP_DIR_NAME)
}

/** The local service's dataset workspace: `--workspace`, else `GEO_ANALYST_WORKSPACE`, else `<data>/workspace`. */
export function resolveWorkspaceDir(
  options: { flag?: string; env?: NodeJS.ProcessEnv; dataDir?: string } = {},
): string {
  const env = options.env ?? process.env
  if (options.flag) return path.resolve(options.flag)
  if (env.GEO_ANALYST_WORKSPACE) return path.resolve(env.GEO_ANALYST_WORKSPACE)
  return path.join(options.dataDir ?? resolveDataDir({ env }), 'workspace')
}
