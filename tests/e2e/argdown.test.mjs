// The Argdown export parses with @argdown/core: the fixture is what the Rust renderer
// writes for a one-round classic debate (tests/exports.rs keeps it up to date), including a
// turn full of Argdown syntax that must come back as plain text.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { parseArgdown } from "./argdown.mjs";

const fixture = readFileSync(new URL("../fixtures/sample.argdown", import.meta.url), "utf8");

test("the Argdown export parses into the debate's claims, arguments and relations", () => {
  const map = parseArgdown(fixture);
  assert.deepEqual(map.errors, []);
  assert.deepEqual(
    map.statements.map((s) => [s.title, s.text]),
    [
      ["Motion", "Should cities ban cars from their centres?"],
      ["Position A", "Yes, ban them"],
      ["Position B", "No, keep access"],
    ],
  );
  // Every position turn is an argument; moderation, checks and scores are not.
  assert.equal(map.arguments.length, 8);
  assert.ok(map.arguments.every((a) => /^Turn \d+, Position [AB], /.test(a.title)));
  // A turn written in Argdown's own syntax reads back as the text the model wrote.
  const hostile = map.arguments.find((a) => a.title === "Turn 6, Position A, Argument");
  assert.equal(
    hostile.text,
    "Cities [should] <b>ban</b> cars. # Not a heading + not a relation - nor this > nor a quote " +
      "See https://example.org/x // not a comment /* nor this */ and #tag @[Motion] {data: 1} *half",
  );
  // The sides: A for the motion, B against; each turn supports its side and attacks the other.
  const rel = (from, to) => map.relations.find((r) => r.from === from && r.to === to)?.type;
  assert.equal(rel("Position A", "Motion"), "support");
  assert.equal(rel("Position B", "Motion"), "attack");
  for (const a of map.arguments) {
    const mine = a.title.includes("Position A") ? "Position A" : "Position B";
    const theirs = mine === "Position A" ? "Position B" : "Position A";
    assert.equal(rel(a.title, mine), "support", a.title);
    assert.equal(rel(a.title, theirs), "attack", a.title);
  }
  assert.equal(map.relations.length, 2 + 8 * 2);
});

test("unescaped, the same text would be misread (the escaping is what keeps it whole)", () => {
  const map = parseArgdown("<A>: see https://example.org/x // a comment and #tag [B]\n");
  assert.notEqual(map.arguments[0].text, "see https://example.org/x // a comment and #tag [B]");
});
