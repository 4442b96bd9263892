import { browserTimeZone } from './timeZone';
import { useCachedProfile } from './useProfile';

/**
 * The owner's time zone (IANA), in which their days begin and end: the profile's when it has one (the weekly e-mail
 * dialog sets it), the browser's otherwise (a profile without one, or that could not be read), UTC when the browser
 * does not say. Undefined while the profile is loading, so that a page asks for its figures once, in the right zone;
 * a profile already cached costs no request.
 */
export function useOwnerTimeZone(): string | undefined {
  const { data: profile, error } = useCachedProfile();
  if (!profile && !error) return undefined;
  return profile?.timeZone ?? browserTimeZone() ?? 'UTC';
}
