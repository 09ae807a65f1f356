/** The product modules' import cycles (paths relative to the repository), each a strongly connected component. */
export function findCycles(files: string[]): string[][]
