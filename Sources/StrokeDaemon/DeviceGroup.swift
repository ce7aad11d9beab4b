import SystemSupport

/// Which evdev nodes are one piece of hardware, after libinput's device groups
/// (`udev/libinput-device-group.c`: the parent's `phys` without its last component, keyed with
/// bus, vendor and product). A pen-and-touch screen exposes its pen and its fingers as two nodes
/// of one USB or I2C device: their `phys` differ only in the last component (`…-1/input0`,
/// `…-1/input1`), and a Bluetooth device's `uniq` names the device itself.
///
/// The rule: the same `uniq` when it is not empty; otherwise the same bus and vendor and the same
/// `phys` up to its last `/`. Devices without either are in no group.
public enum DeviceGroup {
    /// The group key of a live node (`/dev/input/eventN`), read from sysfs; nil when the node
    /// has neither `uniq` nor a usable `phys`.
    public static func key(eventNode path: String, bustype: UInt16, vendor: UInt16) -> String? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let sysfs = "/sys/class/input/\(name)/device/"
        func read(_ attribute: String) -> String {
            // A sysfs attribute is one short line; more than a page is not one.
            let text = ((try? Files.contents(of: sysfs + attribute, limit: 4096)) ?? nil).map { String(decoding: $0, as: UTF8.self) } ?? ""
            // Trimmed by hand: `trimmingCharacters(in:)` is Foundation's, with its ICU.
            return String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        }
        return key(phys: read("phys"), uniq: read("uniq"), bustype: bustype, vendor: vendor)
    }

    /// The group key for these attributes (`phys` and `uniq` as the kernel reports them).
    public static func key(phys: String, uniq: String, bustype: UInt16, vendor: UInt16) -> String? {
        if !uniq.isEmpty { return "uniq:\(uniq)" }
        guard let slash = phys.lastIndex(of: "/"), slash != phys.startIndex else { return nil }
        return "phys:\(bustype):\(vendor):\(phys[..<slash])"
    }
}
