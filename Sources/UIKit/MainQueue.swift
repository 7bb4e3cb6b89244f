import Dispatch

/// Work UIKit defers to the next turn of the main queue (animation completions, the end of a
/// presentation), as iOS runs it at the beginning of the next run-loop cycle.
package enum MainQueue {
    /// A closure made on the main actor, carried to the main queue.
    private final class Work: @unchecked Sendable {
        // Created on the main actor and run on the main queue (the main actor's executor): never
        // touched by two threads at once.
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    /// Runs `body` on the main actor at the next turn of the main queue.
    @MainActor
    package static func nextTurn(_ body: @escaping () -> Void) {
        let work = Work(body)
        DispatchQueue.main.async {
            MainActor.assumeIsolated { work.body() }
        }
    }
}
