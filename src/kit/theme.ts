import { ref, watch } from 'vue'

/** The user's choice: follow the system, or always light or dark. Kept between runs (UI state). */
export type ThemeChoice = 'system' | 'light' | 'dark'
export const THEME_STORAGE_KEY = 'geo-analyst.theme'

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage
  } catch {
    return null
  }
}

function readChoice(): ThemeChoice {
  const saved = storage()?.getItem(THEME_STORAGE_KEY)
  return saved === 'light' || saved === 'dark' ? saved : 'system'
}

const choice = ref<ThemeChoice>(readChoice())
const systemDark = ref(false)

/** The theme in force: the user's, or the system's when following it. */
export function resolvedTheme(): 'light' | 'dark' {
  return choice.value === 'system' ? (systemDark.value ? 'dark' : 'light') : choice.value
}

let installed = false
/** Follow the system's colour scheme and the user's choice on `<html data-theme>`; once per page. */
export function installTheme(root: HTMLElement = document.documentElement): void {
  if (installed) return
  installed = true
  const query = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : null
  systemDark.value = query?.matches ?? false
  query?.addEventListener?.('change', (e) => (systemDark.value = e.matches))
  watch(
    [choice, systemDark],
    () => {
      root.dataset.theme = resolvedTheme()
    },
    { immediate: true },
  )
}

export function useTheme() {
  function choose(next: ThemeChoice): void {
    choice.value = next
    try {
      if (next === 'system') storage()?.removeItem(THEME_STORAGE_KEY)
      else storage()?.setItem(THEME_STORAGE_KEY, next)
    } catch {
      // The choice holds for this window only.
    }
  }
  return { choice, choose, resolved: resolvedTheme }
}
