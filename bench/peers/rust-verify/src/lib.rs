//! Bench peer: the verify paths edgejwt competes with, compiled to Wasm.
//! Every key is prepared once at construction (point decompressed, HMAC pads
//! absorbed), so a verify call pays only for the verification itself.
use ed25519_dalek::{Signature as DalekSignature, VerifyingKey};
use hmac::{Hmac, Mac};
use sha2::Sha256;
use wasm_bindgen::prelude::*;

/// ed25519-dalek with the public key decompressed once.
#[wasm_bindgen]
pub struct DalekKey(VerifyingKey);

#[wasm_bindgen]
impl DalekKey {
    /// Returns an error for a key that does not decode.
    #[wasm_bindgen(constructor)]
    pub fn new(public_key: &[u8]) -> Result<DalekKey, JsError> {
        let bytes: [u8; 32] = public_key.try_into().map_err(|_| JsError::new("key must be 32 bytes"))?;
        VerifyingKey::from_bytes(&bytes).map(DalekKey).map_err(|_| JsError::new("bad key"))
    }

    /// dalek's default `verify` (cofactorless, S < L, R compared as bytes).
    pub fn verify(&self, message: &[u8], signature: &[u8]) -> bool {
        use ed25519_dalek::Verifier;
        match DalekSignature::from_slice(signature) {
            Ok(sig) => self.0.verify(message, &sig).is_ok(),
            Err(_) => false,
        }
    }

    /// dalek's `verify_strict` (also refuses small-order A and R).
    pub fn verify_strict(&self, message: &[u8], signature: &[u8]) -> bool {
        match DalekSignature::from_slice(signature) {
            Ok(sig) => self.0.verify_strict(message, &sig).is_ok(),
            Err(_) => false,
        }
    }
}

/// ed25519-compact with the public key parsed once.
#[wasm_bindgen]
pub struct CompactKey(ed25519_compact::PublicKey);

#[wasm_bindgen]
impl CompactKey {
    #[wasm_bindgen(constructor)]
    pub fn new(public_key: &[u8]) -> Result<CompactKey, JsError> {
        ed25519_compact::PublicKey::from_slice(public_key).map(CompactKey).map_err(|_| JsError::new("bad key"))
    }

    pub fn verify(&self, message: &[u8], signature: &[u8]) -> bool {
        match ed25519_compact::Signature::from_slice(signature) {
            Ok(sig) => self.0.verify(message, &sig).is_ok(),
            Err(_) => false,
        }
    }
}

/// HS256 with the key's inner/outer pads absorbed once (RustCrypto hmac + sha2).
#[wasm_bindgen]
pub struct Hs256Key(Hmac<Sha256>);

#[wasm_bindgen]
impl Hs256Key {
    #[wasm_bindgen(constructor)]
    pub fn new(secret: &[u8]) -> Result<Hs256Key, JsError> {
        Hmac::<Sha256>::new_from_slice(secret).map(Hs256Key).map_err(|_| JsError::new("bad key"))
    }

    /// Full-length tag check in constant time (`verify_slice`).
    pub fn verify(&self, message: &[u8], tag: &[u8]) -> bool {
        let mut mac = self.0.clone();
        mac.update(message);
        mac.verify_slice(tag).is_ok()
    }
}
