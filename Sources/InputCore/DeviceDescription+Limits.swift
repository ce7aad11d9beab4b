extension DeviceDescription {
    /// Most multitouch slots strokes decodes. The anchor is libevdev: `sync_mt_state()`
    /// (libevdev.c) resynchronises at most `MAX_SLOTS` = 256 slots after a `SYN_DROPPED`, so no
    /// libevdev client reads a device with more correctly; real hardware reports 2 to 20. A
    /// recording that declares more is refused by its reader, a live device by the decoder.
    public static let maxSlots = 256
}
