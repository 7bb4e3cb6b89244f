import ExtensionIPC
package import ExtensionRuntime
public import Foundation
import HostSystem
import ItemProviders

/// Apple's `NSExtensionRequestHandling`: the principal class of a non-UI extension, which iOS makes
/// from `NSExtensionPrincipalClass` and hands the request.
///
/// Declared as Apple declares it: one requirement, not isolated to the main actor (so a Swift 5
/// extension appending to a local array from a load's completion handler compiles).
/// ``beginRequest(with:)`` is still called on the main thread, as on iOS.
///
/// The principal class is made as iOS makes it (`[[cls alloc] init]`): through the `init()` it
/// inherits from `NSObject` or overrides. It needs no `required` initializer and need not be
/// `final`; it must be an `NSObject` subclass.
public protocol NSExtensionRequestHandling: NSObjectProtocol {
    /// Begins the request: read `context.inputItems`, load the attachments, then call
    /// `completeRequest` or `cancelRequest` — after the loads have finished.
    func beginRequest(with context: NSExtensionContext)
}

/// The extension's entry point in an executable: `exit(NSExtensionMain(ShareHandler.self))` in
/// `main.swift` (an extension built as a dynamic library needs none: exthost makes the principal
/// class its `Info.plist` names, as iOS does).
///
/// Connects to the host exthost started the process from, makes one `principalClass` object and
/// calls ``NSExtensionRequestHandling/beginRequest(with:)`` on the main thread, runs the main run
/// loop — waking only for work, never polling — until the request completes or is cancelled (never
/// earlier, whatever the handler does meanwhile), tells the host, and returns the exit status: 0
/// when the request completed, 1 when it was cancelled or no host was there.
///
/// Not isolated, so top-level code of a Swift 5 `main.swift` calls it; call it from the main thread
/// (top-level code is), which it then runs as the extension's main thread.
public func NSExtensionMain<Principal: NSExtensionRequestHandling>(_ principalClass: Principal.Type) -> Int32 {
    // A metatype is not Sendable; the class is only read on the main thread.
    let type = UncheckedBox<AnyClass>(principalClass)
    return ExtensionProcess.run { context, environment in
        let name = String(reflecting: type.value)
        guard let principal = ClassMetadata(type.value).makeThroughNSObjectInit() as? any NSExtensionRequestHandling
        else {
            throw ExtensionBundleError(
                "the principal class \(name) is not an NSObject subclass: exthost makes it as iOS does, through "
                    + "NSObject's init()")
        }
        environment.report(
            principal: PrincipalDescription(
                className: name, source: .extensionMain, kind: .requestHandler, initializer: "init()"))
        principal.beginRequest(with: context)
        return ExtensionPrincipalRun(object: principal)
    }
}

/// What runs an extension's request: the principal object (kept alive until the request ends) and
/// what to finish once it has ended, before the host is told (a view controller's sheet closing
/// and its screens sent).
package struct ExtensionPrincipalRun {
    /// The principal object.
    package var object: AnyObject?
    /// Runs once the request has ended, before the runtime tells the host.
    package var whenRequestEnds: (@MainActor () async -> Void)?

    /// A run.
    package init(object: AnyObject?, whenRequestEnds: (@MainActor () async -> Void)? = nil) {
        self.object = object
        self.whenRequestEnds = whenRequestEnds
    }
}

/// A bundle the extension process cannot run as it stands: a principal class that does not exist
/// or is neither a view controller nor a request handler, a storyboard that cannot be read. The
/// host reports it as bad input naming the file and line (`exthost share` exits 2); no code of the
/// extension has run.
package struct ExtensionBundleError: Error, CustomStringConvertible {
    /// What is wrong, in words.
    package var message: String
    /// The file (an `Info.plist`, a storyboard).
    package var file: String?
    /// The 1-based line in ``file``.
    package var line: Int?
    /// The 1-based column in ``file``.
    package var column: Int?

    /// An error.
    package init(_ message: String, file: String? = nil, line: Int? = nil, column: Int? = nil) {
        self.message = message
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:column: message`.
    package var description: String {
        guard let file else { return message }
        return "\(file)\(line.map { ":\($0)" } ?? "")\(column.map { ":\($0)" } ?? ""): \(message)"
    }
}

/// The life of an extension process: connect to the host, run the principal on the main thread
/// (servicing the main run loop), end when the request does.
package enum ExtensionProcess {
    /// Runs one request: connects, calls `begin` on the main actor with the request's context (the
    /// principal object it returns lives until the request ends, and its `whenRequestEnds` runs
    /// then), and returns the exit status.
    ///
    /// Runs the main run loop on the calling thread, which must be the main thread: main-actor
    /// work (the principal's calls, the view controller's life cycle) runs there, and the loop
    /// sleeps in the kernel between events. An ``ExtensionBundleError`` thrown by `begin` goes to
    /// the host as bad input before anything else happens.
    package static func run(
        _ begin: @escaping @MainActor (NSExtensionContext, ExtensionRuntime.Environment) throws -> ExtensionPrincipalRun
    ) -> Int32 {
        guard Thread.isMainThread else {
            ExtensionRuntime.printError(
                "NSExtensionMain must be called on the main thread (from main.swift's top-level code): "
                    + "the principal's calls and the main run loop run there")
            return 1
        }
        let ending = Locked<Int32?>(nil)
        Task { @MainActor in
            let status = await ExtensionRuntime.main(name: ProcessIdentity.environment?.bundleIdentifier) {
                context, environment in
                ExtensionLog.attach(environment)
                GroupDefaultsMirror.start(environment)
                let nsContext = NSExtensionContext(model: context, environment: environment)
                let principal: ExtensionPrincipalRun
                do {
                    principal = try begin(nsContext, environment)
                } catch let error as ExtensionBundleError {
                    throw BundleFailure(
                        message: error.message, file: error.file, line: error.line, column: error.column)
                }
                // The principal lives as long as the request does, as on iOS.
                _ = await context.outcome()
                GroupDefaultsMirror.synchronize(reason: "the request ended")
                await principal.whenRequestEnds?()
                withExtendedLifetime(principal.object) {}
            }
            ending.withLock { $0 = status }
        }
        // Each pass handles one event (a main-queue drain, a timer) and returns; the loop sleeps in
        // the kernel meanwhile.
        while ending.withLock({ $0 }) == nil {
            _ = RunLoop.main.run(mode: .default, before: .distantFuture)
        }
        return ending.withLock { $0 } ?? 1
    }
}
