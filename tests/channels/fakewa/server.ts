/**
 * A small fake WhatsApp Web server for driver tests: Noise XX handshake with a
 * test certificate chain, QR pairing (pair-device → scan → pair-success → 515), login, plaintext inbound
 * messages, receipts (retry receipts too), calls, and a record of what the client sent, which the contacts'
 * fake phones can decrypt. Like WhatsApp, it delivers again, at the next login and marked offline, every message
 * the client never receipted or acked. Loopback only.
 */
import {
  aesDecryptGCM,
  aesEncryptGCM,
  Curve,
  decodeBinaryNode,
  encodeBinaryNode,
  hkdf,
  hmacSign,
  jidDecode,
  NOISE_MODE,
  proto,
  sha256,
  type BinaryNode,
} from "baileys";
import type { ServerWebSocket } from "bun";
import { deflateSync } from "node:zlib";
import { trustCertificateRoot } from "../../../src/channels/baileys/cert-root";
import { FakePeer } from "./peer";

// Baileys pins WhatsApp's root key; tests swap in their own root (an internal, mutable object).
const ROOT = Curve.generateKeyPair();
trustCertificateRoot(Buffer.from(ROOT.public));
const INTERMEDIATE = Curve.generateKeyPair();
const SERVER_STATIC = Curve.generateKeyPair();
const CERT_CHAIN = (() => {
  const interDetails = proto.CertChain.NoiseCertificate.Details.encode({
    serial: 1,
    issuerSerial: 0,
    key: INTERMEDIATE.public,
  }).finish();
  const leafDetails = proto.CertChain.NoiseCertificate.Details.encode({
    serial: 2,
    issuerSerial: 1,
    key: SERVER_STATIC.public,
  }).finish();
  return proto.CertChain.encode({
    intermediate: { details: interDetails, signature: Curve.sign(ROOT.private, interDetails) },
    leaf: { details: leafDetails, signature: Curve.sign(INTERMEDIATE.private, leafDetails) },
  }).finish();
})();

/** The test root key, for a client in another process to trust the fake (see `trustFakeRoot`). */
export const FAKE_ROOT_PUBLIC_KEY = Buffer.from(ROOT.public).toString("base64");

/** Makes Baileys in this process trust a fake server started in another process (its root key, base64). */
export function trustFakeRoot(publicKeyBase64: string) {
  trustCertificateRoot(Buffer.from(publicKeyBase64, "base64"));
}

/** A stable fake LID for a phone number. */
export const fakeLid = (digits: string) => `9${digits.padStart(14, "0")}`;

const iv = (n: number) => {
  const out = new Uint8Array(12);
  new DataView(out.buffer).setUint32(8, n);
  return out;
};

/** Server side of Baileys' Noise_XX handshake, then the transport cipher. */
class NoiseServer {
  private hash: Buffer;
  private salt: Buffer;
  private key: Buffer;
  private counter = 0;
  private ephemeral = Curve.generateKeyPair();
  private enc?: { key: Buffer; n: number };
  private dec?: { key: Buffer; n: number };

  constructor(header: Uint8Array) {
    const mode = Buffer.from(NOISE_MODE);
    this.hash = mode;
    this.salt = mode;
    this.key = mode;
    this.mix(header);
  }

  get ready() {
    return !!this.enc;
  }

  private mix(data: Uint8Array) {
    if (!this.enc) this.hash = sha256(Buffer.concat([this.hash, data]));
  }

  private mixKey(data: Uint8Array) {
    const out = Buffer.from(hkdf(Buffer.from(data), 64, { salt: this.salt, info: "" }));
    this.salt = out.subarray(0, 32);
    this.key = out.subarray(32);
    this.counter = 0;
  }

  private encryptHs(plain: Uint8Array) {
    const out = aesEncryptGCM(plain, this.key, iv(this.counter++), this.hash);
    this.mix(out);
    return out;
  }

  private decryptHs(cipher: Uint8Array) {
    const out = aesDecryptGCM(cipher, this.key, iv(this.counter++), this.hash);
    this.mix(cipher);
    return out;
  }

  /** Answers the client hello with the server hello. */
  hello(clientEphemeral: Uint8Array): Uint8Array {
    this.mix(clientEphemeral);
    this.mix(this.ephemeral.public);
    this.mixKey(Curve.sharedKey(this.ephemeral.private, clientEphemeral));
    const staticEnc = this.encryptHs(SERVER_STATIC.public);
    this.mixKey(Curve.sharedKey(SERVER_STATIC.private, clientEphemeral));
    const payload = this.encryptHs(CERT_CHAIN);
    return proto.HandshakeMessage.encode({
      serverHello: { ephemeral: this.ephemeral.public, static: staticEnc, payload },
    }).finish();
  }

  /** Reads the client finish and switches to transport keys; returns the client payload. */
  finish(staticEnc: Uint8Array, payloadEnc: Uint8Array): proto.ClientPayload {
    const clientStatic = this.decryptHs(staticEnc);
    this.mixKey(Curve.sharedKey(this.ephemeral.private, clientStatic));
    const payload = proto.ClientPayload.decode(this.decryptHs(payloadEnc));
    const out = Buffer.from(hkdf(Buffer.alloc(0), 64, { salt: this.salt, info: "" }));
    this.dec = { key: out.subarray(0, 32), n: 0 };
    this.enc = { key: out.subarray(32), n: 0 };
    return payload;
  }

  encrypt(plain: Uint8Array) {
    return aesEncryptGCM(plain, this.enc!.key, iv(this.enc!.n++), Buffer.alloc(0));
  }

  decrypt(cipher: Uint8Array) {
    return aesDecryptGCM(cipher, this.dec!.key, iv(this.dec!.n++), Buffer.alloc(0));
  }
}

interface Client {
  ws: ServerWebSocket<unknown>;
  noise?: NoiseServer;
  buf: Buffer;
  gotIntro: boolean;
  loggedIn: boolean;
  username?: string;
}

export interface FakeWaOptions {
  /** QR refs handed out per registration (Baileys ends with 408 when they run out). */
  refs?: number;
  /** The phone number the fake phone pairs as. */
  phone?: string;
  /** Numbers that exist on WhatsApp (for usync / onWhatsApp). */
  onWhatsApp?: string[];
  /** Clients presenting an older WhatsApp Web version are refused with `<failure reason="405">`. */
  minVersion?: [number, number, number];
}

/** A running fake server; `url` goes into the driver's `waWebSocketUrl`. */
export class FakeWa {
  readonly phone: string;
  readonly lid = "987654321012345";
  readonly sent: BinaryNode[] = [];
  private clients = new Set<Client>();
  private server: ReturnType<typeof Bun.serve>;
  private tag = 0;
  private waiters: { match: (n: BinaryNode) => boolean; resolve: (n: BinaryNode) => void }[] = [];
  private onWhatsAppNumbers: Set<string>;
  private phoneIdentity = Curve.generateKeyPair();
  private down = false;
  /** Contacts' phones by number (created when first needed), and the numbers behind the LIDs handed out. */
  private peers = new Map<string, FakePeer>();
  private lidToPhone = new Map<string, string>();
  /** Connections dropped at once while down. */
  refused = 0;
  /** Delivered messages the client has not receipted or acked yet (delivered again at its next login). */
  private undelivered = new Map<string, BinaryNode>();
  /** Clients logged in so far (with stored credentials, after pairing or a restart). */
  logins = 0;
  /** Logins whose offline backlog has been sent (every message not receipted before, then the `offline` count). */
  backlogsSent = 0;
  /** Ids of the delivered messages the client receipted or acked. */
  readonly receipted = new Set<string>();
  /** Called as each delivered message's receipt (or ack) reaches the server. */
  onReceipted: (id: string) => void = () => {};

  constructor(private opts: FakeWaOptions = {}) {
    this.phone = opts.phone ?? "5511900000000";
    this.onWhatsAppNumbers = new Set(opts.onWhatsApp ?? []);
    this.minVersion = opts.minVersion;
    this.server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: (req, server) =>
        server.upgrade(req, { data: undefined }) ? undefined : new Response("fake wa", { status: 426 }),
      websocket: {
        open: (ws) => {
          // Under Bun an HTTP error answer to the upgrade only raises 'unexpected-response', which Baileys ignores
          // until its connect timeout, so an outage accepts each connection and drops it at once.
          if (this.down) {
            this.refused++;
            ws.close();
            return;
          }
          const client: Client = { ws, buf: Buffer.alloc(0), gotIntro: false, loggedIn: false };
          (ws as { data: unknown }).data = client;
          this.clients.add(client);
        },
        message: (ws, data) => {
          const client = (ws as { data: Client | undefined }).data;
          if (client) void this.onData(client, Buffer.from(data as Uint8Array));
        },
        close: (ws) => {
          this.clients.delete((ws as { data: Client }).data);
        },
      },
    });
  }

  get url() {
    return `ws://127.0.0.1:${this.server.port}/ws/chat`;
  }

  stop() {
    this.server.stop(true);
  }

  /** An outage: `true` drops every open session and every new connection until called with `false`. */
  setDown(down: boolean) {
    this.down = down;
    if (down) for (const c of this.clients) c.ws.close();
  }

  /** The WhatsApp Web versions clients presented, in order. */
  readonly versions: string[] = [];
  /** Clients presenting an older version are refused with 405 (can change while running). */
  minVersion?: [number, number, number];

  /** Resolves once `n` client nodes matching `match` were recorded. */
  async waitForNth(match: (n: BinaryNode) => boolean, n: number, timeoutMs = 5000): Promise<BinaryNode> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const seen = this.sent.filter(match);
      if (seen.length >= n) return seen[n - 1]!;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`fakewa: saw ${seen.length} of ${n} client nodes`);
      await this.waitFor((node) => match(node) && !seen.includes(node), left);
    }
  }

  /** Resolves with the next client node matching `match` (or one already recorded). */
  waitFor(match: (n: BinaryNode) => boolean, timeoutMs = 5000): Promise<BinaryNode> {
    const seen = this.sent.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("fakewa: timed out waiting for a client node")), timeoutMs);
      this.waiters.push({ match, resolve: (n) => (clearTimeout(timer), resolve(n)) });
    });
  }

  /** The fake phone scans the QR: signs a device identity with the QR's adv secret and sends pair-success. */
  scan(qr: string) {
    const [, , identityB64, advB64] = qr.slice(qr.indexOf("#") + 1).split(",");
    const identityKey = Buffer.from(identityB64!, "base64");
    const deviceDetails = proto.ADVDeviceIdentity.encode({
      rawId: 1,
      timestamp: Math.floor(Date.now() / 1000),
      keyIndex: 1,
    }).finish();
    const accountSignature = Curve.sign(
      this.phoneIdentity.private,
      Buffer.concat([Buffer.from([6, 0]), deviceDetails, identityKey]),
    );
    const details = proto.ADVSignedDeviceIdentity.encode({
      details: deviceDetails,
      accountSignatureKey: this.phoneIdentity.public,
      accountSignature,
    }).finish();
    const hmac = hmacSign(details, Buffer.from(advB64!, "base64"));
    const identity = proto.ADVSignedDeviceIdentityHMAC.encode({ details, hmac }).finish();
    this.broadcast({
      tag: "iq",
      attrs: { from: "s.whatsapp.net", type: "set", id: this.nextId(), t: String(Math.floor(Date.now() / 1000)) },
      content: [
        {
          tag: "pair-success",
          attrs: {},
          content: [
            { tag: "device-identity", attrs: {}, content: identity },
            { tag: "platform", attrs: { name: "android" } },
            { tag: "device", attrs: { jid: `${this.phone}:1@s.whatsapp.net`, lid: `${this.lid}:1@lid` } },
          ],
        },
      ],
    });
    // The real server then asks the freshly paired client to restart (not a client already logged in again).
    const pairing = [...this.clients].filter((c) => !c.loggedIn);
    setTimeout(() => {
      for (const c of pairing)
        if (this.clients.has(c) && !c.loggedIn && c.noise?.ready)
          this.send(c, { tag: "stream:error", attrs: { code: "515" } });
    }, 50);
  }

  /**
   * Delivers a message from a contact as a plaintext stanza (no Signal session needed). Like WhatsApp, a message
   * addressed by phone number carries the sender's LID (`sender_lid`), unless `extra` names another sender.
   */
  deliver(from: string, id: string, message: proto.IMessage, extra: Record<string, string> = {}) {
    const byPhone = !extra.from && !extra.participant;
    if (byPhone) this.lidToPhone.set(fakeLid(from), from);
    const lid: Record<string, string> = byPhone ? { sender_lid: `${fakeLid(from)}@lid` } : {};
    const node: BinaryNode = {
      tag: "message",
      attrs: {
        from: `${from}@s.whatsapp.net`,
        ...lid,
        id,
        t: String(Math.floor(Date.now() / 1000)),
        type: "text",
        notify: "Contato",
        ...extra,
      },
      content: [{ tag: "plaintext", attrs: {}, content: proto.Message.encode(message).finish() }],
    };
    this.undelivered.set(id, node);
    this.broadcast(node);
  }

  /** The contact types (`composing`), records a voice note (`recording`) or stops (`paused`) in their chat. */
  chatstate(from: string, state: "composing" | "recording" | "paused") {
    const child: BinaryNode =
      state === "recording" ? { tag: "composing", attrs: { media: "audio" } } : { tag: state, attrs: {} };
    this.broadcast({ tag: "chatstate", attrs: { from: `${from}@s.whatsapp.net` }, content: [child] });
  }

  /** The contact comes online or leaves (what a presence subscription brings). */
  presence(from: string, type: "available" | "unavailable") {
    this.broadcast({ tag: "presence", attrs: { from: `${from}@s.whatsapp.net`, type } });
  }

  /** Sends new routing info, which Baileys saves into its credentials (a `creds.update`). */
  routingInfo(info: Uint8Array) {
    this.broadcast({
      tag: "ib",
      attrs: {},
      content: [{ tag: "edge_routing", attrs: {}, content: [{ tag: "routing_info", attrs: {}, content: info }] }],
    });
  }

  /**
   * The phone sends the client its chat history, inline as WhatsApp does for the initial bootstrap: each chat's
   * messages, and the LID↔phone pairs it knows (`lidToPhone`: LID digits → phone digits).
   */
  historySync(chats: { jid: string; messages: proto.IWebMessageInfo[] }[], lidToPhone: Record<string, string> = {}) {
    const sync = proto.HistorySync.encode({
      syncType: proto.HistorySync.HistorySyncType.INITIAL_BOOTSTRAP,
      progress: 100,
      conversations: chats.map((c) => ({
        id: c.jid,
        messages: c.messages.map((message, i) => ({ message, msgOrderId: i + 1 })),
      })),
      phoneNumberToLidMappings: Object.entries(lidToPhone).map(([lid, pn]) => ({
        lidJid: `${lid}@lid`,
        pnJid: `${pn}@s.whatsapp.net`,
      })),
    }).finish();
    this.deliver(this.phone, `HIST-${++this.tag}`, {
      protocolMessage: {
        type: proto.Message.ProtocolMessage.Type.HISTORY_SYNC_NOTIFICATION,
        historySyncNotification: {
          syncType: proto.HistorySync.HistorySyncType.INITIAL_BOOTSTRAP,
          initialHistBootstrapInlinePayload: deflateSync(sync),
          progress: 100,
        },
      },
    });
  }

  /** Sends a delivery (type undefined) or read receipt for one of the client's messages. */
  receipt(from: string, id: string, type?: "read") {
    this.broadcast({
      tag: "receipt",
      attrs: {
        from: `${from}@s.whatsapp.net`,
        id,
        t: String(Math.floor(Date.now() / 1000)),
        ...(type ? { type } : {}),
      },
    });
  }

  /** The server refuses one of the client's messages with an error ack (463: restricted account, 479: bad stanza). */
  nack(to: string, id: string, error = "479") {
    this.broadcast({
      tag: "ack",
      attrs: { class: "message", id, from: `${to}@s.whatsapp.net`, error, t: String(Math.floor(Date.now() / 1000)) },
    });
  }

  /** The contact's phone could not decrypt one of the client's messages and asks for it again. */
  retryReceipt(from: string, id: string, count = 1) {
    const t = String(Math.floor(Date.now() / 1000));
    const peer = this.peer(from);
    this.broadcast({
      tag: "receipt",
      attrs: { from: `${from}@s.whatsapp.net`, id, type: "retry", t },
      content: [
        { tag: "retry", attrs: { count: String(count), id, t, v: "1" } },
        { tag: "registration", attrs: {}, content: peer.registration },
      ],
    });
  }

  /** What the client encrypted to this phone number (or its LID) in a message stanza, decrypted by its phone. */
  async decryptFor(stanza: BinaryNode, phone: string): Promise<proto.IMessage> {
    const to = findNodes(stanza, "to").find((n) => this.phoneOf(n.attrs.jid!) === phone);
    const enc = to && findNodes(to, "enc")[0];
    if (!enc) throw new Error(`fakewa: no <enc> for ${phone} in the stanza`);
    return this.peer(phone).decrypt(`${this.phone}:1@s.whatsapp.net`, enc);
  }

  private phoneOf(jid: string) {
    const user = jidDecode(jid)?.user ?? "";
    return this.lidToPhone.get(user) ?? user;
  }

  private peer(phone: string) {
    let peer = this.peers.get(phone);
    if (!peer) this.peers.set(phone, (peer = new FakePeer()));
    return peer;
  }

  /** A group the fake phone's number was added to (`members`: phone numbers, the first one created it). */
  groupCreated(groupId: string, subject: string, members: string[]) {
    const creator = `${members[0]}@s.whatsapp.net`;
    this.groupNotification(groupId, creator, {
      tag: "create",
      attrs: {},
      content: [
        {
          tag: "group",
          attrs: { id: groupId, subject, creation: String(Math.floor(Date.now() / 1000)), creator },
          content: members.map((m, i) => ({
            tag: "participant",
            attrs: { jid: `${m}@s.whatsapp.net`, ...(i === 0 ? { type: "superadmin" } : {}) },
          })),
        },
      ],
    });
  }

  /** Members added to or removed from a group by its first admin. */
  groupParticipants(groupId: string, action: "add" | "remove", members: string[], by: string) {
    this.groupNotification(groupId, `${by}@s.whatsapp.net`, {
      tag: action,
      attrs: {},
      content: members.map((m) => ({ tag: "participant", attrs: { jid: `${m}@s.whatsapp.net` } })),
    });
  }

  private groupNotification(groupId: string, participant: string, child: BinaryNode) {
    this.broadcast({
      tag: "notification",
      attrs: {
        from: `${groupId}@g.us`,
        type: "w:gp2",
        id: this.nextId(),
        participant,
        t: String(Math.floor(Date.now() / 1000)),
      },
      content: [child],
    });
  }

  /** A call from a contact: `offer` starts ringing, `terminate` with reason timeout is a missed call. */
  call(from: string, callId: string, status: "offer" | "timeout", video = false) {
    const jid = `${from}@s.whatsapp.net`;
    const info: BinaryNode =
      status === "offer"
        ? {
            tag: "offer",
            attrs: { "call-id": callId, "call-creator": jid },
            content: video ? [{ tag: "video", attrs: {} }] : [],
          }
        : { tag: "terminate", attrs: { "call-id": callId, "call-creator": jid, reason: "timeout" } };
    this.broadcast({
      tag: "call",
      attrs: { from: jid, id: this.nextId(), t: String(Math.floor(Date.now() / 1000)) },
      content: [info],
    });
  }

  /** Ends every session with a stream error of that code (440 conflict is `<conflict/>`). */
  streamError(code: number) {
    this.broadcast(
      code === 440
        ? { tag: "stream:error", attrs: {}, content: [{ tag: "conflict", attrs: {} }] }
        : { tag: "stream:error", attrs: { code: String(code) } },
    );
  }

  private nextId() {
    return `fake-${++this.tag}`;
  }

  private broadcast(node: BinaryNode) {
    for (const c of this.clients) if (c.loggedIn || c.noise?.ready) this.send(c, node);
  }

  private frame(c: Client, data: Uint8Array) {
    const frame = Buffer.alloc(3 + data.length);
    frame.writeUIntBE(data.length, 0, 3);
    frame.set(data, 3);
    c.ws.sendBinary(frame);
  }

  private send(c: Client, node: BinaryNode) {
    this.frame(c, c.noise!.encrypt(encodeBinaryNode(node)));
  }

  private async onData(c: Client, data: Buffer) {
    c.buf = Buffer.concat([c.buf, data]);
    if (!c.gotIntro) {
      if (c.buf.length < 4) return;
      c.noise = new NoiseServer(c.buf.subarray(0, 4));
      c.buf = c.buf.subarray(4);
      c.gotIntro = true;
    }
    while (c.buf.length >= 3) {
      const size = c.buf.readUIntBE(0, 3);
      if (c.buf.length < 3 + size) return;
      const frame = c.buf.subarray(3, 3 + size);
      c.buf = c.buf.subarray(3 + size);
      await this.onFrame(c, frame);
    }
  }

  private async onFrame(c: Client, frame: Buffer) {
    const noise = c.noise!;
    if (!noise.ready) {
      const hs = proto.HandshakeMessage.decode(frame);
      if (hs.clientHello?.ephemeral) {
        this.frame(c, noise.hello(hs.clientHello.ephemeral));
      } else if (hs.clientFinish) {
        const payload = noise.finish(hs.clientFinish.static!, hs.clientFinish.payload!);
        const v = payload.userAgent?.appVersion;
        const version: [number, number, number] = [v?.primary ?? 0, v?.secondary ?? 0, v?.tertiary ?? 0];
        this.versions.push(version.join("."));
        if (this.minVersion && compareVersions(version, this.minVersion) < 0) {
          this.send(c, { tag: "failure", attrs: { reason: "405", location: "fake" } });
          return;
        }
        if (payload.username) {
          c.username = String(payload.username);
          c.loggedIn = true;
          this.logins++;
          this.send(c, { tag: "success", attrs: { t: String(Math.floor(Date.now() / 1000)), lid: `${this.lid}@lid` } });
          setTimeout(() => {
            const backlog = [...this.undelivered.values()];
            for (const node of backlog) this.send(c, { ...node, attrs: { ...node.attrs, offline: "1" } });
            this.send(c, {
              tag: "ib",
              attrs: {},
              content: [{ tag: "offline", attrs: { count: String(backlog.length) } }],
            });
            this.backlogsSent++;
          }, 20);
        } else {
          const refs = Array.from({ length: this.opts.refs ?? 3 }, (_, i) => ({
            tag: "ref",
            attrs: {},
            content: Buffer.from(`ref-${i}-${Date.now()}`),
          }));
          this.send(c, {
            tag: "iq",
            attrs: { from: "s.whatsapp.net", type: "set", id: this.nextId() },
            content: [{ tag: "pair-device", attrs: {}, content: refs }],
          });
        }
      }
      return;
    }
    const node = await decodeBinaryNode(noise.decrypt(frame));
    this.sent.push(node);
    this.waiters = this.waiters.filter((w) => (w.match(node) ? (w.resolve(node), false) : true));
    if (node.tag === "receipt" || (node.tag === "ack" && node.attrs.class === "message")) this.delivered(node);
    if (node.tag === "iq" && (node.attrs.type === "get" || node.attrs.type === "set")) this.answerIq(c, node);
    if (node.tag === "message") {
      this.send(c, {
        tag: "ack",
        attrs: { class: "message", id: node.attrs.id!, from: node.attrs.to!, t: String(Math.floor(Date.now() / 1000)) },
      });
    }
  }

  /** The client receipted (or acked) delivered messages: they are not delivered again. */
  private delivered(node: BinaryNode) {
    const ids = [node.attrs.id!, ...findNodes(node, "item").map((n) => n.attrs.id!)];
    for (const id of ids) {
      if (!this.undelivered.delete(id)) continue;
      this.receipted.add(id);
      this.onReceipted(id);
    }
  }

  private answerIq(c: Client, node: BinaryNode) {
    const child = Array.isArray(node.content) ? node.content[0] : undefined;
    const result = (content?: BinaryNode[]) =>
      this.send(c, {
        tag: "iq",
        attrs: { from: "s.whatsapp.net", type: "result", id: node.attrs.id! },
        ...(content ? { content } : {}),
      });
    if (node.attrs.xmlns === "encrypt" && child?.tag === "count")
      return result([{ tag: "count", attrs: { value: "100" } }]);
    if (node.attrs.xmlns === "encrypt" && child?.tag === "digest") return result([{ tag: "digest", attrs: {} }]);
    if (node.attrs.xmlns === "md" && child?.tag === "remove-companion-device") {
      result();
      setTimeout(() => this.send(c, { tag: "failure", attrs: { reason: "401" } }), 10);
      return;
    }
    if (node.attrs.xmlns === "usync") return result(this.usyncResult(child));
    // App state after a history sync: every collection is answered as empty and complete.
    if (node.attrs.xmlns === "w:sync:app:state") {
      const asked = ((child?.content as BinaryNode[] | undefined) ?? []).filter((n) => n.tag === "collection");
      return result([
        {
          tag: "sync",
          attrs: {},
          content: asked.map((n) => ({
            tag: "collection",
            attrs: { name: n.attrs.name!, version: n.attrs.version ?? "0" },
          })),
        },
      ]);
    }
    if (node.attrs.xmlns === "encrypt" && child?.tag === "key") return result([this.preKeyBundles(child)]);
    result();
  }

  /** A pre-key bundle per requested device, from that contact's fake phone. */
  private preKeyBundles(keyNode: BinaryNode): BinaryNode {
    const users = ((keyNode.content as BinaryNode[] | undefined) ?? []).map((u) =>
      this.peer(this.phoneOf(u.attrs.jid!)).bundle(u.attrs.jid!),
    );
    return { tag: "list", attrs: {}, content: users };
  }

  private usyncResult(usync: BinaryNode | undefined): BinaryNode[] {
    const list = (usync?.content as BinaryNode[] | undefined)?.find((n) => n.tag === "list");
    const users = ((list?.content as BinaryNode[] | undefined) ?? []).map((u): BinaryNode => {
      const contact = (u.content as BinaryNode[] | undefined)?.find((n) => n.tag === "contact");
      const raw = contact?.content ? Buffer.from(contact.content as Uint8Array).toString() : (u.attrs.jid ?? "");
      const digits = raw.replace(/\D/g, "");
      const jid = `${digits}@s.whatsapp.net`;
      const known = this.onWhatsAppNumbers.has(digits);
      this.lidToPhone.set(fakeLid(digits), digits);
      return {
        tag: "user",
        attrs: { jid },
        content: [
          { tag: "contact", attrs: { type: known ? "in" : "out" } },
          { tag: "lid", attrs: { val: `${fakeLid(digits)}@lid` } },
          {
            tag: "devices",
            attrs: {},
            content: [{ tag: "device-list", attrs: {}, content: [{ tag: "device", attrs: { id: "0" } }] }],
          },
        ],
      };
    });
    return [{ tag: "usync", attrs: {}, content: [{ tag: "list", attrs: {}, content: users }] }];
  }
}

function findNodes(node: BinaryNode, tag: string): BinaryNode[] {
  const children = Array.isArray(node.content) ? node.content : [];
  return children.flatMap((c) => (c.tag === tag ? [c] : findNodes(c, tag)));
}

function compareVersions(a: number[], b: number[]) {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}
