/** A notice in plain words: what happened, what to do, and the technical detail behind "Details". */
export interface PlainNotice {
  message: string
  action: string
  detail?: string
  /** Offer "Open Settings" at the credentials. */
  settings?: boolean
}

/**
 * The keychain notice: secrets live in memory only. The host's own words (often a D-Bus error such as
 * "zbus error: Failed to connect to address …") are kept for "Details", not shown as the message.
 */
export function keychainNotice(hostWarning: string | undefined): PlainNotice {
  const detail = hostWarning?.trim() || undefined
  return {
    message:
      'Your system keychain did not answer, so credentials you enter are kept only until the app closes.',
    action:
      'To keep them, start your keychain (on Linux, a Secret Service such as GNOME Keyring, unlocked) and restart the app. Until then, enter credentials again after each start.',
    ...(detail ? { detail } : {}),
    settings: true,
  }
}

/** Any other notice from the host: its text is the message. */
export function plainNotice(text: string): PlainNotice {
  return { message: text, action: '' }
}
