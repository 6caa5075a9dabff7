import type {
  ChannelDriver,
  ChannelSink,
  ConnectionRef,
  DeleteRef,
  OutgoingMedia,
  OwnPresence,
  ReactionTarget,
  SendOptions,
  ReadRef,
} from "../types";
import type { BaileysDriver, BaileysDriverOptions } from "./driver";

/**
 * The Baileys driver, loaded the first time a connection needs it. Baileys with its Signal and protobuf code
 * holds about 40 MiB once loaded; a server that only uses the sandbox, or has no connection yet, never pays it.
 * Until then nothing runs: no session to stop, no socket to send on.
 */
export class LazyBaileysDriver implements ChannelDriver {
  readonly kind = "baileys" as const;
  private driver?: BaileysDriver;
  private loading?: Promise<BaileysDriver>;

  constructor(private readonly opts: BaileysDriverOptions) {}

  /** Whether Baileys has been loaded in this process. */
  get loaded(): boolean {
    return !!this.driver;
  }

  async start(connection: ConnectionRef, sink: ChannelSink): Promise<void> {
    await (await this.load()).start(connection, sink);
  }

  async stop(connectionId: number): Promise<void> {
    await this.driver?.stop(connectionId);
  }

  /** Wiping the credentials of a connection that never started this time still needs the driver. */
  async logout(connectionId: number): Promise<void> {
    await (await this.load()).logout(connectionId);
  }

  isRunning(connectionId: number): boolean {
    return this.driver?.isRunning(connectionId) ?? false;
  }

  newMessageId(connectionId: number): string {
    return this.driver?.newMessageId(connectionId) ?? messageIdWithoutSession();
  }

  sendText(connectionId: number, to: string, isGroup: boolean, body: string, options: SendOptions) {
    return this.started().sendText(connectionId, to, isGroup, body, options);
  }

  sendMedia(connectionId: number, to: string, isGroup: boolean, media: OutgoingMedia, options: SendOptions) {
    return this.started().sendMedia(connectionId, to, isGroup, media, options);
  }

  markRead(connectionId: number, chatId: string, isGroup: boolean, messages: ReadRef[]) {
    return this.started().markRead(connectionId, chatId, isGroup, messages);
  }

  deleteForEveryone(connectionId: number, ref: DeleteRef) {
    return this.started().deleteForEveryone(connectionId, ref);
  }

  checkNumber(connectionId: number, phone: string) {
    return this.started().checkNumber(connectionId, phone);
  }

  profilePictureUrl(connectionId: number, chatId: string, isGroup: boolean) {
    return this.started().profilePictureUrl(connectionId, chatId, isGroup);
  }

  rejectCall(connectionId: number, callId: string, from: string) {
    return this.started().rejectCall(connectionId, callId, from);
  }

  sendPresence(connectionId: number, chatId: string, isGroup: boolean, state: OwnPresence) {
    return this.started().sendPresence(connectionId, chatId, isGroup, state);
  }

  subscribePresence(connectionId: number, chatId: string, isGroup: boolean) {
    return this.started().subscribePresence(connectionId, chatId, isGroup);
  }

  sendReaction(connectionId: number, chatId: string, isGroup: boolean, target: ReactionTarget, emoji: string) {
    return this.started().sendReaction(connectionId, chatId, isGroup, target, emoji);
  }

  requestPairingCode(connectionId: number, phone: string) {
    return this.started().requestPairingCode(connectionId, phone);
  }

  private load(): Promise<BaileysDriver> {
    this.loading ??= import("./driver").then(({ BaileysDriver }) => {
      this.driver = new BaileysDriver(this.opts);
      return this.driver;
    });
    return this.loading;
  }

  /** The manager only calls these on a running connection, which means the driver is loaded. */
  private started(): BaileysDriver {
    if (!this.driver) throw new Error("baileys is not running");
    return this.driver;
  }
}

/**
 * A message id in the form Baileys gives one when no account is logged in: "3EB0" and 18 hex digits of a hash
 * of the time and 16 random bytes.
 */
export function messageIdWithoutSession(): string {
  const data = Buffer.alloc(8 + 20 + 16);
  data.writeBigUInt64BE(BigInt(Math.floor(Date.now() / 1000)));
  crypto.getRandomValues(data.subarray(28));
  return `3EB0${new Bun.CryptoHasher("sha256").update(data).digest("hex").toUpperCase().substring(0, 18)}`;
}
