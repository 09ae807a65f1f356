/**
 * Render a component as the app does: with Pinia, the shell (its registry and actions) and the areas a
 * test needs. Queries go through @testing-library (`screen.getByRole(…, { name })`), as a person finds
 * things. Everything rendered is unmounted after each test.
 */
import { cleanup, render, type RenderResult } from '@testing-library/vue'
import { createPinia, setActivePinia, type Pinia } from 'pinia'
import { afterEach } from 'vitest'
import type { Component } from 'vue'
import gisArea from '../../../src/features/gis/area'
import { wireGis } from '../../../src/features/gis/wiring'
import { createShellWith, shellKey, type AreaDefinition, type Shell } from '../../../src/features/shell/shell'
import { installShellActions } from '../../../src/features/shell/shell-actions'

/** The spatial-analytics area with its wiring started at once (the app loads it after the first paint). */
export const GIS_AREA: AreaDefinition = { ...gisArea, setup: wireGis }

let stops: Array<() => void> = []

afterEach(() => {
  cleanup()
  stops.forEach((stop) => stop())
  stops = []
})

export interface TestApp {
  pinia: Pinia
  shell: Shell
}

/** A fresh Pinia (made active) and a started shell with these areas. */
export function createTestApp(areas: AreaDefinition[] = [GIS_AREA]): TestApp {
  const pinia = createPinia()
  setActivePinia(pinia)
  const shell = createShellWith(areas)
  stops.push(installShellActions(shell), shell.start())
  return { pinia, shell }
}

export function renderInApp(
  component: Component,
  options: { props?: Record<string, unknown>; app?: TestApp } = {},
): RenderResult & TestApp {
  const app = options.app ?? createTestApp()
  const result = render(component, {
    ...(options.props ? { props: options.props } : {}),
    global: { plugins: [app.pinia], provide: { [shellKey as symbol]: app.shell } },
  })
  return { ...result, ...app }
}
