import { useEffect, useRef } from "react";
import { Icon } from "../lib/icons";
import { useT } from "../lib/i18n-context";

/** An image or video shown large over the chat. */
export interface Enlarged {
  src: string;
  kind: "image" | "video";
  alt: string;
}

/** The enlarged media in a modal `<dialog>`: Escape, the close button or a click anywhere outside a video closes it. */
export function Lightbox({ media, onClose }: { media: Enlarged; onClose: () => void }) {
  const t = useT();
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (el && !el.open) el.showModal();
  }, []);
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: Escape closes the dialog natively (its cancel event)
    <dialog
      ref={ref}
      className="lightbox"
      aria-label={media.alt}
      onCancel={(e) => (e.preventDefault(), onClose())}
      onClick={(e) => {
        // A click on the video is for its controls; anywhere else closes.
        if (!(e.target instanceof HTMLVideoElement)) onClose();
      }}
    >
      <button type="button" className="lightbox-close" aria-label={t("chat.media.close")}>
        <Icon name="close" size={24} />
      </button>
      {media.kind === "image" ? (
        <img className="lightbox-media" src={media.src} alt={media.alt} />
      ) : (
        // biome-ignore lint/a11y/useMediaCaption: WhatsApp media comes without captions to offer
        <video className="lightbox-media" src={media.src} controls autoPlay />
      )}
    </dialog>
  );
}
