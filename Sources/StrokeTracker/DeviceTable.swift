/// Values by device, read and changed in place. A dictionary's subscript hands out a copy of
/// its value (a device's pipeline, a gesture recogniser: every reference in it retained and
/// released), and the daemon looked a device up several times a frame. A daemon has a few
/// devices: they are found by a scan of their ids.
public struct DeviceTable<Value: Sendable>: Sendable {
    @usableFromInline var ids: [DeviceID] = []
    @usableFromInline var values: [Value] = []

    public init() {}

    /// Where `id`'s value is, for the subscript.
    @inlinable
    public func index(of id: DeviceID) -> Int? {
        for i in ids.indices where ids[i] == id { return i }
        return nil
    }

    /// The value at `index` (from `index(of:)`), in place.
    @inlinable
    public subscript(index: Int) -> Value {
        _read { yield values[index] }
        _modify { yield &values[index] }
    }

    /// `id`'s value, or nil; setting nil removes it. For adding and removing: reads and changes
    /// go through `index(of:)` and the subscript, in place.
    public subscript(id id: DeviceID) -> Value? {
        get { index(of: id).map { values[$0] } }
        set {
            switch (index(of: id), newValue) {
            case (let i?, let v?): values[i] = v
            case (let i?, nil):
                ids.remove(at: i)
                values.remove(at: i)
            case (nil, let v?):
                ids.append(id)
                values.append(v)
            case (nil, nil): break
            }
        }
    }

    public func contains(_ id: DeviceID) -> Bool { index(of: id) != nil }

    /// The devices, in the order they were added.
    public var devices: [DeviceID] { ids }

    /// The values, in the order their devices were added.
    public var all: [Value] { values }
}
