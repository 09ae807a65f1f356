import { ColumnStore, type WorkerAnswer, type WorkerRequest } from './table-query'

// The results table's filter and sort for large results, off the page's main thread.
let store = new ColumnStore([])

self.onmessage = (event: MessageEvent<WorkerRequest>) => {
  const message = event.data
  if (message.kind === 'reset') store = new ColumnStore(message.keys)
  else if (message.kind === 'append') store.append(message.columns)
  else {
    const order = store.run(message.query)
    const answer: WorkerAnswer = { id: message.id, order }
    ;(self as unknown as Worker).postMessage(answer, [order.buffer])
  }
}
