import { dicechessCom } from './dicechess-com.js';
import { fortemate } from './fortemate.js';
import type { Site } from './site.js';

export const SITES: Record<Site['name'], Site> = { fortemate, 'dicechess-com': dicechessCom };
export const SITE_NAMES = Object.keys(SITES) as Site['name'][];
export type { Site } from './site.js';
