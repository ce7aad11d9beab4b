import CLibevdev
import InputCore

/// Names of event types, codes and properties, from libevdev's tables (generated upstream from
/// the kernel headers), so they match what `evtest` and `libinput record` print.
public enum EventNames {
    /// `EV_ABS` for 3; nil for a type libevdev does not know.
    public static func typeName(_ type: EventType) -> String? {
        libevdev_event_type_get_name(UInt32(type.rawValue)).map { String(cString: $0) }
    }

    /// `ABS_MT_SLOT` for (3, 0x2f); nil for a code libevdev does not know.
    public static func codeName(_ type: EventType, _ code: UInt16) -> String? {
        libevdev_event_code_get_name(UInt32(type.rawValue), UInt32(code)).map { String(cString: $0) }
    }

    /// `INPUT_PROP_DIRECT` for 1.
    public static func propertyName(_ property: UInt16) -> String? {
        libevdev_property_get_name(UInt32(property)).map { String(cString: $0) }
    }

    /// The code named `name` (`"ABS_MT_SLOT"`), or nil.
    public static func code(named name: String) -> (type: EventType, code: UInt16)? {
        let type = libevdev_event_type_from_code_name(name)
        let code = libevdev_event_code_from_code_name(name)
        guard type >= 0, code >= 0 else { return nil }
        return (EventType(UInt16(type)), UInt16(code))
    }

    /// A code's name, or `type:code` in hex when libevdev has none.
    public static func describe(_ type: EventType, _ code: UInt16) -> String {
        codeName(type, code) ?? String(format16(type.rawValue)) + ":" + format16(code)
    }

    private static func format16(_ v: UInt16) -> String {
        let s = String(v, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, 2 - s.count)) + s
    }
}
