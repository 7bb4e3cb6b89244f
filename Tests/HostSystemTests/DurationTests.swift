import HostSystem
import Testing

/// The one Duration-to-milliseconds conversion.
struct DurationTests {
    @Test func millisecondsKeepTheFraction() {
        #expect(Duration.seconds(2).milliseconds == 2000)
        #expect(Duration.microseconds(1500).milliseconds == 1.5)
        #expect(Duration.milliseconds(-250).milliseconds == -250)
        #expect(Duration.zero.milliseconds == 0)
    }

    /// A fraction of a millisecond waits a whole one; a negative timeout does not wait (`poll`
    /// would read a negative count as "forever").
    @Test func pollRoundsUpAndNeverWaitsForeverOnANegativeTimeout() throws {
        let (a, b) = try Socket.pair()
        defer {
            try? a.close()
            try? b.close()
        }
        #expect(try b.descriptor.poll(for: .readable, timeout: .nanoseconds(1)).isEmpty)
        #expect(try b.descriptor.poll(for: .readable, timeout: .milliseconds(-5)).isEmpty)
    }
}
