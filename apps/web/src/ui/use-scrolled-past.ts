import { useCallback, useSyncExternalStore } from 'react';

const isScrolledPast = (scrollY: number, threshold: number): boolean => scrollY > threshold;

/** True once the page has scrolled further than `threshold` pixels. */
export function useScrolledPast(threshold: number): boolean {
  const subscribe = useCallback((onChange: () => void) => {
    window.addEventListener('scroll', onChange, { passive: true });
    return () => window.removeEventListener('scroll', onChange);
  }, []);
  return useSyncExternalStore(
    subscribe,
    () => isScrolledPast(window.scrollY, threshold),
    () => false,
  );
}
