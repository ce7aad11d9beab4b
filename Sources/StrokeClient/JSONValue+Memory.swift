import StrokeProtocol

extension JSONValue {
    /// About the bytes the value holds in memory: what the read-ahead charges for a message this
    /// client keeps as a tree (`ServerMessage.unknown`), rather than its line's length. `[0,0,…]`
    /// is two bytes a number as text and a `JSONValue` (its stride) each as a tree, so a line's
    /// length understated such a message's memory by an order of magnitude.
    var memoryEstimate: Int {
        let stride = MemoryLayout<JSONValue>.stride
        switch self {
        case .null, .bool, .integer, .unsigned, .double:
            return stride
        case .string(let s):
            return stride + Self.heapBytes(s)
        case .array(let a):
            // The array's buffer (header and elements), and what each element holds beyond itself.
            return stride + 32 + a.reduce(0) { $0 + $1.memoryEstimate }
        case .object(let o):
            // A dictionary keeps a third of its buckets free: key and value per bucket, a header.
            let buckets = o.count + o.count / 3
            let entries = o.reduce(0) { $0 + Self.heapBytes($1.key) + $1.value.memoryEstimate - stride }
            return stride + 64 + buckets * (MemoryLayout<String>.stride + stride) + entries
        }
    }

    /// A string's bytes on the heap: none for the short ones Swift keeps inline.
    private static func heapBytes(_ s: String) -> Int {
        let n = s.utf8.count
        return n <= 15 ? 0 : 32 + n
    }
}
