import CLibevdev
import InputCore

/// libevdev handles made by strokes itself rather than from a node.
enum Libevdev {
    /// A libevdev device with no descriptor that declares what `description` declares: its
    /// name, ids, properties, codes and axis ranges (fuzz 0). Nil when libevdev cannot allocate.
    /// The caller frees it (`libevdev_free`), or hands it to uinput.
    static func make(declaring description: DeviceDescription) -> OpaquePointer? {
        guard let dev = libevdev_new() else { return nil }
        libevdev_set_name(dev, description.name.isEmpty ? "strokes virtual device" : description.name)
        libevdev_set_id_bustype(dev, Int32(description.id.bustype))
        libevdev_set_id_vendor(dev, Int32(description.id.vendor))
        libevdev_set_id_product(dev, Int32(description.id.product))
        libevdev_set_id_version(dev, Int32(description.id.version))
        for property in description.properties.sorted() {
            _ = libevdev_enable_property(dev, UInt32(property))
        }
        for (type, codes) in description.codes.sorted(by: { $0.key < $1.key }) where type != .syn {
            // EV_REP carries values, not capabilities; uinput devices repeat with the kernel's defaults.
            if type == .rep { continue }
            _ = libevdev_enable_event_type(dev, UInt32(type.rawValue))
            for code in codes.sorted() {
                if type == .abs {
                    let a = description.absInfo[code] ?? AbsInfo(minimum: 0, maximum: 0)
                    var info = input_absinfo(
                        value: a.value, minimum: a.minimum, maximum: a.maximum, fuzz: 0, flat: a.flat,
                        resolution: a.resolution)
                    _ = libevdev_enable_event_code(dev, UInt32(type.rawValue), UInt32(code), &info)
                } else {
                    _ = libevdev_enable_event_code(dev, UInt32(type.rawValue), UInt32(code), nil)
                }
            }
        }
        return dev
    }
}
