// The guard Worker as docs/deploy.md deploys it: edgejwt/worker's default export, nothing else.
export { default } from 'edgejwt/worker';
