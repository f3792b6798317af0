import { formatDateTimeUtc } from "~/lib/format";
import { DOCUMENT_KIND_LABELS } from "~/lib/verification";
import type { DocumentContentType, DocumentKind } from "../../../db/enums";

interface ReviewDocument<Kind extends string> {
  id: string;
  kind: Kind;
  fileName: string;
  contentType: DocumentContentType;
  sizeBytes: number;
  sha256: string;
  uploadedAt: number;
}

const sizeText = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;

/**
 * The case's current files beside the declared data: an image inline (its own address, admin only, each view
 * audited), a PDF as a download (a crafted PDF must not run in our origin, so the browser never renders it here).
 */
export function VerificationDocuments<Kind extends string = DocumentKind>({
  documents,
  title = "Documents",
  labels = DOCUMENT_KIND_LABELS as Record<Kind, string>,
  hrefOf = (id) => `/admin/documents/${id}`,
}: {
  documents: ReviewDocument<Kind>[];
  title?: string;
  labels?: Record<Kind, string>;
  /** Each file's own address (admin only, each view audited). */
  hrefOf?: (id: string) => string;
}) {
  return (
    <article className="rounded-xl border border-border bg-surface p-5">
      <h2 className="text-lg font-semibold">{title}</h2>
      {documents.length === 0 ? (
        <p className="mt-2 text-sm text-ink-muted">No documents uploaded.</p>
      ) : (
        <ul className="mt-3 grid items-start gap-4 md:grid-cols-2">
          {documents.map((document) => {
            const label = labels[document.kind];
            const href = hrefOf(document.id);
            return (
              <li key={document.id} className="space-y-2 rounded-lg border border-border p-3">
                <h3 className="font-medium">{label}</h3>
                {document.contentType === "application/pdf" ? (
                  <a
                    href={href}
                    download
                    className="inline-block rounded-md border border-border px-3 py-2 text-sm font-medium hover:bg-surface-raised"
                  >
                    {`Download ${label} (PDF)`}
                  </a>
                ) : (
                  <a href={href} target="_blank" rel="noreferrer" className="block">
                    <img
                      src={href}
                      alt={`${label} as uploaded by the client`}
                      className="max-h-96 w-full rounded-md bg-canvas object-contain"
                    />
                    <span className="sr-only">Open the full image</span>
                  </a>
                )}
                <p className="text-xs break-all text-ink-muted">
                  {`${document.fileName} · ${sizeText(document.sizeBytes)} · uploaded ${formatDateTimeUtc(document.uploadedAt)}`}
                </p>
                <p className="font-mono text-xs break-all text-ink-muted">{`SHA-256 ${document.sha256}`}</p>
              </li>
            );
          })}
        </ul>
      )}
    </article>
  );
}
