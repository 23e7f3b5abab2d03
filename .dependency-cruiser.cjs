// The import rules of docs/architecture.md ("Import rules"), checked by dependency-cruiser
// over src/ (`npm run check:imports`, and `npm test` through scripts/check-imports.mjs).
// Circles are refused between any two files, type-only imports included; the layer
// rules hold runtime imports only (a type-only import vanishes at build time).

/** Layers bottom-up, as path patterns relative to the repository. */
const LAYERS = [
  [
    'foundations',
    '^src/(errors|alg-base|algorithms|b64|utf8|json-names|options-error|option-names|freeze)\\.ts$' +
      '|^src/platform/|^src/messages/|^src/keys/(rsa-params|ec-point)\\.ts$',
  ],
  ['boundary', '^src/wasm/'],
  ['backends', '^src/backend/'],
  ['token parts', '^src/(jws|jws-bytes|header|payload|claims|cache|decode|digest)\\.ts$'],
  ['signature step', '^src/signature\\.ts$'],
  ['keys', '^src/(keys|sign|jwe)/'],
  ['policy', '^src/options\\.ts$|^src/hmac/source\\.ts$'],
  ['verifier', '^src/(verify-path|verifier)\\.ts$|^src/dpop/'],
  ['public API', '^src/index\\.ts$|^src/hmac/index\\.ts$'],
  ['adapters', '^src/(bearer|hono|worker|resource|introspection)/'],
  ['tools', '^src/cli/'],
];

/** What a layer may import besides everything below it. */
const ALSO = {
  // The token parts may hash through the core (digest.ts).
  'token parts': ['^src/wasm/'],
};

const RUNTIME = { dependencyTypesNot: ['type-only'] };

/**
 * One rule per layer: no runtime import of a layer above it (a file in foundations is matched by its own pattern
 * first).
 */
const layerRules = LAYERS.slice(0, -1).map(([name, path], i) => ({
  name: `layer: ${name}`,
  comment: `${name} imports only from its own layer and the ones below (docs/architecture.md, "Layers")`,
  severity: 'error',
  // A file belongs to the first layer that matches it (keys/rsa-params.ts is a foundation).
  from: { path, pathNot: LAYERS.slice(0, i).map(([, p]) => p) },
  to: {
    path: LAYERS.slice(i + 1).map(([, p]) => p),
    pathNot: [...LAYERS.slice(0, i + 1).map(([, p]) => p), ...(ALSO[name] ?? [])],
    ...RUNTIME,
  },
}));

/** Imports no layer rule would catch, forbidden outright. */
const never = [
  [
    'adapters-no-backend',
    '^src/(bearer|hono|worker|resource|introspection)/',
    '^src/backend/',
    'adapters verify through createVerifier, never a backend',
  ],
  ['hono-not-guard', '^src/hono/', '^src/worker/', 'the Hono middleware does not depend on the guard'],
  [
    'bearer-below-adapters',
    '^src/bearer/',
    '^src/(hono|worker|cli|resource|introspection)/',
    'the bearer module is shared by the guard and the middleware, below both',
  ],
  [
    'resource-parts-below-guard',
    '^src/(resource|introspection)/',
    '^src/(hono|cli)/|^src/worker/(?!config-error\\.ts$|config-values\\.ts$|config-keys\\.ts$)',
    "the resource-server parts use only the guard's config helpers (and the generated key sets); " +
      "the guard's stages wrap them, never the other way",
  ],
  [
    'nothing-imports-cli',
    '^src/(bearer|hono|worker)/',
    '^src/cli/',
    'the command-line tool uses the guard, never the other way',
  ],
  [
    'verifier-no-backend',
    '^src/(verifier|verify-path)\\.ts$',
    '^src/backend/',
    'the verifier calls handle.verify, never a backend',
  ],
  [
    'verifier-no-jwe',
    '^src/(verify-path|verifier)\\.ts$',
    '^src/jwe/',
    'JWE reaches the verifier only through the decryption value jweDecryption makes ' +
      '(a bundle without jweDecryption has no src/jwe/)',
  ],
  [
    'guard-no-jwe',
    '^src/worker/',
    '^src/(jwe/|verifier\\.ts$)',
    'the guard never decrypts: it builds its verifier through verify-path.ts without src/jwe/',
  ],
  ['src-not-assembly', '^src/', '^assembly/', 'src/ reaches the core only through #core-loader and src/wasm/abi.ts'],
].map(([name, from, to, comment]) => ({
  name,
  comment,
  severity: 'error',
  from: { path: from },
  to: { path: to, ...(name === 'src-not-assembly' ? {} : RUNTIME) },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment:
        'no import circle in src/, type-only imports included: types and constants live at the layer that owns them',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'every-file-in-a-layer',
      comment: 'a file no layer claims: add it to LAYERS here and to the table in docs/architecture.md',
      severity: 'error',
      from: { path: '^src/', pathNot: [...LAYERS.map(([, p]) => p), '\\.d\\.ts$'] },
      to: {},
    },
    {
      name: 'every-lone-file-in-a-layer',
      comment: 'the same for a file that imports nothing and that nothing imports',
      severity: 'error',
      from: { orphan: true, path: '^src/', pathNot: [...LAYERS.map(([, p]) => p), '\\.d\\.ts$'] },
      to: {},
    },
    {
      name: 'every-import-in-a-layer',
      comment: 'an import of a src/ file no layer claims',
      severity: 'error',
      from: { path: '^src/' },
      to: {
        path: '^src/',
        pathNot: [...LAYERS.map(([, p]) => p), '\\.d\\.ts$', '^src/worker/guard-config\\.schema\\.json$'],
      },
    },
    {
      name: 'source-only',
      comment: 'src/ resolves to src/, never to the build output (a # import that missed the edgejwt-source condition)',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^dist/' },
    },
    {
      name: 'resolvable',
      comment: 'every import resolves, so that no edge is silently left out of the checks above',
      severity: 'error',
      from: { path: '^src/' },
      to: { couldNotResolve: true, pathNot: ['^cloudflare:workers$'] },
    },
    ...layerRules,
    ...never,
  ],
  options: {
    // `import type` edges are part of the graph (for no-circular); the layer rules skip them.
    tsPreCompilationDeps: true,
    // #core-loader, #crypto-backend and #platform resolve through package.json "imports"
    // under the `edgejwt-source` condition, as tsconfig's customConditions does: their
    // web variants in src/ (the node variants sit in the same layers).
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['^src/wasm/generated/'] },
    enhancedResolveOptions: {
      extensions: ['.ts', '.d.ts', '.js', '.json'],
      conditionNames: ['edgejwt-source', 'import', 'default'],
      exportsFields: ['exports'],
    },
  },
};
