import { useEffect, useState } from "react";
import { useT } from "../lib/i18n-context";
import { Icon } from "../lib/icons";

/** A file's size as people read it: 820 B, 14 KB, 3.2 MB. */
export function fileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * The files pasted or dropped onto the chat before they go: a thumbnail for each image, name and size for the
 * rest, a caption, Send and Cancel. Enter in the caption sends, Esc cancels.
 */
export function AttachmentPreview({
  files,
  sending,
  onSend,
  onCancel,
}: {
  files: File[];
  sending: boolean;
  onSend: (caption: string) => void;
  onCancel: () => void;
}) {
  const t = useT();
  const [caption, setCaption] = useState("");
  const send = () => {
    if (!sending) onSend(caption);
  };

  return (
    <section className="attachment-preview" aria-label={t("chat.staged.title")}>
      <ul>
        {files.map((file, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the list is fixed while the preview is open
          <li key={i}>
            {file.type.startsWith("image/") ? (
              <Thumbnail file={file} />
            ) : (
              <span className="file-icon">
                <Icon name="file" />
              </span>
            )}
            <span className="file-name">{file.name}</span>
            <span className="file-size">{fileSize(file.size)}</span>
          </li>
        ))}
      </ul>
      <div className="attachment-caption">
        <input
          // biome-ignore lint/a11y/noAutofocus: the caption is the next thing to type once files are pasted
          autoFocus
          aria-label={t("chat.staged.caption")}
          placeholder={t("chat.staged.caption")}
          value={caption}
          maxLength={4096}
          onChange={(e) => setCaption(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && !e.nativeEvent.isComposing) {
              e.preventDefault();
              send();
            } else if (e.key === "Escape") {
              e.preventDefault();
              onCancel();
            }
          }}
        />
        <button type="button" className="button" onClick={onCancel}>
          {t("chat.staged.cancel")}
        </button>
        <button type="button" className="button primary" disabled={sending} onClick={send}>
          {t("chat.staged.send")}
        </button>
      </div>
    </section>
  );
}

/** An image file's thumbnail, from an object URL released when it goes. */
function Thumbnail({ file }: { file: File }) {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    const made = URL.createObjectURL(file);
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [file]);
  return url ? <img className="thumbnail" src={url} alt={file.name} /> : <span className="thumbnail" />;
}
