import ExtensionIPC
import ExtensionRuntime
public import Foundation
import ItemProviders

/// The principal class of a non-UI extension: iOS makes one and hands it the request
/// (`NSExtensionRequestHandling`).
///
/// `init()` is a requirement here (on iOS the system makes the principal class from
/// `NSExtensionPrincipalClass`): Swift on Linux can build an object from its class only through a
/// required initializer, so a non-`final` principal class declares `required override init()`.
@MainActor
public protocol NSExtensionRequestHandling: NSObjectProtocol {
    /// A principal object.
    init()
    /// Begins the request: read `context.inputItems`, load the attachments, then call
    /// `completeRequest` or `cancelRequest` — after the loads have finished.
    func beginRequest(with context: NSExtensionContext)
}

/// The extension's entry point: `exit(NSExtensionMain(ShareHandler.self))` in `main.swift`.
///
/// Connects to the host exthost started the process from, makes one `principalClass` object and
/// calls ``NSExtensionRequestHandling/beginRequest(with:)`` on the main actor, runs the main run
/// loop until the request completes or is cancelled (never earlier, whatever the handler does
/// meanwhile), tells the host, and returns the exit status: 0 when the request completed, 1 when
/// it was cancelled or no host was there.
@MainActor
public func NSExtensionMain<Principal: NSExtensionRequestHandling>(_ principalClass: Principal.Type) -> Int32 {
    let ending = RequestEnding()
    Task { @MainActor in
        ending.status = await ExtensionRuntime.main(name: ProcessIdentity.environment?.bundleIdentifier) {
            context, environment in
            ExtensionLog.attach(environment)
            let principal = Principal()
            principal.beginRequest(with: NSExtensionContext(model: context, environment: environment))
            // The principal lives as long as the request does, as on iOS.
            _ = await context.outcome()
            withExtendedLifetime(principal) {}
        }
    }
    while ending.status == nil {
        _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.05))
    }
    return ending.status ?? 1
}

@MainActor
private final class RequestEnding {
    var status: Int32?
}
