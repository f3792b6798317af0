/**
 * Every act runs through the acts runner (app/server/acts.server.ts), read off the source as a reviewer would:
 * every form intent of every back-office route is a handler the runner made (`act(...)`), naming a row of the acts
 * table; every other route with an action says which client act it runs or why it runs none; only the runner asks
 * for a fresh code; and every trigger a row names exists in db/guards.sql. Run with `npm run test:scripts`.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import ts from "typescript";
import { ACTS, type ActName, type ActRow, decisionActs } from "../../app/lib/acts.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const ROUTES = join(ROOT, "app", "routes");
const ACT_NAMES = new Set(Object.keys(ACTS));

/**
 * The routes with an action that are not the back office's, each with the client act it runs through the runner
 * (checked below) or the reason it runs none. A new route with an action must be added here or ask a back-office
 * permission, whose every intent is then checked.
 */
const OTHER_ACTIONS: Record<string, { acts: ActName[] } | { none: string }> = {
  "withdraw.tsx": { acts: ["withdrawal"] },
  "deposit.tsx": { acts: ["depositRequest"] },
  "stocks.$symbol_.deposit.tsx": { acts: ["depositRequest"] },
  "stocks.$symbol.tsx": { acts: ["order", "orderCancel"] },
  "requests.$id.cancel.ts": { acts: ["requestCancel"] },
  "dev.chain-watcher.ts": { none: "development on loopback only: one run of the deposit watcher now" },
  "cancel-request.tsx": { none: "the mail's signed cancel link: its token, not a session, names the owner" },
  "account.passkeys.tsx": { none: "the signed-in person's own passkeys" },
  "account.providers.tsx": { none: "the signed-in person's own sign-in providers" },
  "account.sessions.tsx": { none: "the signed-in person's own sessions" },
  "account.tsx": { none: "the signed-in person's own profile, password and mail preferences" },
  "account_.link.tsx": { none: "linking a provider to the signed-in person's account" },
  "account_.two-factor.tsx": { none: "the signed-in person's own second factors" },
  "account_.verification.tsx": { none: "the client's own identity documents" },
  "account.confirmation.ts": { none: "confirming the signed-in person's e-mail address" },
  "account_.verification.documents.$kind.ts": { none: "the client's own identity documents" },
  "auth.$provider.tsx": { none: "starting a provider's sign-in" },
  "forgot-password.tsx": { none: "a visitor asks for a reset link" },
  "login.tsx": { none: "signing in" },
  "login_.recovery.tsx": { none: "a signed-out person's access-recovery request" },
  "login_.recovery_.cancel.tsx": { none: "cancelling one's own access-recovery request by its link" },
  "login_.recovery_.files.$kind.ts": { none: "the photos of one's own access-recovery request" },
  "login_.two-factor.tsx": { none: "signing in: the second step" },
  "logout.tsx": { none: "signing out" },
  "notifications.tsx": { none: "the signed-in person's own notifications" },
  "register.tsx": { none: "registering" },
  "register_.complete.tsx": { none: "completing one's own profile" },
  "reset-password.tsx": { none: "a visitor sets a password with a reset link" },
  "team.invite.tsx": { none: "an invited admin accepts an invitation" },
  "dashboard.two-factor-suggestion.ts": { none: "dismissing a suggestion on one's own dashboard" },
  "passkeys.sign-in.ts": { none: "signing in with a passkey" },
  "passkeys.verify.ts": { none: "a passkey's proof for the session's own step-up" },
  "session.keepalive.ts": { none: "keeping one's own session alive" },
  "theme.ts": { none: "the visitor's own choice of light or dark" },
};

interface RouteAction {
  file: string;
  source: ts.SourceFile;
  action: ts.Node;
}

function routeActions(): RouteAction[] {
  return readdirSync(ROUTES)
    .filter((file) => /\.tsx?$/.test(file))
    .flatMap((file) => {
      const text = readFileSync(join(ROUTES, file), "utf8");
      const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
      const action = source.statements.find(
        (statement) =>
          (ts.isFunctionDeclaration(statement) && statement.name?.text === "action") ||
          (ts.isVariableStatement(statement) &&
            statement.declarationList.declarations.some((d) => ts.isIdentifier(d.name) && d.name.text === "action")),
      );
      return action ? [{ file, source, action }] : [];
    });
}

function calls(node: ts.Node, name: string): ts.CallExpression[] {
  const found: ts.CallExpression[] = [];
  const visit = (child: ts.Node) => {
    if (ts.isCallExpression(child) && ts.isIdentifier(child.expression) && child.expression.text === name)
      found.push(child);
    ts.forEachChild(child, visit);
  };
  visit(node);
  return found;
}

/** Follows an identifier to the `const` it names in the same function, so `act(name, steps)` behind a helper counts. */
function resolve(node: ts.Expression, scope: ts.Node): ts.Expression {
  if (!ts.isIdentifier(node)) return node;
  let found: ts.Expression | undefined;
  const visit = (child: ts.Node) => {
    if (ts.isVariableDeclaration(child) && ts.isIdentifier(child.name) && child.name.text === node.text)
      found = child.initializer;
    ts.forEachChild(child, visit);
  };
  visit(scope);
  return found ?? node;
}

/** The `act(...)` call an intent's handler is: directly, or the body of a helper arrow such as `decide("x")`. */
function actCallOf(handler: ts.Expression, scope: ts.Node): ts.CallExpression | null {
  const expression = resolve(handler, scope);
  if (!ts.isCallExpression(expression) || !ts.isIdentifier(expression.expression)) return null;
  if (expression.expression.text === "act") return expression;
  const helper = resolve(expression.expression, scope);
  if (!ts.isArrowFunction(helper)) return null;
  const body = ts.isBlock(helper.body) ? null : helper.body;
  return body && ts.isCallExpression(body) && ts.isIdentifier(body.expression) && body.expression.text === "act"
    ? body
    : null;
}

/**
 * The act names an `act(...)` call can run: its literal, the literals a helper passes it, or, for an act its row
 * names (`decisionActs`), the acts deciding a request of either kind.
 */
function actNamesOf(call: ts.CallExpression, handler: ts.Expression, source: ts.SourceFile): string[] {
  const first = call.arguments[0];
  if (first && ts.isStringLiteral(first)) return [first.text];
  if (first && ts.isArrowFunction(first) && calls(first, "decisionActs").length > 0)
    return ["withdraw", "deposit"].flatMap((type) => Object.values(decisionActs(type)));
  const literals = [...handler.getText(source).matchAll(/"([A-Za-z]+)"/g)].map((match) => match[1] ?? "");
  return literals.filter((name) => ACT_NAMES.has(name));
}

describe("the acts table and its runner", () => {
  const actions = routeActions();

  test("every intent of every back-office route is an act the runner runs, named in the acts table", () => {
    const backOffice = actions.filter(({ action }) => calls(action, "requirePermission").length > 0);
    assert.ok(backOffice.length >= 7, `back-office routes found: ${backOffice.map((route) => route.file)}`);
    let intents = 0;
    for (const { file, source, action } of backOffice) {
      const [dispatch] = calls(action, "dispatchIntent");
      assert.ok(dispatch, `${file}: its action does not dispatch its intents`);
      const handlers = dispatch.arguments[1];
      const literal = handlers && resolve(handlers, action);
      const object = literal && ts.isSatisfiesExpression(literal) ? literal.expression : literal;
      assert.ok(object && ts.isObjectLiteralExpression(object), `${file}: its intents are not one object literal`);
      for (const property of object.properties) {
        const intent = property.name?.getText(source) ?? "?";
        assert.ok(ts.isPropertyAssignment(property), `${file} ${intent}: not a plain handler`);
        const call = actCallOf(property.initializer, action);
        assert.ok(call, `${file} ${intent}: its handler bypasses the acts runner`);
        const names = actNamesOf(call, property.initializer, source);
        if (!names.length) names.push(...actNamesOf(call, call, source));
        assert.ok(names.length > 0, `${file} ${intent}: names no row of the acts table`);
        for (const name of names) assert.ok(ACT_NAMES.has(name), `${file} ${intent}: unknown act ${name}`);
        intents += 1;
      }
    }
    assert.ok(intents >= 30, `intents checked: ${intents}`);
  });

  test("every other route with an action is listed, with the client act it runs or why it runs none", () => {
    const others = actions.filter(({ action }) => calls(action, "requirePermission").length === 0);
    const unlisted = others.map(({ file }) => file).filter((file) => !(file in OTHER_ACTIONS));
    assert.deepEqual(unlisted, [], "routes with an action that neither ask a back-office permission nor are listed");
    const stale = Object.keys(OTHER_ACTIONS).filter((file) => !others.some((route) => route.file === file));
    assert.deepEqual(stale, [], "listed routes that no longer have such an action");
  });

  test("every client act is run through the runner by name, somewhere in the server", () => {
    const server = readdirSync(join(ROOT, "app"), { recursive: true, encoding: "utf8" })
      .filter((file) => /\.tsx?$/.test(file))
      .map((file) => readFileSync(join(ROOT, "app", file), "utf8"))
      .join("\n");
    const clientActs = Object.entries(ACTS as Record<string, ActRow>).filter(([, row]) => row.who === "client");
    for (const [name] of clientActs) {
      assert.match(server, new RegExp(`runAct\\([^;]*?"${name}"`, "s"), `${name} is never run by the runner`);
    }
    const listed = Object.values(OTHER_ACTIONS).flatMap((entry) => ("acts" in entry ? entry.acts : []));
    for (const [name] of clientActs) assert.ok(listed.includes(name as ActName), `${name}: no route listed runs it`);
  });

  test("only the runner asks for a fresh code", () => {
    const askers = readdirSync(join(ROOT, "app"), { recursive: true, encoding: "utf8" })
      .filter((file) => /\.tsx?$/.test(file))
      .filter((file) => /\bcheckStepUp\(/.test(readFileSync(join(ROOT, "app", file), "utf8")));
    assert.deepEqual(askers.sort(), ["server/acts.server.ts", "server/auth/step-up.server.ts"]);
  });

  test("no role is named outside the permission table (the roles' list in db/enums.ts, the table in app/lib/permissions.ts)", () => {
    const roleName = /["'`](owner|support|operator|approver|compliance)["'`]/;
    const files = ["app", "workers", "db"].flatMap((folder) =>
      readdirSync(join(ROOT, folder), { recursive: true, encoding: "utf8" })
        .filter((file) => /\.tsx?$/.test(file))
        .map((file) => join(folder, file)),
    );
    const naming = files
      .filter((file) => !["app/lib/permissions.ts", "db/enums.ts"].includes(file))
      .filter((file) => roleName.test(readFileSync(join(ROOT, file), "utf8").replace(/^\s*(\/\/|\*|\/\*\*).*$/gm, "")));
    assert.deepEqual(naming, []);
  });

  test("every trigger a row names is one of the database's guards", () => {
    const guards = readFileSync(join(ROOT, "db", "guards.sql"), "utf8");
    for (const [name, row] of Object.entries(ACTS as Record<string, ActRow>)) {
      for (const trigger of row.triggers) {
        assert.ok(guards.includes(`CREATE TRIGGER \`${trigger}\``), `${name}: no trigger ${trigger}`);
      }
    }
  });
});
