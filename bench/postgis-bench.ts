/**
 * `npm run bench:postgis`: the PostGIS workspace's benchmarks, one after the other, each on its own
 * throw-away cluster — the dataset list of 2,000 tables (`postgis-list.ts`), then the join suite beside
 * psql and a 1,000,000-row stream (`postgis-joins.ts`, options `--runs N --scale F --big N`). Exits 1 when
 * either misses its target.
 */
export {}

await import('./postgis-list')
await import('./postgis-joins')
