export const FILE_LIMIT: number
export const STORE_LIMIT: number
export function overLimit(
  base?: string,
): Array<{ file: string; lines: number; limit: number; kind: 'file' | 'store' }>
