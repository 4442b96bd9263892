import { isObjectivesPage, objectivesKey } from '@sparks/contracts/rules';

/**
 * docs/product.md §2: the objectives panel slides in on the Spark pages and on /deploy, /profile and /billing; its opening
 * button is hidden on /, /onboarding (/onBoarding) and /new-spark, and pages without objectives show none.
 * Answers the key of GET /objectives/{key} for a path, or null when the page has no panel.
 */
export function objectivesKeyFor(pathname: string): string | null {
  const path = pathname.replace(/\/+$/, '') || '/';
  const page = /^\/([^/]+)$/.exec(path)?.[1];
  if (page && isObjectivesPage(page)) return objectivesKey({ kind: 'page', page });
  const spark = /^\/spark\/([^/]+)(?:\/test\/[^/]+)?$/.exec(path);
  if (spark && spark[1] !== 'onboarding')
    return objectivesKey({ kind: 'spark', sparkId: decodeURIComponent(spark[1]) });
  return null;
}

export function showsObjectivesButton(pathname: string): boolean {
  return objectivesKeyFor(pathname) !== null;
}
