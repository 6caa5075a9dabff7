import type { TFunction } from "i18next";
import type { Message } from "../../src/shared/contracts";
import { Icon } from "../lib/icons";
import type { Enlarged } from "./Lightbox";
import { hasExpired, useMediaLink } from "./media-link";

/**
 * A message's file: images, stickers and videos inline (a fixed-size box stands in until the chat runs, and
 * images and videos enlarge on click), audio as a player, anything else as a download link.
 */
export function Media({ m, t, onEnlarge }: { m: Message; t: TFunction; onEnlarge?: (media: Enlarged) => void }) {
  // A signed link: elements load it themselves, with no header and no token in the URL.
  const { src, renew } = useMediaLink(m);
  const onError = () => void renew();
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
          <img className="media-image" src={src!} alt={alt} onError={onError} />
        </button>
      );
    case "sticker":
      return <img className="media-sticker" src={src!} alt={alt} width={160} height={160} onError={onError} />;
    case "audio":
      return src ? (
        // biome-ignore lint/a11y/useMediaCaption: WhatsApp media comes without captions to offer
        <audio className="media-audio" controls src={src} onError={onError} />
      ) : (
        <span className="media-loading">{t("chat.media.audio")}</span>
      );
    case "video":
      return (
        <span className="media-video-box">
          {/* biome-ignore lint/a11y/useMediaCaption: WhatsApp media comes without captions to offer */}
          <video className="media-video" controls src={src!} onError={onError} />
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
          onClick={(event) => {
            if (!src || !hasExpired(src)) return;
            // Clicked after its link expired: download under a fresh one.
            event.preventDefault();
            const name = event.currentTarget.download;
            void renew().then((url) => {
              if (!url) return;
              const link = document.createElement("a");
              link.href = url;
              link.download = name;
              link.click();
            });
          }}
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
