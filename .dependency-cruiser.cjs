// The boundaries of docs/architecture.md, checked on every `npm run lint`.
// A rule names what may not depend on what; `npx depcruise src` lists every break with its path.

// The floors of src/server, lowest first (docs/architecture.md#the-floors-of-the-server, decision 185). A module
// imports from its own floor or the ones below, never above; type-only imports count (tsPreCompilationDeps).
// config.ts and logger.ts sit on the bottom floor with db/ and lib/: every floor may read them, and
// they read only lib/ and src/core. db/ and lib/ share it because each uses the other. Tests are
// exempt: they build the whole app to exercise one module.
const SERVER_FLOORS = [
  { name: 'foundation', path: '^src/server/((db|lib)/|(config|logger)\\.ts$)', holds: 'db/, lib/, config.ts and logger.ts' },
  { name: 'ledger', path: '^src/server/ledger/', holds: 'ledger/' },
  // Events are written beside the changes they report, by the money writers and the drain alike.
  { name: 'events', path: '^src/server/events/', holds: 'events/' },
  { name: 'adapters', path: '^src/server/adapters/', holds: 'adapters/' },
  { name: 'effects', path: '^src/server/effects/', holds: 'effects/' },
  // The money pipeline (one reader, the core's decision, one writer, then the effects): below the
  // request plugins, which have no business running one.
  { name: 'money', path: '^src/server/money/', holds: 'money/' },
  { name: 'plugins', path: '^src/server/plugins/', holds: 'plugins/' },
  { name: 'features', path: '^src/server/features/', holds: 'features/' },
  // The entries and what only they use: the app's assembly, the process, the API document, the jobs,
  // the SPA's files, and the backup tools (command-line entries of their own).
  { name: 'entries', path: '^src/server/((web|backup)/|(app|main|openapi|scheduler)\\.ts$)', holds: 'app.ts, main.ts, openapi.ts, scheduler.ts, web/ and backup/' },
];

const serverFloorRules = SERVER_FLOORS.map((floor, index) => {
  const below = SERVER_FLOORS.slice(0, index);
  return {
    name: `server-floor-${floor.name}`,
    comment:
      `src/server ${floor.holds} may import only from its own floor` +
      (below.length ? ` and the floors below it (${below.map((f) => f.name).join(', ')})` : '') +
      '. What a lower floor needs from a higher one belongs on the lower floor. ' +
      // A module outside every floor is above them all: placing a new folder is part of adding it.
      'A src/server folder on no floor counts as above all of them: add it to SERVER_FLOORS.',
    severity: 'error',
    from: { path: floor.path, pathNot: '\\.test\\.ts$' },
    to: { path: '^src/server/', pathNot: SERVER_FLOORS.slice(0, index + 1).map((f) => f.path).join('|') },
  };
});

/** @type {import('dependency-cruiser').IConfiguration} */
// Modules built and tested ahead of the feature that uses them, each removed from this list in the
// change that wires it (docs/decisions/189-modules-built-ahead-of-their-wiring.md). None now: the
// signed webhooks' parts are used by the dispatcher and the endpoints API (decision 191).
/** @type {string[]} */
const BUILT_AHEAD_PATHS = [];
// Empty, it must add no alternative: an empty one would match every path and switch the rule off.
const BUILT_AHEAD = BUILT_AHEAD_PATHS.map((path) => `|^${path}$`).join('');

module.exports = {
  forbidden: [
    ...serverFloorRules,
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
      to: { path: '^src/(server|core|contracts)/', pathNot: `(\\.test\\.ts|\\.d\\.ts)$|^src/server/(main|ledger/check-cli|backup/backup-cli|backup/restore-cli)\\.ts$${BUILT_AHEAD}`, reachable: false },
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
