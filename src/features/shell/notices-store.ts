import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import type { PlainNotice } from '../settings/notices'
import { useSettingsStore } from '../settings/settings-store'

/** Where the notices set aside are kept: for this window's session only (UI state, no data, no secret). */
export const NOTICES_ASIDE_KEY = 'geo-analyst.notices-aside'

function storage(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage
  } catch {
    return null
  }
}

function readAside(): string[] {
  try {
    const saved: unknown = JSON.parse(storage()?.getItem(NOTICES_ASIDE_KEY) ?? '[]')
    return Array.isArray(saved) ? saved.filter((m): m is string => typeof m === 'string').slice(0, 20) : []
  } catch {
    return []
  }
}

/** A notice's id in the page (its banner entry and its status-bar icon), from its message. */
export function noticeKey(notice: PlainNotice): string {
  let hash = 0
  for (const char of notice.message) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) | 0
  return (hash >>> 0).toString(36)
}

/**
 * The app's notices (from Settings: the host's notice, the keychain that forgets on exit), and which the
 * person set aside for this session: those leave the banner and wait in the status bar, named by their
 * text, until brought back. A notice set aside that no longer holds simply goes.
 */
export const useNoticesStore = defineStore('notices', () => {
  const settings = useSettingsStore()
  const aside = ref<string[]>(readAside())

  const shown = computed(() => settings.plainNotices.filter((n) => !aside.value.includes(n.message)))
  const setAside = computed(() => settings.plainNotices.filter((n) => aside.value.includes(n.message)))

  function save(): void {
    try {
      storage()?.setItem(NOTICES_ASIDE_KEY, JSON.stringify(aside.value))
    } catch {
      // Storage refused: the notice stays aside in this page only.
    }
  }

  function putAside(notice: PlainNotice): void {
    if (!aside.value.includes(notice.message)) aside.value = [...aside.value, notice.message]
    save()
  }

  function bringBack(notice: PlainNotice): void {
    aside.value = aside.value.filter((m) => m !== notice.message)
    save()
  }

  return { shown, setAside, putAside, bringBack }
})
