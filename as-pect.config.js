// as-pect: unit tests of the AssemblyScript internals (field arithmetic, padding,
// limbs). Every spec under assembly/__tests__ is its own compilation; the compiler
// options (transform, entry, outFile) are in as-pect.asconfig.json.
export default {
  entries: ['assembly/__tests__/**/*.spec.ts'],
  include: ['assembly/__tests__/**/*.include.ts'],
  disclude: [/node_modules/],
  async instantiate(memory, createImports, instantiate, binary) {
    return instantiate(binary, createImports({ env: { memory } }));
  },
  outputBinary: false,
};
