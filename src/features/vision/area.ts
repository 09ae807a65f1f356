import { lazyPanel } from '../shell/lazy'
import { defineArea } from '../shell/shell'

/**
 * Image AI (spec §4.10): license-plate blurring of photos and panoramas, one image or a batch, with a
 * before/after viewer. Panels load when first shown.
 */
export default defineArea({
  id: 'vision',
  title: 'License plates',
  order: 50,
  // A plate: a rounded board with two strokes of text.
  icon: 'M3 7h18v10H3z M6 10h5 M13 10h5 M6 14h12',
  sidePanels: [
    { id: 'vision.batch', title: 'License plates', component: lazyPanel(() => import('./VisionPanel.vue')) },
  ],
  bottomPanels: [
    {
      id: 'vision.viewer',
      title: 'Before / after',
      order: 50,
      component: lazyPanel(() => import('./BeforeAfterViewer.vue')),
    },
  ],
})
