import SystemPackage
import SystemSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Settings files are regular files of bounded size: a FIFO, a device or a directory is refused
/// before anything is read (a FIFO without a writer blocked the daemon's reload for good).
@Suite struct SettingsFileTests {
    @Test func readsARegularFileAndRefusesTheRestWithoutBlocking() throws {
        var template = Array("/tmp/strokes-settings-XXXXXX".utf8CString)
        let dir = String(cString: try #require(mkdtemp(&template)))
        defer {
            for name in ["ok.yaml", "big.yaml", "fifo", "link"] { unlink(dir + "/" + name) }
            rmdir(dir)
        }
        try Files.writeAtomically(Array("a: 1\n".utf8), to: dir + "/ok.yaml")
        #expect(try SettingsFile.read(dir + "/ok.yaml", limit: 5) == Array("a: 1\n".utf8))
        #expect(throws: SettingsFile.Failure.tooLarge(limit: 4)) { try SettingsFile.read(dir + "/ok.yaml", limit: 4) }
        #expect(SettingsFile.Failure.tooLarge(limit: 1 << 20).description == "larger than 1 MiB")

        // No writer: opening it blocks without O_NONBLOCK, reading it blocks without the check.
        #expect(mkfifo(dir + "/fifo", 0o600) == 0)
        #expect(throws: SettingsFile.Failure.notARegularFile(kind: "a FIFO")) { try SettingsFile.read(dir + "/fifo", limit: 1024) }
        #expect(throws: SettingsFile.Failure.notARegularFile(kind: "a directory")) { try SettingsFile.read(dir, limit: 1024) }
        // Symbolic links are followed: to an endless device, refused as the device.
        #expect(symlink("/dev/zero", dir + "/link") == 0)
        #expect(throws: SettingsFile.Failure.notARegularFile(kind: "a character device")) { try SettingsFile.read(dir + "/link", limit: 1024) }
        #expect(throws: SettingsFile.Failure.cannotOpen(.noSuchFileOrDirectory)) { try SettingsFile.read(dir + "/missing", limit: 1024) }
        // The usual "no settings": empty, not refused.
        #expect(try SettingsFile.read("/dev/null", limit: 1024) == [])
    }
}
