import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import type { GeoError } from '@contract/index'
import { blurredName, isImageName, type BlurredBox } from '@contract/vision/blur-plates'
import { MAX_IMAGE_BYTES } from '@contract/vision/operations'
import { geo } from '../../bridge'
import { readFileAsBase64 } from './read-file'

export type ItemStatus = 'queued' | 'reading' | 'blurring' | 'done' | 'failed' | 'cancelled'

/** One image of the batch. Object URLs and base64 stay out of reactive deep state (they can be large). */
export interface VisionItem {
  id: number
  name: string
  /** Folder path within a dropped or picked folder, when any. */
  folder: string
  size: number
  status: ItemStatus
  error: GeoError | null
  boxes: BlurredBox[] | null
  /** Whether the service listed the regions it blurred (the built-in one does). */
  boxesKnown: boolean
  saved: boolean
}

interface Pixels {
  before: string
  after?: string
  afterBlob?: Blob
}

function problem(message: string, failureClass: GeoError['failureClass'] = 'validation'): GeoError {
  return { failureClass, message, retry: 'fix-then-retry' }
}

/**
 * The vision area's batch: images in, each sent to the active profile's plate blurring one after another; a
 * failure stays with its image and the batch goes on; cancel stops before the next image (the one being
 * blurred finishes on the service and is dropped).
 */
export const useVisionStore = defineStore('vision', () => {
  const items = ref<VisionItem[]>([])
  const selectedId = ref<number | null>(null)
  const running = ref(false)
  const cancelling = ref(false)
  const pixels = new Map<number, Pixels>()
  /** The dropped or picked files, until they are blurred. */
  const sources = new Map<number, File>()
  /** Bumped when an item's pixels change, so views re-read `urls()`. */
  const pixelsVersion = ref(0)
  let nextId = 1

  const selected = computed(() => items.value.find((i) => i.id === selectedId.value) ?? null)
  const finished = computed(
    () => items.value.filter((i) => ['done', 'failed', 'cancelled'].includes(i.status)).length,
  )
  const progress = computed(() => ({ done: finished.value, total: items.value.length }))
  const saveable = computed(() => items.value.filter((i) => i.status === 'done'))

  function urls(id: number): Pixels | undefined {
    void pixelsVersion.value
    return pixels.get(id)
  }

  /** Add images (from a drop, the file picker or a folder); anything else is listed with why it is skipped. */
  function add(files: ReadonlyArray<{ file: File; folder?: string }>): void {
    for (const { file, folder } of files) {
      const id = nextId++
      const item: VisionItem = {
        id,
        name: file.name,
        folder: folder ?? '',
        size: file.size,
        status: 'queued',
        error: null,
        boxes: null,
        boxesKnown: false,
        saved: false,
      }
      if (!isImageName(file.name)) {
        item.status = 'failed'
        item.error = problem(`${file.name}: only .jpg, .jpeg and .png images can be blurred`)
      } else if (file.size === 0) {
        item.status = 'failed'
        item.error = problem(`${file.name} is empty`)
      } else if (file.size > MAX_IMAGE_BYTES) {
        item.status = 'failed'
        item.error = problem(`${file.name} is larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MiB`)
      } else {
        pixels.set(id, { before: URL.createObjectURL(file) })
        sources.set(id, file)
      }
      items.value.push(item)
      if (selectedId.value === null && item.status === 'queued') selectedId.value = id
    }
    pixelsVersion.value++
    void run()
  }

  async function run(): Promise<void> {
    if (running.value) return
    running.value = true
    try {
      for (;;) {
        if (cancelling.value) {
          for (const item of items.value) if (item.status === 'queued') item.status = 'cancelled'
          break
        }
        const item = items.value.find((i) => i.status === 'queued')
        if (!item) break
        await blurOne(item)
      }
    } finally {
      running.value = false
      cancelling.value = false
    }
  }

  async function blurOne(item: VisionItem): Promise<void> {
    const file = sources.get(item.id)
    if (!file) return
    item.status = 'reading'
    let imageBase64: string
    try {
      imageBase64 = await readFileAsBase64(file)
    } catch (error) {
      item.status = 'failed'
      item.error = problem(
        `${file.name} could not be read: ${(error as Error).message}`,
        'local-configuration',
      )
      return
    }
    item.status = 'blurring'
    const result = await geo['vision.blur']({ fileName: file.name, imageBase64 })
    if (cancelling.value) {
      item.status = 'cancelled'
      return
    }
    if (!result.ok) {
      item.status = 'failed'
      item.error = result.error
      return
    }
    const bytes = Uint8Array.from(atob(result.value.imageBase64), (c) => c.charCodeAt(0))
    const blob = new Blob([bytes], { type: result.value.contentType })
    const entry = pixels.get(item.id)
    if (entry) {
      entry.afterBlob = blob
      entry.after = URL.createObjectURL(blob)
    }
    item.boxes = result.value.boxes
    item.boxesKnown = result.value.boxes !== null
    item.status = 'done'
    pixelsVersion.value++
    if (selectedId.value === null) selectedId.value = item.id
  }

  function cancel(): void {
    if (running.value) cancelling.value = true
  }

  /** Save a blurred image as `<name>-blurred.<ext>` through the host's download (the browser never overwrites). */
  function save(id: number): void {
    const item = items.value.find((i) => i.id === id)
    const blob = pixels.get(id)?.afterBlob
    if (!item || !blob) return
    const url = URL.createObjectURL(blob)
    const a = document.createElement('a')
    a.href = url
    a.download = blurredName(item.name)
    a.rel = 'noopener'
    document.body.append(a)
    a.click()
    a.remove()
    setTimeout(() => URL.revokeObjectURL(url), 60_000)
    item.saved = true
  }

  function saveAll(): void {
    for (const item of saveable.value) save(item.id)
  }

  function clear(): void {
    if (running.value) return
    for (const p of pixels.values()) {
      URL.revokeObjectURL(p.before)
      if (p.after) URL.revokeObjectURL(p.after)
    }
    pixels.clear()
    sources.clear()
    items.value = []
    selectedId.value = null
    pixelsVersion.value++
  }

  return {
    items,
    selectedId,
    selected,
    running,
    cancelling,
    progress,
    saveable,
    add,
    cancel,
    save,
    saveAll,
    clear,
    urls,
  }
})
