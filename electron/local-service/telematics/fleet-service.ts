import { randomBytes } from 'node:crypto'
import path from 'node:path'
import type { FleetStatus } from '../../contract/telematics/fleet'
import { listNetworks, networksDir, SAMPLE_NETWORK, type NetworkEntry } from '../routing/data/networks'
import { PoolFull } from '../pool/worker-pool'
import type { ServiceContext } from '../service-context'
import { WorkspaceError } from '../workspace/workspace'
import type { AlarmRule } from './engine/alarms/evaluators'
import { Fleet, type TripPlanner } from './engine/fleet'
import { GeofenceSet } from './engine/geofences'
import { hash32 } from './engine/random'
import { storedTrack, type ReplayDevice, type StoredTrack } from './engine/replay'
import type { TrackPoint } from './engine/track-file'
import { sampleZones } from './engine/zones'
import { FileAlarmStore, type AlarmStore } from './alarm-store'
import { PostgisAlarmStore } from './alarm-store-postgis'
import { TelematicsStore, type FleetSettings, type StoredAlarm } from './store'
import { currentPrincipal } from '../team/principal'

/** What the last step cost (a local extension of the fleet's status, for `npm run bench:fleet`). */
export interface FleetStats {
  stepMs: number
  alarmMs: number
  configurations: number
  bindings: number
}

/**
 * What the simulation's model says of the fleet now (a local extension of the fleet's status): the share of
 * its active vehicles moving at this hour of the local day in the model's steady state. The fleet starts in
 * that state; the devices list shows it right away. The model is a model: it is labelled so.
 */
export interface FleetModel {
  model: 'simulated'
  localHour: number
  movingShare: number
}

/** The dataset the sample geofences are written to. */
export const SAMPLE_ZONES_DATASET = 'fleet_zones'

/** A request the fleet refuses, with the HTTP status and the field it names. */
export class FleetError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly field?: string,
  ) {
    super(message)
    this.name = 'FleetError'
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Run a pool job, waiting while the pool is full (the fleet's trips are never dropped). */
async function pooled<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await run()
    } catch (error) {
      if (!(error instanceof PoolFull) || attempt > 600) throw error
      await sleep(200)
    }
  }
}

/**
 * The telematics area of a running service: the fleet (created on first use, so a service that never serves
 * telematics never loads a road network), its settings, alarm configurations and tracks in the workspace,
 * and a ticker that runs the fleet on the service's clock.
 */
export class FleetService {
  readonly store: TelematicsStore
  private current: Promise<Fleet> | undefined
  private settingsCache: FleetSettings | undefined
  /** Where alarm configurations live: the workspace folder, or the PostGIS workspace (shared by instances). */
  readonly alarmStore: AlarmStore
  /** Per fleet: the ids of the configurations its engine evaluates, and the store's version they were read at. */
  private readonly engineAlarms = new WeakMap<Fleet, { ids: Set<number>; version: string }>()
  private syncing: Promise<void> | undefined
  private network: NetworkEntry | null = null
  private ticker: ReturnType<typeof setInterval> | undefined
  private closed = false

  constructor(private readonly ctx: ServiceContext) {
    this.store = new TelematicsStore(ctx.workspaceDir)
    this.alarmStore = ctx.database
      ? new PostgisAlarmStore(ctx.database, () => currentPrincipal()?.user)
      : new FileAlarmStore(this.store)
  }

  async settings(): Promise<FleetSettings> {
    return (this.settingsCache ??= await this.store.settings())
  }

  /** The fleet, advanced to the service's clock. */
  async fleet(): Promise<Fleet> {
    const fleet = await (this.current ??= this.create())
    await fleet.advanceTo(this.ctx.now())
    return fleet
  }

  private async resolveNetwork(settings: FleetSettings): Promise<NetworkEntry | null> {
    const networks = await listNetworks(this.ctx.workspaceDir)
    if (settings.network) return networks.find((n) => n.id === settings.network) ?? null
    return networks.find((n) => n.id === SAMPLE_NETWORK.id) ?? networks[0] ?? null
  }

  private planner(network: NetworkEntry): TripPlanner {
    const ref = { id: network.id, file: network.file, bbox: network.bbox }
    const cacheDir = path.join(networksDir(this.ctx.workspaceDir), '.cache')
    const pool = this.ctx.pool
    return {
      points: async (seeds) =>
        (await pooled(() => pool.run('telematics.points', { network: ref, seeds }, { weight: seeds.length })))
          .points,
      trips: async (legs) =>
        (
          await pooled(() =>
            pool.run('telematics.trips', { network: ref, cacheDir, legs }, { weight: legs.length }),
          )
        ).routes,
    }
  }

  private async geofenceSet(settings: FleetSettings): Promise<GeofenceSet> {
    if (!settings.geofenceDataset) return new GeofenceSet([])
    try {
      const { features } = await this.ctx.workspace.read(settings.geofenceDataset)
      return new GeofenceSet(features)
    } catch (error) {
      // A geofence layer removed from the workspace: no geofences until another is chosen.
      if (error instanceof WorkspaceError) return new GeofenceSet([])
      throw error
    }
  }

  private async create(): Promise<Fleet> {
    const settings = await this.settings()
    this.network = await this.resolveNetwork(settings)
    // The version first: a configuration stored between the two reads is read again at the next tick.
    const version = await this.alarmStore.version()
    const rules = await this.alarmStore.list()
    const fleet = new Fleet({
      vehicles: settings.vehicles,
      seed: settings.seed,
      network: this.network
        ? { id: this.network.id, name: this.network.name, timeZone: this.network.timeZone }
        : null,
      planner: this.network ? this.planner(this.network) : null,
      startMs: this.ctx.now(),
      tracks: await this.store.tracks(),
      geofences: await this.geofenceSet(settings),
      rules,
    })
    this.engineAlarms.set(fleet, { ids: new Set(rules.map((r) => r.id)), version })
    this.startTicker()
    return fleet
  }

  private startTicker(): void {
    if (this.ticker || this.closed) return
    // The fleet runs whether or not anyone asks: alarms are evaluated every second of the clock.
    this.ticker = setInterval(() => {
      void this.current
        ?.then(async (f) => {
          await this.syncAlarms(f).catch(() => undefined)
          await f.advanceTo(this.ctx.now())
        })
        .catch(() => undefined)
    }, 1000)
    this.ticker.unref()
  }

  async status(): Promise<FleetStatus & { stats: FleetStats; model: FleetModel }> {
    const fleet = await this.fleet()
    const settings = await this.settings()
    const networks = await listNetworks(this.ctx.workspaceDir)
    return {
      source: 'local',
      simulated: true,
      vehicles: fleet.vehicles.length,
      seed: settings.seed,
      network: this.network?.id ?? null,
      networks: networks.map((n) => ({ id: n.id, name: n.name })),
      geofenceDataset: settings.geofenceDataset,
      geofences: fleet.geofences.fences.length,
      tracks: fleet.replays.map((r) => r.info()),
      serverTime: fleet.step,
      preparing: fleet.isPreparing,
      stats: {
        stepMs: fleet.lastStepMs,
        alarmMs: fleet.lastAlarmMs,
        configurations: fleet.alarms.rules.length,
        bindings: fleet.alarms.bindings,
      },
      model: {
        model: 'simulated',
        localHour: fleet.localHour(),
        movingShare: Math.round(fleet.modelMovingShare() * 10_000) / 10_000,
      },
    }
  }

  /** Change the fleet: a new size, seed or network starts a new simulation; the geofence layer is re-read. */
  async configure(change: Partial<FleetSettings>): Promise<FleetStatus> {
    const before = await this.settings()
    const next: FleetSettings = { ...before, ...change }
    if (change.network !== undefined && change.network !== null) {
      const networks = await listNetworks(this.ctx.workspaceDir)
      if (!networks.some((n) => n.id === change.network))
        throw new FleetError(
          404,
          `no road network "${change.network}"; known: ${networks.map((n) => n.id).join(', ')}`,
          'network',
        )
    }
    if (change.geofenceDataset) {
      const found = await this.ctx.workspace.find(change.geofenceDataset)
      if (!found)
        throw new FleetError(
          404,
          `no dataset "${change.geofenceDataset}" in the workspace`,
          'geofenceDataset',
        )
      const { features } = await this.ctx.workspace.read(found.name)
      if (new GeofenceSet(features).fences.length === 0)
        throw new FleetError(
          400,
          `the dataset "${found.name}" has no polygons to use as geofences`,
          'geofenceDataset',
        )
      next.geofenceDataset = found.name
    }
    await this.store.saveSettings(next)
    this.settingsCache = next
    const restart =
      next.vehicles !== before.vehicles || next.seed !== before.seed || next.network !== before.network
    if (restart && this.current) {
      const old = await this.current
      old.close()
      this.current = undefined
    } else if (this.current) {
      const fleet = await this.current
      fleet.setGeofences(await this.geofenceSet(next))
    }
    return this.status()
  }

  /** Write the sample geofences over the network into the workspace and use them as the geofence layer. */
  async createZones(): Promise<FleetStatus> {
    if (!this.network) await this.fleet()
    if (!this.network)
      throw new FleetError(409, 'there is no road network to place sample geofences on', 'network')
    const existing = await this.ctx.workspace.find(SAMPLE_ZONES_DATASET)
    if (!existing) {
      const settings = await this.settings()
      const planner = this.planner(this.network)
      const centres = await planner.points([1, 2, 3, 4, 5, 6].map((i) => hash32(settings.seed, i, 977)))
      await this.ctx.workspace.create(SAMPLE_ZONES_DATASET, await sampleZones(centres, settings.seed), {
        source: `sample geofences over ${this.network.name} (a model)`,
      })
    }
    return this.configure({ geofenceDataset: existing?.name ?? SAMPLE_ZONES_DATASET })
  }

  // ---- Alarm configurations ----

  /** The configurations as stored now (in a PostGIS workspace: including those made through other instances). */
  alarms(): Promise<StoredAlarm[]> {
    return this.alarmStore.list()
  }

  /**
   * The engine evaluates the stored set: when the store's version changed (another instance created a
   * configuration), the configurations it does not have yet are added. One sync at a time.
   */
  private syncAlarms(fleet: Fleet): Promise<void> {
    this.syncing ??= (async () => {
      const state = this.engineAlarms.get(fleet)
      const version = await this.alarmStore.version()
      if (!state || version === state.version) return
      for (const alarm of await this.alarmStore.list()) this.evaluate(fleet, alarm)
      state.version = version
    })().finally(() => (this.syncing = undefined))
    return this.syncing
  }

  private evaluate(fleet: Fleet, alarm: StoredAlarm): void {
    const state = this.engineAlarms.get(fleet)
    if (!state || state.ids.has(alarm.id)) return
    state.ids.add(alarm.id)
    fleet.alarms.add(alarm)
  }

  /**
   * Create a configuration: an Idempotency-Key already used returns the first result (the same body) or
   * refuses another body (409) — decided by the store (in a PostGIS workspace: its unique index, whichever
   * instance the requests reach). The configuration is stored before it is answered.
   */
  async createAlarm(
    body: Omit<AlarmRule, 'id' | 'createdAt'>,
    identity: string,
    key: string | undefined,
  ): Promise<{ alarm: StoredAlarm; replayed: boolean }> {
    const fleet = await this.fleet()
    const earlierAnswer = (earlier: StoredAlarm) => {
      if (earlier.identity === identity) return { alarm: earlier, replayed: true }
      throw new FleetError(
        409,
        `this Idempotency-Key created alarm configuration ${earlier.id} with another body; use a new key for a new configuration`,
        'Idempotency-Key',
      )
    }
    if (key) {
      const earlier = await this.alarmStore.byKey(key)
      if (earlier) return earlierAnswer(earlier)
    }
    const missing = body.deviceId.filter((id) => !fleet.device(id))
    if (missing.length > 0)
      throw new FleetError(
        203,
        `device${missing.length > 1 ? 's' : ''} ${missing.slice(0, 20).join(', ')}${missing.length > 20 ? ', …' : ''} not found`,
        'deviceId',
      )
    const { alarm, created } = await this.alarmStore.insert({
      ...body,
      deviceId: [...new Set(body.deviceId)],
      createdAt: fleet.step,
      created: new Date(fleet.step * 1000).toISOString(),
      ...(key ? { idempotencyKey: key } : {}),
      identity,
    })
    if (!created) return earlierAnswer(alarm)
    this.evaluate(fleet, alarm)
    return { alarm, replayed: false }
  }

  // ---- Tracks ----

  async importTrack(
    points: readonly TrackPoint[],
    fileName: string,
    name: string | undefined,
    speed: number,
  ): Promise<ReplayDevice> {
    const fleet = await this.fleet()
    const id = `track-${randomBytes(4).toString('hex')}`
    const label = (name ?? path.basename(fileName).replace(/\.[^.]+$/, '')).slice(0, 120) || id
    const track = storedTrack(
      id,
      fleet.nextReplayId(),
      label,
      fileName,
      points,
      speed,
      new Date(fleet.step * 1000).toISOString(),
    )
    await this.store.saveTrack(track)
    return fleet.addReplay(track)
  }

  async replay(id: string): Promise<ReplayDevice> {
    const fleet = await this.fleet()
    const device = fleet.replays.find((r) => r.track.id === id)
    if (!device) throw new FleetError(404, `no track "${id}"`, 'id')
    return device
  }

  async controlTrack(
    id: string,
    change: { playing?: boolean; speed?: number; restart?: boolean },
  ): Promise<ReplayDevice> {
    const device = await this.replay(id)
    const track: StoredTrack = device.track
    if (change.restart) device.restart()
    if (change.speed !== undefined) track.speed = change.speed
    if (change.playing !== undefined) track.playing = change.playing
    if (change.playing && device.ended) device.restart()
    await this.store.saveTrack(track)
    return device
  }

  async removeTrack(id: string): Promise<void> {
    const fleet = await this.fleet()
    await this.replay(id)
    await this.store.removeTrack(id)
    fleet.removeReplay(id)
  }

  async close(): Promise<void> {
    this.closed = true
    if (this.ticker) clearInterval(this.ticker)
    const fleet = await this.current?.catch(() => undefined)
    fleet?.close()
  }
}
