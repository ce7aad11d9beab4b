/// The kernel's `struct input_absinfo` for one axis.
public struct AbsInfo: Hashable, Sendable {
    /// The axis's current value, as `EVIOCGABS` returns it.
    ///
    /// For per-slot `ABS_MT_*` axes the kernel never updates this field (`input_handle_abs_event()`
    /// stores MT values in the slot table), so recordings show it as 0; only `ABS_MT_SLOT`'s value is
    /// meaningful: it is the slot the next MT event applies to.
    public var value: Int32
    public var minimum: Int32
    public var maximum: Int32
    public var fuzz: Int32
    public var flat: Int32
    /// Units per millimetre (per radian for orientation axes); 0 means unknown.
    public var resolution: Int32

    public init(value: Int32 = 0, minimum: Int32, maximum: Int32, fuzz: Int32 = 0, flat: Int32 = 0, resolution: Int32 = 0) {
        self.value = value
        self.minimum = minimum
        self.maximum = maximum
        self.fuzz = fuzz
        self.flat = flat
        self.resolution = resolution
    }

    /// Whether `v` lies within `minimum...maximum`.
    @inlinable
    public func contains(_ v: Int32) -> Bool { v >= minimum && v <= maximum }
}
