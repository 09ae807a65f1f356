import { randomBytes } from 'node:crypto'
import { promises as fs } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { savedPlacesSchema, type SavedPlace, type SavePlaceParams } from '../../contract/places/my-places'
import { writeFileAtomic } from '../../base/atomic-write'
import { ELOC_ALPHABET } from './data/eloc'
import { parseJsonText } from '../../contract/common/json-text'

export const MY_PLACES_FILE = path.join('places', 'my-places.json')
/** Saved places kept at most (the file stays small; autosuggest scans them on each query). */
export const MAX_SAVED_PLACES = 5000

export class MyPlacesError extends Error {
  constructor(
    readonly kind: 'not-found' | 'full',
    message: string,
  ) {
    super(message)
    this.name = 'MyPlacesError'
  }
}

/**
 * The analyst's saved places, `places/my-places.json` in the local workspace folder. Every change is a
 * read-modify-write under one lock, written atomically (a reader sees the old list or the new one). A
 * file that cannot be read is moved aside (`my-places.corrupt-<time>.json`) and reported, never replaced
 * silently.
 */
export class MyPlacesStore {
  readonly file: string
  private cache: SavedPlace[] | undefined
  private lock: Promise<unknown> = Promise.resolve()
  /** Set when an unreadable file was moved aside. */
  notice: string | undefined

  constructor(
    workspaceDir: string,
    private readonly userName: string = safeUserName(),
    private readonly now: () => Date = () => new Date(),
  ) {
    this.file = path.join(workspaceDir, MY_PLACES_FILE)
  }

  /** The saved places, newest first. */
  async list(): Promise<SavedPlace[]> {
    return [...(await this.read())]
  }

  /** The last list read (for autosuggest on the request thread); empty before the first read. */
  snapshot(): readonly SavedPlace[] {
    return this.cache ?? []
  }

  add(params: SavePlaceParams): Promise<SavedPlace> {
    return this.locked(async () => {
      const places = await this.read()
      if (places.length >= MAX_SAVED_PLACES)
        throw new MyPlacesError(
          'full',
          `My places holds at most ${MAX_SAVED_PLACES} places; delete some first`,
        )
      const taken = new Set(places.map((p) => p.eLoc))
      let eLoc = newEloc()
      while (taken.has(eLoc)) eLoc = newEloc()
      const place: SavedPlace = {
        eLoc,
        placeName: params.placeName.trim(),
        placeAddress: params.placeAddress?.trim() ?? '',
        latitude: Math.round(params.latitude * 1e6) / 1e6,
        longitude: Math.round(params.longitude * 1e6) / 1e6,
        type: params.type ?? 'POI',
        userName: this.userName,
        created: this.now().toISOString(),
      }
      await this.write([place, ...places])
      return place
    })
  }

  remove(eLoc: string): Promise<SavedPlace> {
    return this.locked(async () => {
      const places = await this.read()
      const found = places.find((p) => p.eLoc === eLoc.toUpperCase())
      if (!found) throw new MyPlacesError('not-found', `No saved place with eLoc ${eLoc}`)
      await this.write(places.filter((p) => p !== found))
      return found
    })
  }

  private locked<T>(work: () => Promise<T>): Promise<T> {
    const next = this.lock.then(work, work)
    this.lock = next.catch(() => undefined)
    return next
  }

  private async read(): Promise<SavedPlace[]> {
    if (this.cache) return this.cache
    let text: string
    try {
      text = await fs.readFile(this.file, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return (this.cache = [])
      throw error
    }
    try {
      const parsed = savedPlacesSchema.safeParse(parseJsonText(text))
      if (parsed.success) return (this.cache = parsed.data)
    } catch {
      // fall through: unreadable
    }
    const stamp = this.now().toISOString().replace(/[:.]/g, '-')
    const aside = path.join(path.dirname(this.file), `my-places.corrupt-${stamp}.json`)
    await fs.rename(this.file, aside)
    this.notice = `my-places.json could not be read and was moved aside to ${path.basename(aside)}`
    return (this.cache = [])
  }

  private async write(places: SavedPlace[]): Promise<void> {
    await writeFileAtomic(this.file, JSON.stringify(places, null, 2) + '\n', { mode: 0o644 })
    this.cache = places
  }
}

function newEloc(): string {
  const bytes = randomBytes(8)
  let out = ''
  for (const b of bytes) out += ELOC_ALPHABET[b % ELOC_ALPHABET.length]
  return out
}

function safeUserName(): string {
  try {
    return os.userInfo().username || 'local'
  } catch {
    return 'local'
  }
}
