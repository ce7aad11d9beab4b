import StrokeClient
import SystemSupport
import XCTest

final class UnixSocketAddressTests: XCTestCase {
    func testLongestPathFitsAndOneMoreIsRejected() throws {
        let fits = "/" + String(repeating: "a", count: UnixSocketAddress.maxPathLength - 1)
        XCTAssertEqual(UnixSocketAddress.maxPathLength, 107)
        XCTAssertEqual(try UnixSocketAddress(path: fits).length, socklen_t(2 + 107 + 1))
        let long = fits + "b"
        XCTAssertThrowsError(try UnixSocketAddress(path: long)) { error in
            XCTAssertEqual((error as? UnixSocketAddress.PathTooLong)?.path, long)
            XCTAssertEqual("\(error)", "socket path too long (108 bytes, at most 107): \(long)")
        }
    }

    func testAbstractNamespaceHasNoTerminatingNul() throws {
        let address = try UnixSocketAddress(path: "@notify", abstractNamespace: true)
        XCTAssertEqual(address.length, socklen_t(2 + 7))
        address.withSockaddr { sa, _ in
            let path = UnsafeRawPointer(sa).advanced(by: 2).assumingMemoryBound(to: UInt8.self)
            XCTAssertEqual(path[0], 0)
            XCTAssertEqual(path[1], UInt8(ascii: "n"))
        }
        // Without the option, '@' is an ordinary first character of a path.
        XCTAssertEqual(try UnixSocketAddress(path: "@notify").length, socklen_t(2 + 7 + 1))
    }

    func testClientRejectsTooLongPathClearly() {
        let long = "/tmp/" + String(repeating: "x", count: 200)
        XCTAssertThrowsError(try LineSocket(path: long)) { error in
            XCTAssertTrue("\(error)".contains("socket path too long (205 bytes, at most 107)"), "\(error)")
        }
    }
}
