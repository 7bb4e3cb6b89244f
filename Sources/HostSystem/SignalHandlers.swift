import Dispatch

#if canImport(Glibc)
import Glibc
#endif

/// Handlers of some signals while this value lives: each delivery calls the handler (on a
/// Dispatch queue, so it may do anything), and the signals no longer end the process.
///
/// `@unchecked Sendable`: the signal sources are only kept alive (never changed after `init`).
public final class SignalHandlers: @unchecked Sendable {
    private let sources: [any DispatchSourceSignal]

    /// Calls `handler` on each of `signals`.
    ///
    /// The corresponding C function is `signal(SIG_IGN)`, then a Dispatch signal source per signal.
    public init(_ signals: [Signal], _ handler: @escaping @Sendable () -> Void) {
        sources = signals.map { signal in
            Glibc.signal(signal.rawValue, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signal.rawValue, queue: .global())
            source.setEventHandler(handler: handler)
            source.resume()
            return source
        }
    }

    deinit { for source in sources { source.cancel() } }
}
