import { promises as fs } from 'node:fs'
import path from 'node:path'
import { z } from 'zod'
import { DEFAULT_FLEET_VEHICLES, MAX_FLEET_VEHICLES } from '../../contract/telematics/fleet'
import { writeFileAtomic, writeJsonAtomic } from '../../base/atomic-write'
import type { AlarmRule } from './engine/alarms/evaluators'
import type { StoredTrack } from './engine/replay'

/** The telematics area's folder in the workspace. */
export const TELEMATICS_FOLDER = 'telematics'

export const fleetSettingsSchema = z.object({
  vehicles: z.number().int().min(0).max(MAX_FLEET_VEHICLES).default(DEFAULT_FLEET_VEHICLES),
  seed: z.number().int().min(0).default(1),
  /** A road network id; null: the bundled sample (else the first imported network). */
  network: z.string().nullable().default(null),
  geofenceDataset: z.string().nullable().default(null),
})
export type FleetSettings = z.output<typeof fleetSettingsSchema>

/** An alarm configuration as stored: the rule, when it was made, and the Idempotency-Key it was made with. */
export interface StoredAlarm extends AlarmRule {
  created: string
  idempotencyKey?: string
  /** What the request meant (the validated body as JSON), to tell a reused key with another body. */
  identity: string
}

const storedAlarmSchema = z.looseObject({
  id: z.number().int().min(1),
  alarmType: z.number().int(),
  deviceId: z.array(z.number().int()),
  type: z.number().int().optional(),
  duration: z.number().int().optional(),
  limit: z.number().int().optional(),
  geofenceId: z.array(z.number().int()).optional(),
  severity: z.union([z.literal(0), z.literal(1)]).optional(),
  createdAt: z.number(),
  created: z.string(),
  idempotencyKey: z.string().optional(),
  identity: z.string(),
})

const trackSchema = z.object({
  id: z.string(),
  deviceId: z.number().int(),
  name: z.string(),
  fileName: z.string(),
  imported: z.string(),
  points: z.array(z.tuple([z.number(), z.number(), z.number(), z.number().nullable()])).min(2),
  speed: z.number().min(1),
  playing: z.boolean(),
  position: z.number().min(0),
})

/**
 * What the fleet keeps in the workspace (`<workspace>/telematics/`): its settings, the alarm configurations
 * and the imported tracks, each written atomically. A file that cannot be read is moved aside
 * (`<name>.corrupt-<time>`), never overwritten, and the area starts without it.
 */
export class TelematicsStore {
  readonly dir: string
  /** Files moved aside at this start (for the service's log). */
  readonly setAside: string[] = []

  constructor(workspaceDir: string) {
    this.dir = path.join(workspaceDir, TELEMATICS_FOLDER)
  }

  private async readJson<T>(file: string, schema: z.ZodType<T>): Promise<T | undefined> {
    let text: string
    try {
      text = await fs.readFile(file, 'utf8')
    } catch {
      return undefined
    }
    try {
      return schema.parse(JSON.parse(text))
    } catch {
      const aside = `${file}.corrupt-${Date.now()}`
      await fs.rename(file, aside).catch(() => undefined)
      this.setAside.push(path.basename(aside))
      return undefined
    }
  }

  async settings(): Promise<FleetSettings> {
    return (
      (await this.readJson(path.join(this.dir, 'fleet.json'), fleetSettingsSchema)) ??
      fleetSettingsSchema.parse({})
    )
  }

  async saveSettings(settings: FleetSettings): Promise<void> {
    await fs.mkdir(this.dir, { recursive: true })
    await writeJsonAtomic(path.join(this.dir, 'fleet.json'), settings)
  }

  async alarms(): Promise<StoredAlarm[]> {
    const file = await this.readJson(
      path.join(this.dir, 'alarms.json'),
      z.object({ alarms: z.array(storedAlarmSchema) }),
    )
    return (file?.alarms ?? []) as StoredAlarm[]
  }

  async saveAlarms(alarms: readonly StoredAlarm[]): Promise<void> {
    await fs.mkdir(this.dir, { recursive: true })
    await writeJsonAtomic(path.join(this.dir, 'alarms.json'), { alarms })
  }

  private tracksDir(): string {
    return path.join(this.dir, 'tracks')
  }

  async tracks(): Promise<StoredTrack[]> {
    const names = await fs.readdir(this.tracksDir()).catch(() => [] as string[])
    const out: StoredTrack[] = []
    for (const name of names.sort()) {
      if (!/^[a-z0-9-]{1,64}\.json$/.test(name)) continue
      const track = await this.readJson(path.join(this.tracksDir(), name), trackSchema)
      if (track) out.push(track)
    }
    return out
  }

  async saveTrack(track: StoredTrack): Promise<void> {
    await fs.mkdir(this.tracksDir(), { recursive: true })
    // Compact: a track may have many points.
    await writeFileAtomic(path.join(this.tracksDir(), `${track.id}.json`), JSON.stringify(track))
  }

  async removeTrack(id: string): Promise<void> {
    await fs.rm(path.join(this.tracksDir(), `${id}.json`), { force: true })
  }
}
