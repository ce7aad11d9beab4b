/// `deviceAdded`: a device object, numbered (docs/protocol.md, "Device events and device objects").
public struct DeviceAdded: Codable, Sendable, Hashable {
    public var seq: UInt64
    public var device: DeviceObject

    public init(seq: UInt64, device: DeviceObject) {
        self.seq = seq
        self.device = device
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: MessageKey.self)
        seq = try c.decode(UInt64.self, forKey: "seq")
        device = try DeviceObject(from: decoder)
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: MessageKey.self)
        try c.encode("deviceAdded", forKey: .type)
        try c.encode(seq, forKey: "seq")
        try device.encode(to: encoder)
    }
}

/// `deviceRemoved`: every stroke of the device still in progress was `cancelled` before it.
public struct DeviceRemoved: Codable, Sendable, Hashable {
    public var seq: UInt64
    public var device: UInt32

    public init(seq: UInt64, device: UInt32) {
        self.seq = seq
        self.device = device
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: MessageKey.self)
        seq = try c.decode(UInt64.self, forKey: "seq")
        device = try c.decode(UInt32.self, forKey: "device")
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: MessageKey.self)
        try c.encode("deviceRemoved", forKey: .type)
        try c.encode(seq, forKey: "seq")
        try c.encode(device, forKey: "device")
    }
}
