import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useToast } from '../ui/toast';

export const UNKNOWN_ROUTE_MESSAGE = "That page doesn't exist";

/**
 * docs/rules.md#screens: any other path redirects to the landing page. A silent redirect looks like a broken
 * link that "worked", so the redirect says why.
 */
export function UnknownRoute() {
  const toast = useToast();
  const navigate = useNavigate();
  const { key } = useLocation();
  useEffect(() => {
    // Keyed on the location: StrictMode's second effect run sees the same key and the redirect
    // has already replaced it, so the toast is shown once per wrong address.
    if (announced.has(key)) return;
    announced.add(key);
    toast.info(UNKNOWN_ROUTE_MESSAGE);
    navigate('/', { replace: true });
  }, [key, toast, navigate]);
  return null;
}

const announced = new Set<string>();
