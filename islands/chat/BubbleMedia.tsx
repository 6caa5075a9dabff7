import type { TFunction } from "i18next";
import type { Message } from "../../src/shared/contracts";
import { Icon } from "../lib/icons";
import { useMounted } from "../lib/mounted";
import type { Enlarged } from "./Lightbox";

/**
 * A message's file: images, stickers and videos inline (a fixed-size box stands in until the chat runs, and
 * images and videos enlarge on click), audio as a player, anything else as a download link.
 */
export function Media({ m, t, onEnlarge }: { m: Message; t: TFunction; onEnlarge?: (media: Enlarged) => void }) {
  // A signed link (see http/media-links.ts): elements load it themselves, no header and no token in the URL.
  // The server-rendered page shows the placeholder: files load once the chat runs, so it can keep its place
  // as they grow the list.
  const src = useMounted() ? m.mediaUrl : null;
  const alt = (m.body && m.mediaType === "image" ? m.body : "") || t(`chat.media.${m.mediaType}`);
  if (!src && (m.mediaType === "image" || m.mediaType === "video" || m.mediaType === "sticker"))
    return <span className={`media-loading media-box ${m.mediaType}`}>{t(`chat.media.${m.mediaType}`)}</span>;
  switch (m.mediaType) {
    case "image":
      return (
        <button
          type="button"
          className="media-open"
          aria-label={t("chat.media.enlarge")}
          onClick={() => onEnlarge?.({ src: src!, kind: "image", alt })}
        >
          <img className="media-image" src={src!} alt={alt} />
        </button>
      );
    case "sticker":
      return <img className="media-sticker" src={src!} alt={alt} width={160} height={160} />;
    case "audio":
      return src ? (
        // biome-ignore lint/a11y/useMediaCaption: WhatsApp media comes without captions to offer
        <audio className="media-audio" controls src={src} />
      ) : (
        <span className="media-loading">{t("chat.media.audio")}</span>
      );
    case "video":
      return (
        <span className="media-video-box">
          {/* biome-ignore lint/a11y/useMediaCaption: WhatsApp media comes without captions to offer */}
          <video className="media-video" controls src={src!} />
          <button
            type="button"
            className="media-enlarge icon-button"
            aria-label={t("chat.media.enlarge")}
            onClick={() => onEnlarge?.({ src: src!, kind: "video", alt })}
          >
            <Icon name="fullscreen" size={18} />
          </button>
        </span>
      );
    default:
      return (
        <a
          className="media-file"
          href={src ?? undefined}
          download={m.fileName ?? m.body ?? "file"}
          aria-disabled={!src}
        >
          <Icon name="file" size={20} />
          <span>{m.fileName || m.body || t("chat.media.document")}</span>
          <span className="media-download">{t("chat.media.download")}</span>
        </a>
      );
  }
}

/** Inbound media without its file: still downloading (a spinner), or unavailable for good. */
export function MediaState({ m, t }: { m: Message; t: TFunction }) {
  const name = m.mediaType === "document" && m.fileName ? <span className="media-name">{m.fileName}</span> : null;
  if (m.mediaState === "downloading") {
    return (
      <span className="media-state" role="status">
        <span className="spinner" aria-hidden="true" /> {t("chat.media.downloading")} {name}
      </span>
    );
  }
  return (
    <span className="media-state unavailable">
      <Icon name="block" size={16} /> {t("chat.media.unavailable")} {name}
    </span>
  );
}
