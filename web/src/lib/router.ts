import { useCallback, useLayoutEffect, useRef } from 'react';
import {
  createSearchParams,
  useNavigate as useRouterNavigate,
  useSearchParams as useRouterSearchParams,
  type NavigateFunction,
  type NavigateOptions,
  type SetURLSearchParams,
  type To,
} from 'react-router-dom';

/**
 * The app's `useNavigate` and `useSearchParams` (import them from here, not from react-router-dom).
 *
 * The SPA renders its routes with `<BrowserRouter>` and `useRoutes` (src/main.tsx) rather than the data router
 * (`createBrowserRouter`): it uses no loader, action or fetcher, and the data router is about 16 kB gzip of the
 * first load (bench/RESULTS.md, 2026-11-28). One difference the pages could notice: the data router's `navigate`
 * keeps its identity for the life of the component, react-router's declarative one changes with every pathname,
 * so an effect or callback that lists `navigate` (or the `setSearchParams` built on it) would run again on each
 * navigation. These two keep the data router's identities.
 */

/** A `navigate` that keeps its identity (it calls the router's latest one, resolved from the current route). */
export function useNavigate(): NavigateFunction {
  const navigate = useRouterNavigate();
  const latest = useRef(navigate);
  useLayoutEffect(() => {
    latest.current = navigate;
  }, [navigate]);
  return useCallback<NavigateFunction>(
    (to: To | number, options?: NavigateOptions) =>
      typeof to === 'number' ? latest.current(to) : latest.current(to, options),
    [],
  );
}

/**
 * The query string and its setter; the setter changes only when the query string does (as with the data router).
 * Same rules as react-router's: the next value, or a function of a copy of the current one; navigates to `?…`.
 */
export function useSearchParams(): [URLSearchParams, SetURLSearchParams] {
  const [searchParams] = useRouterSearchParams();
  const navigate = useNavigate();
  const setSearchParams = useCallback<SetURLSearchParams>(
    (nextInit, navigateOptions) => {
      const next = createSearchParams(
        typeof nextInit === 'function' ? nextInit(new URLSearchParams(searchParams)) : nextInit,
      );
      void navigate(`?${next.toString()}`, navigateOptions);
    },
    [navigate, searchParams],
  );
  return [searchParams, setSearchParams];
}
