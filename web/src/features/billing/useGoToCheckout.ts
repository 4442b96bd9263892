import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';

import { checkoutDestination } from './billing';

/** Sends the user to a checkout's `sessionUrl`: the local provider's page inside the SPA, any other address as is. */
export function useGoToCheckout() {
  const navigate = useNavigate();
  return useCallback(
    (sessionUrl: string) => {
      const destination = checkoutDestination(sessionUrl);
      if ('inApp' in destination) void navigate(destination.inApp);
      else window.location.assign(destination.external);
    },
    [navigate],
  );
}
