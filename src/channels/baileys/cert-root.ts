import { WA_CERT_DETAILS } from "baileys";

/**
 * Makes Baileys accept a server whose Noise certificate chain is signed by `publicKey` instead of WhatsApp's own
 * root: a fake WhatsApp server (WA_CERT_ROOT). The root is Baileys' one constant for the whole process, so every
 * connection of the process then checks against it.
 */
export function trustCertificateRoot(publicKey: Buffer) {
  (WA_CERT_DETAILS as { PUBLIC_KEY: Buffer }).PUBLIC_KEY = publicKey;
}
