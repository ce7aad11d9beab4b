import Foundation
@testable import StrokeClient
import StrokeProtocol
import Testing

/// The reader's hand-over is bounded in bytes as well as in messages (adversary script 22: lines
/// of 4 MiB behind a stopped consumer grew the client past 500 MB within 8192 messages).
@Suite struct MailboxTests {
    @Test func itemsPastTheByteCapacityAreRefusedButOneAloneIsTaken() async throws {
        let mailbox = Mailbox<Int>(capacity: 100, bytes: 1000)
        #expect(mailbox.offer(1, bytes: 5000) == .taken)  // alone: taken, whatever its size
        #expect(mailbox.offer(2, bytes: 1) == .full)
        #expect(try await mailbox.take() == 1)
        #expect(mailbox.offer(3, bytes: 600) == .taken)
        #expect(mailbox.offer(4, bytes: 400) == .taken)
        #expect(mailbox.offer(5, bytes: 1) == .full)
        #expect(try await mailbox.take() == 3)
        #expect(mailbox.offer(6, bytes: 600) == .taken)  // 400 + 600: the bytes taken were freed
        #expect(mailbox.offer(7, bytes: 1) == .full)
    }

    @Test func theMessageCountStillBounds() {
        let mailbox = Mailbox<Int>(capacity: 2, bytes: 1 << 20)
        #expect(mailbox.offer(1, bytes: 1) == .taken)
        #expect(mailbox.offer(2, bytes: 1) == .taken)
        #expect(mailbox.offer(3, bytes: 1) == .full)
    }

    /// A message of an unknown type is kept as a `JSONValue` tree, many times its line (adversary
    /// script 22: 16 MiB of such lines held ~320 MB): it is charged at the tree.
    @Test func anUnknownMessageIsChargedAtWhatItsTreeHolds() throws {
        let line = Array(("{\"type\":\"bulk\",\"a\":[" + Array(repeating: "0", count: 10_000).joined(separator: ",") + "]}").utf8)
        let message = try ServerMessage.decode(Data(line))
        guard case .unknown(let type, _) = message else { Issue.record("decoded as \(message)"); return }
        #expect(type == "bulk")
        let cost = StrokeConnection.cost(of: message, line: line)
        #expect(cost >= 10_000 * MemoryLayout<JSONValue>.stride)
        #expect(cost > 5 * line.count)
        // A known message counts for its line.
        let hello = Array(#"{"type":"hello","protocol":1,"daemon":"d","instance":"i","seq":0,"features":[],"maxLineLength":65536}"#.utf8)
        #expect(StrokeConnection.cost(of: try ServerMessage.decode(Data(hello)), line: hello) == hello.count)
    }

    @Test func aTreesEstimateCountsStringsKeysAndNesting() {
        let stride = MemoryLayout<JSONValue>.stride
        #expect(JSONValue.integer(1).memoryEstimate == stride)
        #expect(JSONValue.string("short").memoryEstimate == stride)
        #expect(JSONValue.string(String(repeating: "x", count: 100)).memoryEstimate == stride + 132)
        let nested = JSONValue.array([.array([.integer(1), .integer(2)])])
        #expect(nested.memoryEstimate == (stride + 32) + (stride + 32) + 2 * stride)
        let object = JSONValue.object([String(repeating: "k", count: 20): .integer(1)])
        #expect(object.memoryEstimate > 52 + stride)
    }
}
