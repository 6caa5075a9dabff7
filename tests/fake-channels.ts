import type {
  Channels,
  DeleteRef,
  OutgoingMedia,
  OwnPresence,
  ReactionTarget,
  SendOptions,
  ReadRef,
} from "../src/channels/types";
import { AppError } from "../src/errors";

export interface FakeChannelsOptions {
  /** What `isRunning` answers for every connection (default false). */
  running?: boolean;
  /** Every `start` rejects after it was recorded. */
  failStart?: boolean;
  /** Typed digits → WhatsApp's canonical digits; a number not listed is not on WhatsApp. */
  known?: Record<string, string>;
  /** Every `checkNumber` throws ERR_WAPP_CHECK_CONTACT, as when the check itself fails. */
  failCheck?: boolean;
}

/**
 * A `Channels` that reaches no network: it records each call as `method:connectionId` in `calls` (number checks
 * also in `checks`) and answers from its options. It implements the whole interface, so a change to `Channels`
 * that it does not follow fails the type check.
 */
export class FakeChannels implements Channels {
  readonly calls: string[] = [];
  readonly checks: { connectionId: number; phone: string }[] = [];
  private startWaiters: (() => void)[] = [];
  private nextId = 0;

  constructor(private readonly opts: FakeChannelsOptions = {}) {}

  /** Resolves once a session start was asked for (routes may start one without waiting for it). */
  started(): Promise<void> {
    if (this.calls.some((c) => c.startsWith("start:"))) return Promise.resolve();
    return new Promise((resolve) => this.startWaiters.push(resolve));
  }

  async start(connectionId: number) {
    this.calls.push(`start:${connectionId}`);
    for (const resolve of this.startWaiters.splice(0)) resolve();
    if (this.opts.failStart) throw new Error("boom");
  }
  async restart(connectionId: number) {
    await this.start(connectionId);
  }
  async stop(connectionId: number) {
    this.calls.push(`stop:${connectionId}`);
  }
  async disconnect(connectionId: number) {
    this.calls.push(`disconnect:${connectionId}`);
  }
  async newQr(connectionId: number) {
    this.calls.push(`newQr:${connectionId}`);
  }
  async restartAll() {
    this.calls.push("restartAll");
  }
  async stopAll() {
    this.calls.push("stopAll");
  }
  async isRunning(_connectionId: number) {
    return this.opts.running ?? false;
  }
  async templates(_connectionId: number) {
    return [];
  }
  async sendTemplate(connectionId: number) {
    this.calls.push(`sendTemplate:${connectionId}`);
  }
  /** Every connection is a sandbox one. */
  async providerOf(_connectionId: number) {
    return "sandbox" as const;
  }
  async newMessageId(connectionId: number) {
    return `FAKE-${connectionId}-${++this.nextId}`;
  }
  async sendText(connectionId: number, _to: string, _isGroup: boolean, _body: string, _options: SendOptions) {
    this.calls.push(`sendText:${connectionId}`);
  }
  async sendMedia(connectionId: number, _to: string, _isGroup: boolean, _media: OutgoingMedia, _options: SendOptions) {
    this.calls.push(`sendMedia:${connectionId}`);
  }
  async markRead(connectionId: number, _chatId: string, _isGroup: boolean, _messages: ReadRef[]) {
    this.calls.push(`markRead:${connectionId}`);
  }
  async deleteForEveryone(connectionId: number, _ref: DeleteRef) {
    this.calls.push(`deleteForEveryone:${connectionId}`);
  }
  async sendPresence(connectionId: number, _chatId: string, _isGroup: boolean, _state: OwnPresence) {
    this.calls.push(`sendPresence:${connectionId}`);
  }
  async subscribePresence(connectionId: number, _chatId: string, _isGroup: boolean) {
    this.calls.push(`subscribePresence:${connectionId}`);
  }
  async sendReaction(
    connectionId: number,
    _chatId: string,
    _isGroup: boolean,
    _target: ReactionTarget,
    _emoji: string,
  ) {
    this.calls.push(`sendReaction:${connectionId}`);
  }
  async checkNumber(connectionId: number, phone: string) {
    this.calls.push(`checkNumber:${connectionId}`);
    this.checks.push({ connectionId, phone });
    if (this.opts.failCheck) throw new AppError("ERR_WAPP_CHECK_CONTACT", 400);
    return this.opts.known?.[phone] ?? null;
  }
  async profilePictureUrl(_connectionId: number, _chatId: string, _isGroup: boolean) {
    return null;
  }
  async rejectCall(connectionId: number, _callId: string, _from: string) {
    this.calls.push(`rejectCall:${connectionId}`);
  }
}
