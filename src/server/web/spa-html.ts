// The SPA's index.html, per path: the page's own lazy chunks are named in preload links so the
// browser fetches them alongside the entry chunk instead of after it has run (one request chain
// less before a page can paint; docs/performance.md). The list comes from the build
// (scripts/route-preloads.mjs writes dist/web/route-preloads.json from Vite's manifest).
import { z } from 'zod';

export const routePreloadsSchema = z.array(z.object({ path: z.string().startsWith('/'), files: z.array(z.string().startsWith('/assets/')) }));
export type RoutePreloads = z.infer<typeof routePreloadsSchema>;

/** Returns the HTML to send for a URL path: index.html, with the preload links of the route it matches. */
export function createSpaHtml(indexHtml: string, routes: RoutePreloads): (urlPath: string) => string {
  const compiled = routes.map((route) => ({ segments: splitPath(route.path), html: withPreloads(indexHtml, route.files) }));
  return (urlPath) => {
    const segments = splitPath(urlPath);
    const match = compiled.find((route) => route.segments.length === segments.length && route.segments.every((part, i) => part.startsWith(':') || part === segments[i]));
    return match?.html ?? indexHtml;
  };
}

function splitPath(urlPath: string): string[] {
  return urlPath.split('/').filter(Boolean);
}

function withPreloads(indexHtml: string, files: string[]): string {
  if (files.length === 0 || !indexHtml.includes('</head>')) return indexHtml;
  // crossorigin like Vite's own tags, or the browser would not reuse what it preloaded.
  const links = files.map((file) =>
    file.endsWith('.css') ? `<link rel="preload" as="style" crossorigin href="${escapeAttribute(file)}">` : `<link rel="modulepreload" crossorigin href="${escapeAttribute(file)}">`,
  );
  return indexHtml.replace('</head>', `  ${links.join('\n    ')}\n  </head>`);
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}
