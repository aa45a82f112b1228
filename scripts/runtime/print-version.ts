// Run by child-runtime.test.ts as a TypeScript child under Node's own type stripping: a type annotation
// that only stripping (or tsx) can run.
const version: string = process.version;
console.log(version);
