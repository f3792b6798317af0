/**
 * The demo's identity verification: the demo client is Verified (an approved case with its documents) and the
 * second demo client has a case waiting in the desk's review queue, so the queue can be tried right after
 * `npm run dev`. The documents are samples made in code (scripts/lib/sample-documents.ts), written to the local
 * R2 bucket under random keys as an upload stores them. A database seeded before verification existed gets the
 * cases it lacks; a client who already has a case keeps it.
 */
import { randomUUID } from "node:crypto";
import type { DocumentKind, IdentityDocumentType } from "../db/enums.ts";
import { DEMO_ADMIN, DEMO_CLIENT, DEMO_SECOND_CLIENT } from "./lib/demo-people.ts";
import { type D1Target, executeStatements, putLocalObject, query, sqlValue } from "./lib/local-d1.ts";
import {
  type SampleDocument,
  sampleIdentityCard,
  sampleIdentityCardBack,
  sampleUtilityBill,
} from "./lib/sample-documents.ts";

const BUCKET = "brokerage-documents";
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

interface DemoCase {
  userId: string;
  email: string;
  status: "approved" | "submitted";
  legalFirstName: string;
  legalLastName: string;
  dateOfBirth: string;
  address: string;
  documentType: IdentityDocumentType;
  documentNumber: string;
  submittedAgoMs: number;
  documents: Array<[DocumentKind, SampleDocument]>;
}

/** A document as stored: under a random key, never the file's name or the client's address. */
interface StoredSample {
  kind: DocumentKind;
  document: SampleDocument;
  objectKey: string;
}

function demoCases(now: number): DemoCase[] {
  const issued = new Date(now - 20 * DAY).toISOString().slice(0, 10);
  const clientAddress = "1 Example Street, Springfield, IL 62701";
  const secondAddress = "42 Sample Avenue, Portland, OR 97201";
  return [
    {
      userId: DEMO_CLIENT.id,
      email: DEMO_CLIENT.email,
      status: "approved",
      legalFirstName: DEMO_CLIENT.firstName,
      legalLastName: DEMO_CLIENT.lastName,
      dateOfBirth: "1988-04-12",
      address: clientAddress,
      documentType: "passport",
      documentNumber: "X1234567",
      submittedAgoMs: 50 * DAY,
      documents: [
        ["identity_front", sampleIdentityCard("passport.png")],
        [
          "proof_of_address",
          sampleUtilityBill(`${DEMO_CLIENT.firstName} ${DEMO_CLIENT.lastName}`, clientAddress, issued),
        ],
      ],
    },
    {
      userId: DEMO_SECOND_CLIENT.id,
      email: DEMO_SECOND_CLIENT.email,
      status: "submitted",
      legalFirstName: DEMO_SECOND_CLIENT.firstName,
      legalLastName: DEMO_SECOND_CLIENT.lastName,
      dateOfBirth: "1994-09-30",
      address: secondAddress,
      documentType: "driving_licence",
      documentNumber: "D7654321",
      submittedAgoMs: 2 * HOUR,
      documents: [
        ["identity_front", sampleIdentityCard("licence-front.png")],
        ["identity_back", sampleIdentityCardBack("licence-back.png")],
        [
          "proof_of_address",
          sampleUtilityBill(`${DEMO_SECOND_CLIENT.firstName} ${DEMO_SECOND_CLIENT.lastName}`, secondAddress, issued),
        ],
      ],
    },
  ];
}

function caseStatements(demo: DemoCase, stored: StoredSample[], now: number): string[] {
  const submittedAt = now - demo.submittedAgoMs;
  const approved = demo.status === "approved";
  const statements = [
    `INSERT INTO verification_cases (user_id, status, legal_first_name, legal_last_name, date_of_birth, country,
       address, document_type, document_number, submitted_at, reviewed_by, reviewed_at, created_at, updated_at)
     VALUES (${[
       demo.userId,
       demo.status,
       demo.legalFirstName,
       demo.legalLastName,
       demo.dateOfBirth,
       "United States",
       demo.address,
       demo.documentType,
       demo.documentNumber,
       submittedAt,
       approved ? DEMO_ADMIN.id : null,
       approved ? submittedAt + DAY : null,
       submittedAt - HOUR,
       approved ? submittedAt + DAY : submittedAt,
     ]
       .map(sqlValue)
       .join(", ")})`,
  ];
  for (const { kind, document, objectKey } of stored) {
    statements.push(
      `INSERT INTO verification_documents (id, case_id, user_id, kind, object_key, file_name, content_type, size_bytes,
         sha256, uploaded_at)
       SELECT ${sqlValue(randomUUID())}, id, ${[
         demo.userId,
         kind,
         objectKey,
         document.fileName,
         document.contentType,
         document.bytes.length,
         document.sha256,
         submittedAt - HOUR,
       ]
         .map(sqlValue)
         .join(", ")} FROM verification_cases WHERE user_id = ${sqlValue(demo.userId)} AND ended_at IS NULL`,
    );
  }
  return statements;
}

/** Adds the demo cases (and their documents) that the database lacks: for demo clients who have no case at all. */
export function seedDemoVerification(target: D1Target = {}, now = Date.now()): string[] {
  const ids = [DEMO_CLIENT.id, DEMO_SECOND_CLIENT.id].map(sqlValue).join(", ");
  const waiting = new Set(
    query<{ id: string }>(
      `SELECT u.id FROM users u WHERE u.id IN (${ids}) AND u.role = 'user'
         AND NOT EXISTS (SELECT 1 FROM verification_cases c WHERE c.user_id = u.id)`,
      target,
    ).map((row) => row.id),
  );
  const added = demoCases(now).filter((demo) => waiting.has(demo.userId));
  if (added.length === 0) return [];
  const statements: string[] = [];
  for (const demo of added) {
    const stored = demo.documents.map(([kind, document]) => ({
      kind,
      document,
      objectKey: `documents/${randomUUID()}`,
    }));
    // Objects first: a row never points at a missing file (a file without a row is only unused space).
    for (const { document, objectKey } of stored) {
      putLocalObject(BUCKET, objectKey, document.bytes, document.contentType, target);
    }
    statements.push(...caseStatements(demo, stored, now));
  }
  executeStatements(statements, target);
  return added.map((demo) => demo.email);
}
