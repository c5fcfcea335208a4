// The boundaries of docs/architecture.md, checked on every `npm run lint`.
// A rule names what may not depend on what; `npx depcruise src` lists every break with its path.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'core-imports-nothing-of-ours',
      comment: 'src/core is pure domain code shared by the server and the browser: it may import only itself (and npm packages).',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: '^(src/(?!core/)|tests/|bench/|scripts/)' },
    },
    {
      name: 'contracts-only-core',
      comment: 'src/contracts (the API schemas) may import src/core and nothing else of ours.',
      severity: 'error',
      from: { path: '^src/contracts/' },
      to: { path: '^(src/(?!core/|contracts/)|tests/|bench/|scripts/)' },
    },
    {
      name: 'web-never-server',
      comment: 'The browser bundle may not import server code (it would ship secrets or Node-only modules, and blur who decides).',
      severity: 'error',
      from: { path: '^src/web/' },
      to: { path: '^src/server/' },
    },
    {
      name: 'server-never-web',
      comment: 'The server does not import the SPA; it serves its built files.',
      severity: 'error',
      from: { path: '^src/server/' },
      to: { path: '^src/web/' },
    },
    {
      name: 'feature-through-its-index',
      comment:
        'A feature (src/server/features/* or src/web/features/*) reaches another feature only through that ' +
        "feature's public index.ts; anything shared by several features lives outside them (server/lib, web/ui, web/lib) " +
        'or is exported by its owner.',
      severity: 'error',
      from: { path: '^src/(server|web)/features/([^/]+)/' },
      to: { path: '^src/$1/features/(?!$2/)[^/]+/(?!index\\.tsx?$)' },
    },
    {
      name: 'no-feature-cycles',
      comment:
        'Features depend on each other one way only: two features that reach each other (directly or round a longer loop) ' +
        'are one feature, or share something that belongs outside both.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^src/(server|web)/features/[^/]+$' },
      to: { path: '^src/(server|web)/features/[^/]+$', circular: true },
    },
    {
      name: 'web-module-in-use',
      comment:
        'Every module of the SPA is reached from its entry (src/web/main.tsx); one that is not is dead code that still ' +
        'reads as if it mattered. Tests and their helpers are exempt.',
      severity: 'error',
      from: { path: '^src/web/main\\.tsx$' },
      to: { path: '^src/web/', pathNot: '(\\.test\\.tsx?|\\.d\\.ts|\\.css)$|^src/web/(test/|main\\.tsx$)', reachable: false },
    },
    {
      name: 'server-module-in-use',
      comment:
        "Every module of the server, the core and the contracts is reached from the server's entries (main.ts and the " +
        'command-line tools: ledger check, backup, restore); one that is not is dead code. The web app reaches core and contracts too, but the server, which ' +
        'decides, must use every rule the core holds.',
      severity: 'error',
      from: { path: '^src/server/(main|ledger/check-cli|backup/backup-cli|backup/restore-cli)\\.ts$' },
      to: { path: '^src/(server|core|contracts)/', pathNot: '(\\.test\\.ts|\\.d\\.ts)$|^src/server/(main|ledger/check-cli|backup/backup-cli|backup/restore-cli)\\.ts$', reachable: false },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'], extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
