import { ColumnStore, PartsReceiver, type WorkerAnswer, type WorkerRequest } from './table-query'

// The results table's filter and sort for large results, off the page's main thread.
let store = new ColumnStore([])
let receiving: PartsReceiver | null = null

self.onmessage = (event: MessageEvent<WorkerRequest>) => {
  const message = event.data
  if (message.kind === 'begin') receiving = new PartsReceiver(message.size, message.keys)
  else if (message.kind === 'part') receiving?.add(message.bytes)
  else if (message.kind === 'end') {
    if (receiving) store = receiving.finish()
    receiving = null
  } else {
    const order = store.run(message.query)
    const answer: WorkerAnswer = { id: message.id, order }
    ;(self as unknown as Worker).postMessage(answer, [order.buffer])
  }
}
