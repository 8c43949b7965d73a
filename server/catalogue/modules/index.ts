import type { ApiModuleInput } from '../../../shared/catalogue-schema.js';
import { activityListModules } from './list-activity.js';
import { allListModules } from './list-all.js';
import { linkListModules } from './list-links.js';
import { otherListModules } from './list-other.js';
import { metaModules } from './meta.js';
import { linkPropModules } from './prop-links.js';
import { pagePropModules } from './prop-pages.js';

/** The 64 query modules of the spec, unvalidated (the catalogue service validates them at start-up). */
export const queryModuleData: readonly ApiModuleInput[] = [
  ...allListModules,
  ...linkListModules,
  ...activityListModules,
  ...otherListModules,
  ...pagePropModules,
  ...linkPropModules,
  ...metaModules,
];
