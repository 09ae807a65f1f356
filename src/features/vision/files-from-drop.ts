/**
 * The files of a drop, folders included (read through the entries API, one level of nesting after
 * another), each with the folder path it came from.
 */
export async function filesFromDrop(data: DataTransfer): Promise<Array<{ file: File; folder: string }>> {
  const entries = [...data.items]
    .map((item) => (typeof item.webkitGetAsEntry === 'function' ? item.webkitGetAsEntry() : null))
    .filter((e): e is FileSystemEntry => e !== null)
  if (entries.length === 0) return [...data.files].map((file) => ({ file, folder: '' }))
  const out: Array<{ file: File; folder: string }> = []
  const walk = async (entry: FileSystemEntry, folder: string): Promise<void> => {
    if (entry.isFile) {
      const file = await new Promise<File>((resolve, reject) =>
        (entry as FileSystemFileEntry).file(resolve, reject),
      )
      out.push({ file, folder })
    } else if (entry.isDirectory) {
      const reader = (entry as FileSystemDirectoryEntry).createReader()
      for (;;) {
        const batch = await new Promise<FileSystemEntry[]>((resolve, reject) =>
          reader.readEntries(resolve, reject),
        )
        if (batch.length === 0) break
        for (const child of batch) await walk(child, folder ? `${folder}/${entry.name}` : entry.name)
      }
    }
  }
  for (const entry of entries) await walk(entry, '')
  return out
}

/** The files of a file input, with the folder part of `webkitRelativePath` when a folder was picked. */
export function filesFromInput(list: FileList | null): Array<{ file: File; folder: string }> {
  return [...(list ?? [])].map((file) => {
    const rel = file.webkitRelativePath ?? ''
    return { file, folder: rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '' }
  })
}
