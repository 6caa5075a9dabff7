/**
 * A contact's phone on the fake server, as a Signal peer: it hands out pre-key bundles whose private keys it keeps,
 * so the test can decrypt what the client encrypted to it. Built on Baileys' own Signal repository.
 */
import {
  addTransactionCapability,
  Curve,
  DEFAULT_CONNECTION_CONFIG,
  initAuthCreds,
  proto,
  unpadRandomMax16,
  type BinaryNode,
  type SignalDataTypeMap,
  type SignalKeyStore,
} from "baileys";

type ILogger = Parameters<typeof DEFAULT_CONNECTION_CONFIG.makeSignalRepository>[1];

const quiet: ILogger = {
  level: "silent",
  child: () => quiet,
  trace: () => {},
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
};

const uint = (n: number, bytes: number) => {
  const out = Buffer.alloc(bytes);
  out.writeUIntBE(n, 0, bytes);
  return out;
};

export class FakePeer {
  readonly creds = initAuthCreds();
  private keys = new Map<string, unknown>();
  private nextPreKeyId = 1;
  private repo = DEFAULT_CONNECTION_CONFIG.makeSignalRepository(
    {
      creds: this.creds,
      keys: addTransactionCapability(this.store(), quiet, { maxCommitRetries: 1, delayBetweenTriesMs: 0 }),
    },
    quiet,
  );

  /** The registration id as the 4 bytes WhatsApp nodes carry. */
  get registration() {
    return uint(this.creds.registrationId, 4);
  }

  /** A `<user>` node of a pre-key bundle with a fresh one-time pre-key. */
  bundle(jid: string): BinaryNode {
    const id = this.nextPreKeyId++;
    const pre = Curve.generateKeyPair();
    this.keys.set(`pre-key:${id}`, pre);
    const signed = this.creds.signedPreKey;
    return {
      tag: "user",
      attrs: { jid },
      content: [
        { tag: "registration", attrs: {}, content: this.registration },
        { tag: "identity", attrs: {}, content: Buffer.from(this.creds.signedIdentityKey.public) },
        {
          tag: "skey",
          attrs: {},
          content: [
            { tag: "id", attrs: {}, content: uint(signed.keyId, 3) },
            { tag: "value", attrs: {}, content: Buffer.from(signed.keyPair.public) },
            { tag: "signature", attrs: {}, content: Buffer.from(signed.signature) },
          ],
        },
        {
          tag: "key",
          attrs: {},
          content: [
            { tag: "id", attrs: {}, content: uint(id, 3) },
            { tag: "value", attrs: {}, content: Buffer.from(pre.public) },
          ],
        },
      ],
    };
  }

  /** Decrypts an `<enc>` the client addressed to this peer; `from` names the sending device's session. */
  async decrypt(from: string, enc: BinaryNode): Promise<proto.IMessage> {
    const type = enc.attrs.type as "pkmsg" | "msg";
    const plain = await this.repo.decryptMessage({ jid: from, type, ciphertext: enc.content as Uint8Array });
    return proto.Message.decode(unpadRandomMax16(plain));
  }

  private store(): SignalKeyStore {
    return {
      get: async <T extends keyof SignalDataTypeMap>(type: T, ids: string[]) => {
        const out: { [id: string]: SignalDataTypeMap[T] } = {};
        for (const id of ids) {
          const v = this.keys.get(`${type}:${id}`);
          if (v !== undefined) out[id] = v as SignalDataTypeMap[T];
        }
        return out;
      },
      set: async (data) => {
        for (const [type, entries] of Object.entries(data)) {
          for (const [id, value] of Object.entries(entries ?? {})) {
            if (value === null || value === undefined) this.keys.delete(`${type}:${id}`);
            else this.keys.set(`${type}:${id}`, value);
          }
        }
      },
    };
  }
}
