/** Read a File in the renderer as base64 (FileReader), reporting progress as a fraction 0..1. */
export function readFileAsBase64(file: Blob, onProgress: (fraction: number) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader()
    reader.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total)
    }
    reader.onerror = () => reject(reader.error ?? new Error('the file could not be read'))
    reader.onabort = () => reject(new Error('reading the file was cancelled'))
    reader.onload = () => {
      const url = String(reader.result ?? '')
      const comma = url.indexOf(',')
      onProgress(1)
      resolve(comma >= 0 ? url.slice(comma + 1) : '')
    }
    reader.readAsDataURL(file)
  })
}
