import Testing
import YAMLReader

/// The tree `YAML.parse` builds, as text: `{k: v}`, `[a]`, scalars bare (plain), 'single' or
/// "double", each followed by @line where asked.
func render(_ node: YAMLNode?, lines: Bool = false) -> String {
    guard let node else { return "nil" }
    let at = lines ? "@\(node.mark.line)" : ""
    switch node {
    case .scalar(let s):
        switch s.style {
        case .plain: return s.string + at
        case .singleQuoted: return "'\(s.string)'" + at
        case .doubleQuoted: return "\"\(s.string)\"" + at
        }
    case .sequence(let s): return "[" + s.map { render($0, lines: lines) }.joined(separator: ", ") + "]" + at
    case .mapping(let m):
        return "{" + m.map { "\(render($0.key, lines: lines)): \(render($0.value, lines: lines))" }.joined(separator: ", ") + "}" + at
    }
}

func parse(_ text: String, lines: Bool = false) throws -> String { render(try YAML.parse(text), lines: lines) }

func failure(_ text: String) -> YAMLError? {
    do {
        _ = try YAML.parse(text)
        return nil
    } catch {
        return error
    }
}

@Suite struct YAMLBlockTests {
    @Test func mappingsAndSequencesNest() throws {
        let text = """
            # a comment
            a: 1
            b:
              c: two words
              d:
                - x
                - y: 3
                  z: 4
                -
                  - nested
            e: last
            """
        #expect(try parse(text) == "{a: 1, b: {c: two words, d: [x, {y: 3, z: 4}, [nested]]}, e: last}")
        #expect(
            try parse(text, lines: true)
                == "{a@2: 1@2, b@3: {c@4: two words@4, d@5: [x@6, {y@7: 3@7, z@8: 4@8}@7, [nested@10]@10]@6}@4, e@11: last@11}@2")
    }

    @Test func aSequenceMaySitAtItsKeysIndentation() throws {
        // As libinput record writes them.
        let text = """
            devices:
            - node: /dev/input/event5
              events:
              - evdev:
                - [  0,      0,   3,  47,     0]
                - [  0,      0,   0,   0,     0]
              - evdev:
                - [0, 1, 0, 0, 0]
            ndevices: 1
            """
        #expect(
            try parse(text)
                == "{devices: [{node: /dev/input/event5, events: [{evdev: [[0, 0, 3, 47, 0], [0, 0, 0, 0, 0]]}, {evdev: [[0, 1, 0, 0, 0]]}]}], ndevices: 1}")
    }

    @Test func compactSequencesInSequences() throws {
        #expect(try parse("- - a\n  - b\n- c\n") == "[[a, b], c]")
    }

    @Test func emptyValuesAreEmptyPlainScalarsMarkedAfterTheirIndicator() throws {
        let node = try #require(try YAML.parse("a:\nb: # nothing\n  \nc:\n  - \n  -\n"))
        #expect(render(node) == "{a: , b: , c: [, ]}")
        let a = try #require(node.mapping?["a"]?.scalar)
        #expect(a.style == .plain && a.isNull && a.mark == YAMLMark(line: 1, column: 3))
        #expect(node.mapping?["c"]?.sequence?[1].mark == YAMLMark(line: 6, column: 4))
    }

    @Test func plainScalarsKeepWhatIsNotAnIndicator() throws {
        #expect(try parse("a: b:c # comment\n") == "{a: b:c}")
        #expect(try parse("url: http://x/y#z\n") == "{url: http://x/y#z}")
        #expect(try parse("k: a [b] {c}, d\n") == "{k: a [b] {c}, d}")
        #expect(try parse("k: -1\nl: -x\nm: :y\nn: ?z\n") == "{k: -1, l: -x, m: :y, n: ?z}")
        #expect(try parse("LIBINPUT_DEVICE_GROUP=3/56a/37a:usb-0000:00:14.0-9\n") == "LIBINPUT_DEVICE_GROUP=3/56a/37a:usb-0000:00:14.0-9")
        #expect(try parse("key with spaces  :   value with spaces   \n") == "{key with spaces: value with spaces}")
        #expect(try parse("a:\tb\n") == "{a: b}")
    }

    @Test func documentMarkersDirectivesAndByteOrderMark() throws {
        #expect(try parse("%YAML 1.1\n---\na: 1\n...\n# after\n") == "{a: 1}")
        #expect(try parse("--- # start\n- 1\n") == "[1]")
        #expect(try parse("\u{FEFF}a: 1\n", lines: true) == "{a@1: 1@1}@1")
        #expect(try YAML.parse("# only a comment\n\n") == nil)
        #expect(try YAML.parse("") == nil)
        #expect(try parse("---\n") == "")
        #expect(try parse("---\n", lines: true) == "@2", "marked where the next token is, as libyaml did")
    }

    @Test func lineBreaksAreLFCRLFOrALoneCR() throws {
        #expect(try parse("a: 1\r\nb:\r\n  - 2\r\n", lines: true) == "{a@1: 1@1, b@2: [2@3]@3}@1")
        #expect(try parse("a: 1\rb: 2\r", lines: true) == "{a@1: 1@1, b@2: 2@2}@1")
        #expect(failure("a: 1\r\rb: [\r")?.line == 4)
    }

    @Test func aRootScalar() throws {
        #expect(try parse("just text\n") == "just text")
        #expect(try parse("\"quoted\"") == "\"quoted\"")
    }
}

@Suite struct YAMLFlowTests {
    @Test func flowCollectionsNestAndSpanLines() throws {
        #expect(try parse("a: [1, [2, 3], {b: c, d: [e]}]\n") == "{a: [1, [2, 3], {b: c, d: [e]}]}")
        let hid = """
            hid: [
              0x05, 0x0d, # usage page
              0x09, 0x04,
            ]
            next: {a: 1,
                   b: 2}
            """
        #expect(try parse(hid, lines: true) == "{hid@1: [0x05@2, 0x0d@2, 0x09@3, 0x04@3]@1, next@5: {a@5: 1@5, b@6: 2@6}@5}@1")
        #expect(try parse("[]") == "[]")
        #expect(try parse("{}") == "{}")
        #expect(try parse("[a, b, ]") == "[a, b]")
        #expect(try parse("[1 2]") == "[1 2]", "one plain scalar, as YAML reads it")
        #expect(try parse("[a: 1, b, c: [2], d: ]") == "[{a: 1}, b, {c: [2]}, {d: }]", "single pairs, as libyaml reads them")
    }

    @Test func flowScalarsEndAtFlowIndicators() throws {
        #expect(try parse("[a-b, c d, /dev/input/event3, \"x,y\", 'z]', \"name:X\"]") == "[a-b, c d, /dev/input/event3, \"x,y\", 'z]', \"name:X\"]")
        #expect(try parse("{a: , b, \"c\":d, e: [f]}") == "{a: , b: , \"c\": d, e: [f]}")
        #expect(try parse("{time: 0.000, type: TOUCH_DOWN, slot: 0}") == "{time: 0.000, type: TOUCH_DOWN, slot: 0}")
        // As libyaml read them: a ':' with no blank after it is part of the scalar.
        #expect(try parse("match: [name:Wacom*, a:b]\n") == "{match: [name:Wacom*, a:b]}")
        #expect(try parse("{a:1}") == "{a:1: }")
    }
}

@Suite struct YAMLQuotedTests {
    @Test func singleQuoted() throws {
        #expect(try parse("a: 'it''s # not a comment'\n") == "{a: 'it's # not a comment'}")
        #expect(try parse("a: 'one\n  two\n\n  three'\n") == "{a: 'one two\nthree'}")
    }

    @Test func doubleQuotedEscapes() throws {
        let node = try #require(try YAML.parse(#"a: "q\" b\\ t\t n\n x\x41 u\u00e9 U\U0001F600 z\0 e\e s\/ \N\_\L\P""#))
        #expect(node.mapping?["a"]?.string == "q\" b\\ t\t n\n xA u\u{e9} U\u{1F600} z\0 e\u{1b} s/ \u{85}\u{a0}\u{2028}\u{2029}")
        #expect(try parse("a: \"one\\\n   two\"\n") == "{a: \"onetwo\"}")
        #expect(try parse("a: \"one\n   two  \n\n three\"\n") == "{a: \"one two\nthree\"}")
        // What LibinputRecordWriter.quote writes for control characters.
        #expect(try YAML.parse("name: \"a\\u0007b\"")?.mapping?["name"]?.string == "a\u{7}b")
    }

    @Test func quotedKeys() throws {
        #expect(try parse("\"a b\": 1\n'c': 2\n") == "{\"a b\": 1, 'c': 2}")
        #expect(try YAML.parse("'k': v")?.mapping?["k"]?.string == "v")
    }
}

@Suite struct YAMLValueTests {
    func scalar(_ text: String) throws -> YAMLNode.Scalar { try #require(try YAML.parse("v: \(text)")?.mapping?["v"]?.scalar) }

    @Test(arguments: [
        ("true", true), ("True", true), ("TRUE", true), ("yes", true), ("on", true), ("ON", true),
        ("false", false), ("no", false), ("Off", false), ("NO", false),
    ])
    func booleans(text: String, value: Bool) throws {
        #expect(try scalar(text).bool == value)
    }

    @Test(arguments: ["tRue", "\"true\"", "'yes'", "1", "y", ""])
    func notBooleans(text: String) throws {
        #expect(try scalar(text).bool == nil)
    }

    @Test(arguments: [
        ("0", 0), ("42", 42), ("-17", -17), ("+5", 5), ("1_000", 1000), ("0x1F", 31), ("-0x10", -16), ("0b101", 5),
        ("0o17", 15), ("017", 15), ("1:30", 90), ("-1:0:0", -3600), ("9223372036854775807", Int.max),
    ])
    func integers(text: String, value: Int) throws {
        #expect(try scalar(text).int == value)
    }

    @Test(arguments: ["\"5\"", "'5'", "5.0", "many", "08", "9223372036854775808", "1:2:3:4:5:6:7:8:9:10:11:12:13", ""])
    func notIntegers(text: String) throws {
        #expect(try scalar(text).int == nil)
    }

    @Test(arguments: [("2.5", 2.5), ("1e3", 1000), ("-0.5", -0.5), (".inf", .infinity), ("-.Inf", -.infinity), ("1_0.5", 10.5), ("1:30.5", 90.5), ("3", 3)])
    func doubles(text: String, value: Double) throws {
        #expect(try scalar(text).double == value)
    }

    @Test func notDoubles() throws {
        #expect(try scalar("\"2.5\"").double == nil)
        #expect(try scalar("abc").double == nil)
        #expect(try scalar(".nan").double?.isNaN == true)
    }

    @Test func nulls() throws {
        #expect(try scalar("~").isNull && scalar("null").isNull && scalar("NULL").isNull && scalar("").isNull)
        #expect(try !scalar("'~'").isNull && !scalar("nil").isNull)
    }
}

@Suite struct YAMLRefusalTests {
    /// Outside the subset, or not YAML: an error naming the line, never a crash or a misread.
    @Test(arguments: [
        ("a: &x 1\nb: *x\n", 1, "anchors"),
        ("a: 1\nb: *x\n", 2, "aliases"),
        ("a: !!str 1\n", 1, "tags"),
        ("a: |\n  text\n", 1, "block scalars"),
        ("a: >\n  text\n", 1, "block scalars"),
        ("? complex\n: key\n", 1, "complex keys"),
        ("a: 1\n---\nb: 2\n", 2, "second document"),
        ("a: 1\n...\nb: 2\n", 3, "after the end of the document"),
        ("%TAG ! tag:x\n---\na: 1\n", 1, "directives"),
        ("a:\n\t- 1\n", 2, "tab"),
        ("a: 1\nb: \u{7}\n", 2, "control character U+0007"),
        ("a: 1\nb: \u{7f}\n", 2, "control character U+007F"),
        ("a: 1\nb: 2\na: 3\n", 3, "duplicate key 'a' (first on line 1)"),
        ("{a: 1, a: 2}", 1, "duplicate key"),
        ("a: one\n  two\n", 2, "unexpected indentation"),
        ("a: 1\n   b: 2\n", 2, "unexpected indentation"),
        ("a:\n  - 1\n  b: 2\n", 3, "expected a list item"),
        ("a: 1\n- 2\n", 2, "expected a key"),
        ("a: - 1\n", 1, "a list cannot begin on its key's line"),
        ("a: b: c\n", 1, "a mapping cannot begin on its key's line"),
        ("a: [1, 2\n", 2, "the list opened with '[' on line 1 is not closed"),
        ("a: {b: 1\n\n", 3, "the mapping opened with '{' on line 1 is not closed"),
        ("a: [\"1\" 2]\n", 1, "expected ',' or ']'"),
        ("a: [b: c: d]\n", 1, "expected ',' or ']'"),
        ("a: [[b]: c]\n", 1, "only scalars can be keys"),
        ("a: \"open\nb: 1\n", 3, "the quoted value opened on line 1 is not closed"),
        ("a: \"\\q\"\n", 1, "unknown escape"),
        ("a: \"\\u12\"\n", 1, "hexadecimal digits"),
        ("a: \"\\uD800\"\n", 1, "escapes no character"),
        ("a: 'x' y\n", 1, "expected the end of the line after the value"),
        ("a: 'x'# c\n", 1, "a comment needs a blank"),
        ("[a]: b\n", 1, "only scalars can be keys"),
        ("a: @x\n", 1, "cannot begin with '@'"),
        ("  a: 1\nb: 2\n", 2, "indented less than the document's first line"),
        ("a\nb\n", 2, "unexpected content after the document's value"),
        ("a: ]\n", 1, "unexpected ']'"),
        ("\"multi\nline\": key\n", 1, "a key must be on one line"),
        // Where libyaml (in Yams) refused them too: a ':' before a flow indicator, '?' and ':'
        // beginning a value in a flow collection, a key's ':' on another line, a tab after '-'.
        ("a: [b:]\n", 1, "unexpected ':' before ']'"),
        ("a: {b, c:}\n", 1, "unexpected ':' before '}'"),
        ("a: [x, :b]\n", 1, "unexpected ':'"),
        ("a: [?b]\n", 1, "unexpected '?'"),
        ("a: {b\n: 1}\n", 2, "expected ',' or '}'"),
        ("-\tkey: 1\n", 1, "a tab after '-'"),
    ] as [(String, Int, String)])
    func refused(text: String, line: Int, fragment: String) throws {
        let e = try #require(failure(text), "\(text.debugDescription) was read")
        #expect(e.line == line, "\(e)")
        #expect(e.message.contains(fragment), "\(e)")
    }

    @Test func nestingIsBounded() throws {
        let deep = String(repeating: "[", count: 100_000)
        #expect(failure(deep)?.message.contains("nested deeper than") == true)
        var block = ""
        for i in 0..<(YAML.maximumDepth + 5) { block += String(repeating: " ", count: i) + "k:\n" }
        #expect(failure(block)?.message.contains("nested deeper than") == true)
        let fine = String(repeating: "[", count: 50) + String(repeating: "]", count: 50)
        #expect(try YAML.parse(fine) != nil)
    }

    @Test func anErrorAtTheEndNamesTheLastLine() throws {
        #expect(failure("version: 1\ndevices: [\n")?.line == 3)
        #expect(failure("version: 1\ndevices: [")?.line == 2)
    }

    @Test func messagesQuoteNoControlCharacters() throws {
        let e = try #require(failure("\"a\\u0001b\": 1\n\"a\\u0001b\": 2\n"))
        #expect(e.message.contains("duplicate key 'a\\u{1}b'"))
        #expect(!e.message.unicodeScalars.contains { $0.value < 0x20 })
    }
}
