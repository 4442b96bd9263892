import { useEffect } from 'react';

import { completeStep, previewToken } from '../api';

/**
 * The live preview: the real widget (`/widget.js`, the same code a website loads) on this page, with
 * a short-lived preview token that works only on the app's own origin, so it needs no publishing.
 */
export function LivePreview({ sparkId }: { sparkId: string }) {
  useEffect(() => {
    let script: HTMLScriptElement | undefined;
    let cancelled = false;
    const clear = () => {
      for (const node of Array.from(document.querySelectorAll('[data-sparks-widget]'))) node.remove();
      script?.remove();
    };
    void previewToken(sparkId)
      .then(({ token }) => {
        if (cancelled) return;
        clear();
        script = document.createElement('script');
        // Relative: the page's own origin, which the preview token is valid on.
        script.src = '/widget.js';
        script.async = true;
        script.dataset.token = token;
        document.body.appendChild(script);
        void completeStep('deploy.preview');
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
      clear();
    };
  }, [sparkId]);
  return null;
}
