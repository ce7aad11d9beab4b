/// A position in a YAML text: 1-based line and column. Lines break at LF, CR LF and a lone CR
/// (YAML 1.1, 5.4); columns count bytes of UTF-8 from the start of the line.
public struct YAMLMark: Hashable, Sendable, CustomStringConvertible {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public var description: String { "\(line):\(column)" }
}

/// A node of a parsed YAML document (`YAML.parse`): a scalar, a sequence or a mapping, each with
/// the mark of its first character, so that whoever reads the tree can name the line of a
/// value it refuses.
///
/// Scalars are kept as the text they hold, untyped: `Scalar.bool`, `.int` and `.double` give
/// the YAML 1.1 reading of a plain scalar where the reader wants one (`"1"` quoted stays a
/// string). A key with no value (`key:`) has an empty plain scalar as its value, marked just
/// after its `:`. Mapping keys are always scalars.
public enum YAMLNode: Sendable {
    case scalar(Scalar)
    case sequence(Sequence)
    case mapping(Mapping)

    /// How a scalar was written.
    public enum Style: Sendable {
        case plain
        case singleQuoted
        case doubleQuoted
    }

    /// A scalar: its text (quotes removed, escapes and line folding applied) and how it was written.
    public struct Scalar: Sendable {
        public var string: String
        public var style: Style
        public var mark: YAMLMark

        public init(_ string: String, style: Style = .plain, mark: YAMLMark) {
            self.string = string
            self.style = style
            self.mark = mark
        }
    }

    /// A block (`- item` lines) or flow (`[a, b]`) sequence.
    public struct Sequence: RandomAccessCollection, Sendable {
        public var items: [YAMLNode]
        public var mark: YAMLMark

        public init(_ items: [YAMLNode], mark: YAMLMark) {
            self.items = items
            self.mark = mark
        }

        public var startIndex: Int { items.startIndex }
        public var endIndex: Int { items.endIndex }
        public subscript(position: Int) -> YAMLNode { items[position] }
    }

    /// A block (`key: value` lines) or flow (`{key: value}`) mapping, its pairs in the order written.
    /// Keys are unique (a repeated key is a parse error).
    public struct Mapping: RandomAccessCollection, Sendable {
        public typealias Element = (key: YAMLNode, value: YAMLNode)
        public var pairs: [Element]
        public var mark: YAMLMark

        public init(_ pairs: [Element], mark: YAMLMark) {
            self.pairs = pairs
            self.mark = mark
        }

        public var startIndex: Int { pairs.startIndex }
        public var endIndex: Int { pairs.endIndex }
        public subscript(position: Int) -> Element { pairs[position] }

        /// The value of the key whose text is `key` (quoted or not), if there is one.
        public subscript(key: String) -> YAMLNode? {
            pairs.first { $0.key.scalar?.string == key }?.value
        }
    }

    /// Where the node begins: a scalar's first character (its opening quote), a block sequence's
    /// first `-`, a block mapping's first key, a flow collection's bracket.
    public var mark: YAMLMark {
        switch self {
        case .scalar(let s): s.mark
        case .sequence(let s): s.mark
        case .mapping(let m): m.mark
        }
    }

    public var scalar: Scalar? {
        guard case .scalar(let s) = self else { return nil }
        return s
    }

    public var sequence: Sequence? {
        guard case .sequence(let s) = self else { return nil }
        return s
    }

    public var mapping: Mapping? {
        guard case .mapping(let m) = self else { return nil }
        return m
    }

    /// The scalar's text, whatever its style; nil for a collection.
    public var string: String? { scalar?.string }
    /// `Scalar.bool` of a scalar.
    public var bool: Bool? { scalar?.bool }
    /// `Scalar.int` of a scalar.
    public var int: Int? { scalar?.int }
    /// `Scalar.double` of a scalar.
    public var double: Double? { scalar?.double }
}
