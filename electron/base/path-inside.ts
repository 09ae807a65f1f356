import path from 'node:path'

/** Whether `child` is `parent` or lies inside it (paths as given: resolve links first where they matter). */
export function isInside(child: string, parent: string): boolean {
  const relative = path.relative(parent, child)
  return (
    relative === '' ||
    (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative))
  )
}
