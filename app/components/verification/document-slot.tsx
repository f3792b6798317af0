import { useEffect, useRef, useState } from "react";
import { useRevalidator } from "react-router";
import { useFieldError } from "~/components/form";
import { formatDateTimeUtc } from "~/lib/format";
import { MAX_DOCUMENT_BYTES, VERIFICATION_MESSAGES } from "~/lib/verification";

export interface SlotFile {
  fileName: string;
  sizeBytes: number;
  uploadedAt: number;
}

const UPLOAD_FAILED = "The upload failed: check your connection and try again.";

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

type Upload = { state: "idle" } | { state: "sending"; fraction: number } | { state: "failed"; error: string };

/**
 * One file of an upload (an identity document, an access-recovery photo): what is stored, and (while it may change)
 * a file input that sends the chosen file at once to `action`, with a progress bar; the server checks it and
 * answers. Without JavaScript the slot's own form posts it.
 */
export function DocumentSlot({
  kind,
  label,
  hint,
  action,
  file,
  editable,
}: {
  /** The slot's name in ids and test ids. */
  kind: string;
  label: string;
  hint: string;
  action: string;
  file: SlotFile | null;
  editable: boolean;
}) {
  const [upload, setUpload] = useState<Upload>({ state: "idle" });
  const [hydrated, setHydrated] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const { revalidate } = useRevalidator();
  const refusal = useFieldError(`document-${kind}`, upload.state === "failed" ? upload.error : undefined, true);
  useEffect(() => setHydrated(true), []);

  // A refused file is not kept in the input: what it shows is what is stored.
  function fail(error: string) {
    setUpload({ state: "failed", error });
    if (input.current) input.current.value = "";
  }

  function send(chosen: File) {
    if (chosen.size > MAX_DOCUMENT_BYTES) {
      fail(VERIFICATION_MESSAGES.fileTooLarge);
      return;
    }
    const request = new XMLHttpRequest();
    request.open("POST", `${action}?name=${encodeURIComponent(chosen.name)}`);
    // The server decides the type from the bytes; what the browser would claim is not sent.
    request.setRequestHeader("Content-Type", "application/octet-stream");
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) setUpload({ state: "sending", fraction: event.loaded / event.total });
    };
    request.onload = () => {
      if (request.status === 200) {
        setUpload({ state: "idle" });
        if (input.current) input.current.value = "";
        revalidate();
        return;
      }
      let error = UPLOAD_FAILED;
      try {
        error = (JSON.parse(request.responseText) as { error?: string }).error ?? error;
      } catch {}
      fail(error);
    };
    request.onerror = () => fail(UPLOAD_FAILED);
    setUpload({ state: "sending", fraction: 0 });
    request.send(chosen);
  }

  const percent = upload.state === "sending" ? Math.round(upload.fraction * 100) : 0;
  return (
    <form
      method="post"
      action={action}
      encType="multipart/form-data"
      className="rounded-lg border border-border p-4"
      data-testid={`slot-${kind}`}
      onSubmit={(event) => {
        event.preventDefault();
        const chosen = input.current?.files?.[0];
        if (chosen) send(chosen);
      }}
    >
      <p className="font-medium">{label}</p>
      <p className="mt-1 text-sm" data-testid={`slot-${kind}-file`}>
        {file ? (
          <>
            <span className="break-all font-medium">{file.fileName}</span>{" "}
            <span className="text-ink-muted">
              ({formatBytes(file.sizeBytes)}, {formatDateTimeUtc(file.uploadedAt)})
            </span>
          </>
        ) : (
          <span className="text-ink-muted">No file yet</span>
        )}
      </p>
      {editable ? (
        <div className="mt-3">
          <label htmlFor={refusal.id} className="block text-sm font-medium text-ink">
            {file ? `Replace ${label.toLowerCase()}` : `Choose ${label.toLowerCase()}`}
          </label>
          <input
            ref={input}
            id={refusal.id}
            type="file"
            name="file"
            accept="image/jpeg,image/png,application/pdf,.jpg,.jpeg,.png,.pdf"
            disabled={upload.state === "sending"}
            {...refusal.controlProps}
            onChange={(event) => {
              const chosen = event.currentTarget.files?.[0];
              if (chosen) send(chosen);
            }}
            className="mt-1 block w-full text-sm text-ink file:mr-3 file:rounded-md file:border file:border-border file:bg-canvas file:px-3 file:py-2 file:text-ink focus:outline-none focus-visible:ring-2 focus-visible:ring-brand/60"
          />
          <p id={refusal.hintId} className="mt-1 text-xs text-ink-muted">
            {hint}
          </p>
          {upload.state === "sending" ? (
            <div className="mt-2" role="status">
              <progress
                className="h-2 w-full"
                max={100}
                value={percent}
                aria-label={`Uploading ${label.toLowerCase()}`}
              />
              <p className="text-xs text-ink-muted">Uploading... {percent}%</p>
            </div>
          ) : null}
          {refusal.errorText}
          {hydrated ? null : (
            <button type="submit" className="mt-2 rounded-md border border-border px-3 py-1.5 text-sm font-medium">
              Upload
            </button>
          )}
        </div>
      ) : null}
    </form>
  );
}
