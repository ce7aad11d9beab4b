/// A reader for the YAML that strokes reads: its configuration (`config/strokes.yaml`) and
/// `libinput record` recordings. Pure Swift, no Foundation (docs/performance.md, "Memory").
///
/// The subset read, which covers YAML 1.1 as those files use it:
/// - block mappings (`key: value`) and sequences (`- item`), a sequence also at its key's
///   indentation (`key:` then `- item`), and compact forms (`- key: value`, `- - item`);
/// - flow sequences and mappings (`[1, 2]`, `{a: 1}`, `[a: 1]` as `[{a: 1}]`), nested and over
///   several lines;
/// - plain, single-quoted and double-quoted scalars (all YAML escapes), quoted ones folded
///   over several lines;
/// - comments, blank lines, a `---` start and a `...` end of the document, a `%YAML` directive,
///   a byte order mark, line breaks LF, CR LF or CR.
///
/// Outside it, the reader stops with a `YAMLError` naming the line, never a misread: anchors and
/// aliases (`&a`, `*a`), tags (`!!str`), block scalars (`|`, `>`), complex keys (`? `), plain
/// scalars continued on a new line, more than one document, tabs as indentation, control
/// characters, duplicate keys, nesting deeper than `maximumDepth`.
public enum YAML {
    /// How deep collections may nest: deeper input is refused rather than overflowing the stack.
    public static let maximumDepth = 200

    /// The document in `bytes` (UTF-8), or nil when there is none (nothing but blank lines and
    /// comments). An empty document after `---` is an empty plain scalar.
    public static func parse(_ bytes: [UInt8]) throws(YAMLError) -> YAMLNode? {
        var parser = YAMLParser(bytes)
        return try parser.document()
    }

    /// The document in `text`, as `parse(_: [UInt8])`.
    public static func parse(_ text: String) throws(YAMLError) -> YAMLNode? {
        try parse(Array(text.utf8))
    }
}
