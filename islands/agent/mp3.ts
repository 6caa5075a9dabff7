import { Mp3Encoder } from "@breezystack/lamejs";

/** Voice notes are sent as mono mp3 at this bit rate. */
export const MP3_KBPS = 128;
const SAMPLE_RATE = 44_100;
/** LAME encodes in frames of this many samples. */
const FRAME = 1152;

/** Float samples (-1..1) to the 16-bit integers the encoder takes. */
function toInt16(samples: Float32Array): Int16Array {
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) {
    const s = Math.max(-1, Math.min(1, samples[i]!));
    out[i] = s < 0 ? s * 0x8000 : s * 0x7fff;
  }
  return out;
}

/** Every channel mixed into one. */
function mono(audio: AudioBuffer): Float32Array {
  if (audio.numberOfChannels === 1) return audio.getChannelData(0);
  const mixed = new Float32Array(audio.length);
  for (let c = 0; c < audio.numberOfChannels; c++) {
    const data = audio.getChannelData(c);
    for (let i = 0; i < data.length; i++) mixed[i]! += data[i]! / audio.numberOfChannels;
  }
  return mixed;
}

/**
 * Re-encodes a browser recording (whatever MediaRecorder produced) as mono mp3 at 128 kbit/s. An offline audio
 * context decodes and resamples it without touching the speakers (so no autoplay rules apply).
 */
export async function encodeMp3(recording: Blob): Promise<Blob> {
  const context = new OfflineAudioContext(1, 1, SAMPLE_RATE);
  const audio = await context.decodeAudioData(await recording.arrayBuffer());
  const samples = toInt16(mono(audio));
  const encoder = new Mp3Encoder(1, audio.sampleRate, MP3_KBPS);
  const parts: Uint8Array[] = [];
  for (let i = 0; i < samples.length; i += FRAME) {
    const chunk = encoder.encodeBuffer(samples.subarray(i, i + FRAME));
    if (chunk.length) parts.push(chunk);
  }
  const tail = encoder.flush();
  if (tail.length) parts.push(tail);
  return new Blob(parts as BlobPart[], { type: "audio/mpeg" });
}
