import { jwkThumbprint } from 'edgejwt';

const jwk = {
  kty: 'EC',
  crv: 'P-256',
  x: 'l8tFrhx-34tV3hRICRDY9zCkDlpBhF42UQUfWVAWBFs',
  y: '9VE4jf_Ok_o64zbTTlcuNJajHmt6v9TDVrU0CdvGRDA',
};
console.log(jwkThumbprint(jwk)); // → 0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I
