import { useCallback } from 'react';
import { useLocation } from 'react-router-dom';

import { useNavigate } from '../../lib/router';
import { checkoutDestination, returnPath } from './billing';
import { leaveTo } from './leave';

/**
 * Sends the user to a checkout's `sessionUrl`: the local provider's page inside the SPA (told where the user was, so
 * that Cancel goes back there), any other address as is.
 */
export function useGoToCheckout() {
  const navigate = useNavigate();
  const location = useLocation();
  return useCallback(
    (sessionUrl: string) => {
      const destination = checkoutDestination(sessionUrl);
      if ('inApp' in destination)
        void navigate(destination.inApp, { state: { returnTo: returnPath(location.pathname, location.search) } });
      else leaveTo(destination.external);
    },
    [navigate, location.pathname, location.search],
  );
}
