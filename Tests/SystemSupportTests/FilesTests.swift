import SystemPackage
import SystemSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// What replaced Foundation's `FileManager`, `Data.write(to:options: .atomic)` and `Process`.
@Suite struct FilesTests {
    func temporaryDirectory() throws -> String {
        var template = Array("/tmp/strokes-files-XXXXXX".utf8CString)
        let made = try #require(mkdtemp(&template))
        return String(cString: made)
    }

    @Test func listsADirectoryWithoutDotEntries() throws {
        let dir = try temporaryDirectory()
        defer { for name in (try? Files.names(in: dir)) ?? [] { unlink(dir + "/" + name) }; rmdir(dir) }
        #expect(try Files.names(in: dir).isEmpty)
        for name in ["event3", "event12", "mouse0"] { try Files.writeAtomically(Array(name.utf8), to: dir + "/" + name) }
        #expect(try Files.names(in: dir).sorted() == ["event12", "event3", "mouse0"])
        #expect(throws: Errno.noSuchFileOrDirectory) { try Files.names(in: dir + "/missing") }
    }

    @Test func writesAtomicallyAndReadsBack() throws {
        let dir = try temporaryDirectory()
        defer { for name in (try? Files.names(in: dir)) ?? [] { unlink(dir + "/" + name) }; rmdir(dir) }
        let path = dir + "/out.svg"
        try Files.writeAtomically(Array("first".utf8), to: path)
        try Files.writeAtomically(Array("second, longer".utf8), to: path)
        #expect(try Files.contents(of: path) == Array("second, longer".utf8))
        #expect(try Files.names(in: dir) == ["out.svg"], "no temporary file is left")
        #expect(try Files.contents(of: path, limit: 6) == nil)
        var info = stat()
        #expect(stat(path, &info) == 0)
        let mask = umask(0)
        umask(mask)
        #expect(info.st_mode & 0o777 == 0o666 & ~mask, "created as open(2) creates files, not 0600")
        #expect(throws: Errno.noSuchFileOrDirectory) { try Files.writeAtomically([1], to: dir + "/no/such/dir/x") }
        #expect(try Files.names(in: dir) == ["out.svg"])
    }

    @Test func runsAProgramAndCapturesItsStandardError() throws {
        let (ended, errors) = try ChildProcess.run("sh", arguments: ["-c", "echo oops >&2; exit 3"])
        #expect(ended == .exited(3))
        #expect(String(decoding: errors, as: UTF8.self) == "oops\n")
        #expect(try ChildProcess.run("true", arguments: []).0 == .exited(0))
        #expect(try ChildProcess.run("sh", arguments: ["-c", "kill -9 $$"]).0 == .signalled(9))
        #expect(throws: Errno.noSuchFileOrDirectory) { try ChildProcess.run("strokes-no-such-program", arguments: []) }
    }
}
