import Foundation
import Testing

/// `systemd/strokes.service.d/http.conf.example`: the drop-in that opens the unit's network for
/// the HTTP listener, verified with the unit as the shipped units are (CLITests).
@Suite struct SystemdDropInTests {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// `systemd-analyze verify` of the unit with the drop-ins `dropIns` (name → text); its output.
    func verify(_ dropIns: [String: String]) throws -> (status: Int32, output: String) {
        let dir = NSTemporaryDirectory() + "strokes-dropin-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir + "/strokes.service.d", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for unit in ["strokes.service", "strokes.socket"] {
            let text = try String(contentsOf: SystemdDropInTests.repo.appendingPathComponent("systemd/" + unit), encoding: .utf8)
            // The installed binary is not there: any executable does for verification.
            try text.replacingOccurrences(of: "/usr/local/bin/strokes", with: "/bin/true")
                .write(toFile: dir + "/" + unit, atomically: true, encoding: .utf8)
        }
        for (name, text) in dropIns { try text.write(toFile: dir + "/strokes.service.d/" + name, atomically: true, encoding: .utf8) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/systemd-analyze")
        p.arguments = ["verify", dir + "/strokes.socket", dir + "/strokes.service"]
        let out = Pipe()
        p.standardError = out
        p.standardOutput = out
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return (p.terminationStatus, text)
    }

    @Test func theHTTPDropInPassesVerify() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze") else {
            Issue.record("systemd-analyze is missing: Scripts/setup.sh installs systemd")
            return
        }
        let example = try String(
            contentsOf: SystemdDropInTests.repo.appendingPathComponent("systemd/strokes.service.d/http.conf.example"), encoding: .utf8)
        for line in ["PrivateNetwork=no", "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6", "IPAddressDeny=any", "IPAddressAllow=localhost"] {
            #expect(example.contains(line + "\n"), "\(line)")
        }
        let r = try verify(["http.conf": example])
        #expect(r.status == 0, "\(r.output)")
        #expect(r.output.isEmpty, "\(r.output)")
        // The drop-in directory is read: a wrong key in it is reported.
        let bad = try verify(["http.conf": example + "PrivateNetwrok=no\n"])
        #expect(bad.output.contains("PrivateNetwrok"))
    }
}
