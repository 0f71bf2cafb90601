/**
 * `fetch`: games from the sites' APIs into a corpus folder `replay` reads as it is,
 * incremental, resumable and polite (docs/formats.md#site-apis).
 */
export { runFetch, type FetchOptions, type FetchProgress, type FetchResult, type StopCode } from './run.js';
export { SITES, SITE_NAMES, type Site } from './sites/index.js';
export { readIdsFile } from './ids-file.js';
export { Manifest, GameEntry, readManifest, MANIFEST_NAME, HISTORY_LIST_NAME, GAMES_DIR } from './manifest.js';
export { progressLine } from './progress.js';
