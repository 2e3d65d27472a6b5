// Parses an Argdown document with @argdown/core (the parser and model plugins, as the
// Argdown tools do) and returns what a test needs to check: the parser's errors, and the
// statements, arguments and relations the document defines. Used by argdown.test.mjs on
// the fixture Rust writes and by the end-to-end test on a downloaded export.
import { ArgdownApplication, ParserPlugin, ModelPlugin } from "@argdown/core";

export function parseArgdown(text) {
  const app = new ArgdownApplication();
  app.addPlugin(new ParserPlugin(), "parse-input");
  app.addPlugin(new ModelPlugin(), "build-model");
  const response = app.run({ process: ["parse-input", "build-model"], input: text });
  const errors = (response.parserErrors || []).map((e) => e.message).concat(
    (response.lexerErrors || []).map((e) => e.message),
  );
  const statements = Object.values(response.statements || {}).map((s) => ({
    title: s.title,
    text: s.members?.length ? s.members[s.members.length - 1].text : "",
  }));
  const args = Object.values(response.arguments || {}).map((a) => ({
    title: a.title,
    text: a.members?.length ? a.members[a.members.length - 1].text : "",
  }));
  const relations = (response.relations || []).map((r) => ({
    from: r.from.title,
    to: r.to.title,
    type: r.relationType,
  }));
  return { errors, statements, arguments: args, relations };
}
