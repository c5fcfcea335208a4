import { describe, expect, it } from 'vitest';
import { createSpaHtml } from './spa-html';

const INDEX = '<html><head><title>PayWeave</title>\n  </head><body></body></html>';
const routes = [
  { path: '/', files: ['/assets/LandingPage-a.js'] },
  { path: '/login', files: ['/assets/Field-b.js', '/assets/Field-c.css', '/assets/LoginPage-d.js'] },
  { path: '/history/:id', files: ['/assets/HistoryDetailPage-e.js'] },
];

describe('index.html with route preloads', () => {
  const htmlFor = createSpaHtml(INDEX, routes);

  it("names the page's chunks for the path it serves, scripts as modulepreload and styles as preload", () => {
    const html = htmlFor('/login');
    expect(html).toContain('<link rel="modulepreload" crossorigin href="/assets/LoginPage-d.js">');
    expect(html).toContain('<link rel="modulepreload" crossorigin href="/assets/Field-b.js">');
    expect(html).toContain('<link rel="preload" as="style" crossorigin href="/assets/Field-c.css">');
    expect(html).not.toContain('LandingPage');
    expect(html.indexOf('LoginPage')).toBeLessThan(html.indexOf('</head>'));
  });

  it('matches a trailing slash and route parameters', () => {
    expect(htmlFor('/login/')).toContain('LoginPage-d.js');
    expect(htmlFor('/history/3f1c')).toContain('HistoryDetailPage-e.js');
    expect(htmlFor('/')).toContain('LandingPage-a.js');
  });

  it('sends index.html unchanged for a path no route has', () => {
    expect(htmlFor('/nowhere')).toBe(INDEX);
    expect(htmlFor('/history')).toBe(INDEX);
    expect(htmlFor('/history/1/2')).toBe(INDEX);
  });
});
