import StrokeProtocol

/// The names the configuration accepts, checked: a name the protocol does not define is an error
/// in the file, not a rule that never matches.
extension GestureMatch {
    static let kinds: [Kind] = [.tap, .doubleTap, .hold, .swipe, .edgeSwipe, .pinch, .rotate]
    static let phases: [Phase] = [.begin, .update, .end, .cancel]
    static let allDirections: [Direction] = [.up, .down, .left, .right, .upLeft, .upRight, .downLeft, .downRight]
    static let allEdges: [Edge] = [.top, .bottom, .left, .right]

    /// The value of `known` named `name`, or nil.
    static func named<T: OpenStringEnum>(_ name: String, in known: [T]) -> T? {
        known.first { $0.rawValue == name }
    }

    /// `known`'s names, for error messages.
    static func names<T: OpenStringEnum>(_ known: [T]) -> String {
        known.map(\.rawValue).joined(separator: ", ")
    }

    /// Why `phase` cannot be asked of `kind` (nil: it can).
    static func phaseProblem(_ phase: Phase, for kind: Kind) -> String? {
        switch (kind, phase) {
        case (.tap, .end), (.doubleTap, .end): nil
        case (.tap, _), (.doubleTap, _): "'\(kind.rawValue)' is one message, with phase end"
        case (.hold, .update): "'hold' has no update phase (begin, end, cancel)"
        case (.hold, _), (.swipe, _), (.edgeSwipe, _), (.pinch, _), (.rotate, _), (.unknown, _): nil
        }
    }

    /// The kinds a key applies to (nil: every kind).
    static func kinds(for key: String) -> [Kind]? {
        switch key {
        case "direction", "minDistance", "minVelocity": [.swipe, .edgeSwipe]
        case "edge": [.edgeSwipe]
        case "minScale", "maxScale": [.pinch]
        case "minAngle", "maxAngle": [.rotate]
        default: nil
        }
    }
}
