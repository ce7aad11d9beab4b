import InputCore

/// A set of slot indices below `DeviceDescription.maxSlots` (256), as bits: the slots a frame
/// touched. Iterated in slot order for the flush; inserting, testing and emptying touch no
/// array (no allocation, no uniqueness check, no sort).
struct SlotBits: Sendable {
    private var w0: UInt64 = 0, w1: UInt64 = 0, w2: UInt64 = 0, w3: UInt64 = 0

    var isEmpty: Bool { (w0 | w1 | w2 | w3) == 0 }

    @inline(__always)
    mutating func insert(_ s: Int) {
        precondition(s >= 0 && s < DeviceDescription.maxSlots, "slot \(s) out of range")
        let bit = UInt64(1) << UInt64(s & 63)
        // The first 64 slots without the switch's jump: every device but the largest.
        if s < 64 { return w0 |= bit }
        switch s >> 6 {
        case 0: w0 |= bit
        case 1: w1 |= bit
        case 2: w2 |= bit
        default: w3 |= bit
        }
    }

    @inline(__always)
    mutating func removeAll() { (w0, w1, w2, w3) = (0, 0, 0, 0) }

    /// Calls `body` with each slot in the set, lowest first.
    @inline(__always)
    func forEach(_ body: (Int) -> Void) {
        @inline(__always)
        func each(_ word: UInt64, _ base: Int) {
            var bits = word
            while bits != 0 {
                body(base + bits.trailingZeroBitCount)
                bits &= bits - 1
            }
        }
        each(w0, 0)
        if (w1 | w2 | w3) != 0 {
            each(w1, 64)
            each(w2, 128)
            each(w3, 192)
        }
    }
}
