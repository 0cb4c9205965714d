/** The staff's step funnel: events for steps shown and submitted, sent in batches through the flow's funnel call. */
export {
  bindFunnel,
  createFunnel,
  isSyntheticBrowser,
  JOURNEY_STORAGE_KEY,
  journeyId,
  markSynthetic,
  MAX_QUEUED,
  randomUuid,
  SYNTHETIC_STORAGE_KEY,
  toBatches,
  type FunnelBatch,
  type FunnelEvent,
  type FunnelModel,
} from './model.ts';
