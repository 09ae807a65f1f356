import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { ExportOptions } from './export-layout'

/** The "Export map" dialog: whether it is open, the options chosen last, and how the last export went. */
export const useExportStore = defineStore('export', () => {
  const open = ref(false)
  const options = ref<Omit<ExportOptions, 'title'>>({
    format: 'png',
    paper: 'A4',
    orientation: 'landscape',
    dpi: 150,
    legend: true,
    scaleBar: true,
    northArrow: true,
    attribution: true,
  })
  const busy = ref(false)
  const status = ref('')
  const error = ref('')
  return { open, options, busy, status, error }
})
