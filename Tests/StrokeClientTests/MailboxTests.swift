@testable import StrokeClient
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
}
