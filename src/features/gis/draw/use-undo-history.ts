import { computed, shallowRef, type ShallowRef } from 'vue'

/** Steps kept for undo; the oldest is dropped past it. */
export const MAX_UNDO = 200

/**
 * Undo and redo over a value replaced whole on every change (the drawn shapes): `commit` records the
 * present as one undo step and clears redo; `apply` is how a value is put in place (the store's
 * bookkeeping: selection, autosave), used by commit, undo and redo alike.
 */
export function useUndoHistory<T>(present: ShallowRef<T>, apply: (next: T) => void) {
  const undoStack = shallowRef<T[]>([])
  const redoStack = shallowRef<T[]>([])
  const canUndo = computed(() => undoStack.value.length > 0)
  const canRedo = computed(() => redoStack.value.length > 0)

  function commit(next: T): void {
    undoStack.value = [...undoStack.value.slice(-(MAX_UNDO - 1)), present.value]
    redoStack.value = []
    apply(next)
  }

  function undo(): boolean {
    const previous = undoStack.value[undoStack.value.length - 1]
    if (previous === undefined) return false
    undoStack.value = undoStack.value.slice(0, -1)
    redoStack.value = [...redoStack.value, present.value]
    apply(previous)
    return true
  }

  function redo(): boolean {
    const next = redoStack.value[redoStack.value.length - 1]
    if (next === undefined) return false
    redoStack.value = redoStack.value.slice(0, -1)
    undoStack.value = [...undoStack.value, present.value]
    apply(next)
    return true
  }

  return { canUndo, canRedo, commit, undo, redo }
}
