/// The decoder's slots, with one uniqueness check per call rather than one per access.
///
/// An array of `Slot`s checked that its buffer is unique (a runtime call) on every write: several
/// times per event. Here the storage is made the table's own once, by `makeUnique()`, at the start
/// of every decoder call that changes slots; writes in between go straight to it. Copies of a
/// decoder stay independent: the first call on a copy copies the storage.
///
/// The storage's address and size are kept in the table too: read through the storage object,
/// they were two loads per access that the compiler could not keep in registers across the
/// writes to the slots. Sendable as the storage is: `base` is written through only after
/// `makeUnique()`.
struct SlotTable: @unchecked Sendable {
    private var storage: Storage
    /// `storage.base`: the storage's slots (`makeUnique` keeps it so).
    private var base: UnsafeMutablePointer<Slot>
    let count: Int

    init(count: Int) {
        storage = Storage(count: count)
        base = storage.base
        self.count = count
    }

    var indices: Range<Int> { 0..<count }

    /// Makes the storage this table's own: at the start of every call that writes slots.
    @inline(__always)
    mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) {
            storage = Storage(copying: storage)
            base = storage.base
        }
    }

    // Addressors: a field of a slot is read or written in place, not through a copy of the slot.
    subscript(i: Int) -> Slot {
        @inline(__always)
        unsafeAddress {
            precondition(i >= 0 && i < count, "slot \(i) out of 0..<\(count)")
            return UnsafePointer(base + i)
        }
        @inline(__always)
        unsafeMutableAddress {
            precondition(i >= 0 && i < count, "slot \(i) out of 0..<\(count)")
            assert(isKnownUniquelyReferenced(&storage) && base == storage.base, "SlotTable written without makeUnique()")
            return base + i
        }
    }

    /// Published contacts and the like: `body` over every slot, in order.
    func reduce<Result>(_ initial: Result, _ body: (Result, Slot) -> Result) -> Result {
        var result = initial
        for i in indices { result = body(result, base[i]) }
        return result
    }

    private final class Storage: @unchecked Sendable {
        // Sendable: written only through a table that made it unique (`makeUnique`), so never
        // while another table or thread can see it.
        let base: UnsafeMutablePointer<Slot>
        let count: Int

        init(count: Int) {
            self.count = count
            base = .allocate(capacity: count)
            base.initialize(repeating: Slot(), count: count)
        }

        init(copying other: Storage) {
            count = other.count
            base = .allocate(capacity: count)
            base.initialize(from: other.base, count: count)
        }

        deinit {
            base.deinitialize(count: count)
            base.deallocate()
        }
    }
}
