import Foundation
public import HostSystem

/// One URL handed to an app, as `UIOpenURLContext` carries it.
public struct OpenURLContextDescription: Codable, Hashable, Sendable {
    /// The URL (a file URL, or a custom-scheme URL).
    public var url: String
    /// `options.openInPlace`: the original, reached through a security scope (false: a copy the
    /// app owns, in `Documents/Inbox`).
    public var openInPlace: Bool
    /// `options.sourceApplication`: the sender's bundle identifier (nil across teams, or unknown).
    public var sourceApplication: String?
    /// The security-scope token of an in-place URL: the app registers the URL with it, and
    /// `startAccessingSecurityScopedResource()` asks the host to start it.
    public var scopeToken: String?

    /// A context.
    public init(url: String, openInPlace: Bool, sourceApplication: String? = nil, scopeToken: String? = nil) {
        self.url = url
        self.openInPlace = openInPlace
        self.sourceApplication = sourceApplication
        self.scopeToken = scopeToken
    }
}

/// An `NSUserActivity` handed to an app: a Shortcuts intent (`activityType` = the intent's class
/// name, `interaction.intent` with the parameters).
public struct UserActivityDescription: Codable, Hashable, Sendable {
    /// `activityType`.
    public var activityType: String
    /// The intent's class name (`INIntentClassName`).
    public var intentClassName: String
    /// The intent's parameters.
    public var parameters: [IntentParameterValue]

    /// An activity.
    public init(activityType: String, intentClassName: String, parameters: [IntentParameterValue]) {
        self.activityType = activityType
        self.intentClassName = intentClassName
        self.parameters = parameters
    }
}

/// One parameter value of an intent.
public struct IntentParameterValue: Codable, Hashable, Sendable {
    /// The parameter's name.
    public var name: String
    /// `string`, `file`, `url`, `number` or `bool`.
    public var kind: String
    /// A string or URL value.
    public var string: String?
    /// A number (or bool as 0/1).
    public var number: Double?
    /// A file's name (`INFile.filename`).
    public var filename: String?
    /// A file's type (`INFile.typeIdentifier`).
    public var typeIdentifier: String?
    /// A file's path, inside the app's container (`INFile.fileURL`).
    public var path: String?
    /// A file's size.
    public var bytes: Int?

    /// A value.
    public init(
        name: String, kind: String, string: String? = nil, number: Double? = nil, filename: String? = nil,
        typeIdentifier: String? = nil, path: String? = nil, bytes: Int? = nil
    ) {
        self.name = name
        self.kind = kind
        self.string = string
        self.number = number
        self.filename = filename
        self.typeIdentifier = typeIdentifier
        self.path = path
        self.bytes = bytes
    }
}

/// An App Intent to perform in the app (`AppIntent.perform()`), as Shortcuts runs it: the type
/// the app declares in `Metadata.appintents` and the parameters' values.
public struct AppIntentInvocation: Codable, Hashable, Sendable {
    /// The intent's type name (the key of `actions` in `extract.actionsdata`).
    public var typeName: String
    /// Its `mangledTypeName` from the metadata, when given.
    public var mangledTypeName: String?
    /// The parameters (`@Parameter`s, by name).
    public var parameters: [IntentParameterValue]
    /// `openAppWhenRun: false`: performed in a background launch without scenes.
    public var background: Bool

    /// An invocation.
    public init(typeName: String, mangledTypeName: String?, parameters: [IntentParameterValue], background: Bool) {
        self.typeName = typeName
        self.mangledTypeName = mangledTypeName
        self.parameters = parameters
        self.background = background
    }
}

/// How a URL reached an app's code, or did not.
public struct AppDelivery: Codable, Hashable, Sendable {
    /// The entry point that received the URL.
    public enum Method: String, Codable, Hashable, Sendable, CaseIterable {
        /// `scene(_:willConnectTo:options:)` read `connectionOptions.urlContexts` (a cold start).
        case willConnectTo
        /// `scene(_:openURLContexts:)` (the app was running).
        case openURLContexts
        /// `application(_:open:options:)` (an app without scenes).
        case applicationOpen = "application-open"
        /// `scene(_:willConnectTo:options:)` read `connectionOptions.userActivities` (a cold start).
        case userActivities
        /// `scene(_:continue:)` (the app was running).
        case sceneContinue = "scene-continue"
        /// `application(_:continue:restorationHandler:)` (an app without scenes).
        case applicationContinue = "application-continue"
        /// An App Intent's `perform()` ran in the app in the foreground (`openAppWhenRun: true`).
        case perform
        /// An App Intent's `perform()` ran in a background launch, without scenes.
        case performInBackground = "perform-in-background"
        /// No code of the app looked at the URL: it is lost.
        case lost
    }

    /// Where the URL arrived.
    public var method: Method
    /// Whether the app took it (`application(_:open:options:)` returned true; scene methods
    /// return nothing, so true once called).
    public var handled: Bool
    /// What happened, in words (for `lost`, which method the app lacks or never read).
    public var detail: String
    /// The URLs delivered.
    public var urls: [String]

    /// A delivery.
    public init(method: Method, handled: Bool, detail: String, urls: [String]) {
        self.method = method
        self.handled = handled
        self.detail = detail
        self.urls = urls
    }
}

/// One line of the host ↔ app channel (JSON, one object per line, on the app's fd 3).
///
/// Host → app: `launch` (first; the URLs of a cold start and whether to stay running), `open`
/// (a URL for the running app), `scopeReply`, `terminate`. App → host: `launched` (the launch
/// sequence ran; the delivery of the launch URLs), `delivered` (the answer to an `open`),
/// `startAccessing` / `stopAccessing` (a security scope, answered by `scopeReply`).
public struct AppMessage: Codable, Hashable, Sendable {
    /// The kinds of line.
    public enum Kind: String, Codable, Hashable, Sendable {
        /// Host → app: run the launch sequence.
        case launch
        /// Host → app: open URLs in the running app.
        case open
        /// Host → app: the answer to a scope request.
        case scopeReply
        /// Host → app: quit.
        case terminate
        /// Host → app: continue a user activity in the running app.
        case continueActivity
        /// Host → app: perform an App Intent in the running app.
        case performIntent
        /// App → host: launched.
        case launched
        /// App → host: the answer to `open`.
        case delivered
        /// App → host: `startAccessingSecurityScopedResource()`.
        case startAccessing
        /// App → host: `stopAccessingSecurityScopedResource()`.
        case stopAccessing
        /// App → host: read or write the general pasteboard.
        case pasteboard
        /// Host → app: the pasteboard after the request.
        case pasteboardReply
        /// App → host: Save to Files from the app's own sheet.
        case saveToFiles
        /// Host → app: what Save to Files wrote.
        case saveToFilesReply
    }

    /// The kind.
    public var kind: Kind
    /// Pairs a request with its answer.
    public var id: Int?
    /// `launch`, `open`: the URLs.
    public var urlContexts: [OpenURLContextDescription]?
    /// `launch`, `continueActivity`: user activities (a Shortcuts intent).
    public var userActivities: [UserActivityDescription]?
    /// `launch`: stay running after the launch sequence (`exthost app launch`).
    public var keepRunning: Bool?
    /// `launched`, `delivered`: what became of the URLs (nil: none were given).
    public var delivery: AppDelivery?
    /// `startAccessing`, `stopAccessing`: the scope's token.
    public var token: String?
    /// `scopeReply`: granted.
    public var granted: Bool?
    /// `launch`, `performIntent`: the App Intent to perform.
    public var appIntent: AppIntentInvocation?
    /// `pasteboard`: the request (its `requestID` is this line's ``id``).
    public var pasteboardRequest: PasteboardRequest?
    /// `pasteboardReply`: the answer.
    public var pasteboardReply: PasteboardReply?
    /// `saveToFiles`: the request.
    public var saveToFilesRequest: SaveToFilesRequest?
    /// `saveToFilesReply`: the answer.
    public var saveToFilesReply: SaveToFilesReply?

    /// A line.
    public init(
        _ kind: Kind, id: Int? = nil, urlContexts: [OpenURLContextDescription]? = nil,
        userActivities: [UserActivityDescription]? = nil, keepRunning: Bool? = nil, delivery: AppDelivery? = nil,
        token: String? = nil, granted: Bool? = nil, pasteboardRequest: PasteboardRequest? = nil,
        pasteboardReply: PasteboardReply? = nil, appIntent: AppIntentInvocation? = nil,
        saveToFilesRequest: SaveToFilesRequest? = nil, saveToFilesReply: SaveToFilesReply? = nil
    ) {
        self.kind = kind
        self.id = id
        self.urlContexts = urlContexts
        self.userActivities = userActivities
        self.keepRunning = keepRunning
        self.delivery = delivery
        self.token = token
        self.granted = granted
        self.pasteboardRequest = pasteboardRequest
        self.pasteboardReply = pasteboardReply
        self.appIntent = appIntent
        self.saveToFilesRequest = saveToFilesRequest
        self.saveToFilesReply = saveToFilesReply
    }

    /// The descriptor number of the channel in the app.
    public static var descriptorNumber: CInt { 3 }
    /// The environment variable that names the channel's descriptor in an app exthost runs.
    public static let channelVariable = "EXTHOST_APP_CHANNEL"
}

/// A channel of JSON lines over a connected socket: blocking reads, one line per message.
/// Lines longer than 1 MiB end the channel (a peer that never sends a newline).
public final class AppChannel: Sendable {
    private let socket: Socket
    private let buffer = Locked([UInt8]())
    /// Held while a line is written (counts the lines; a zero-sized value under the lock is
    /// reported as a race by ThreadSanitizer).
    private let writeLock = Locked(0)

    /// A channel on `socket` (owned: ``close()`` closes it).
    public init(socket: Socket) { self.socket = socket }

    /// Sends one message.
    /// - Throws: ``IPCError`` when it cannot be encoded or written.
    public func send(_ message: AppMessage) throws(IPCError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard var bytes = try? encoder.encode(message) else {
            throw IPCError(.malformedFrame, "cannot encode \(message.kind)")
        }
        bytes.append(UInt8(ascii: "\n"))
        do {
            try writeLock.withLock { lines throws(Errno) in
                try socket.sendAll(Array(bytes))
                lines += 1
            }
        } catch {
            throw IPCError.io("send", error)
        }
    }

    /// The next message, blocking; nil at the end of the channel (the peer closed it).
    /// - Throws: ``IPCError`` for a line that is not a message, or a read error.
    public func receive() throws(IPCError) -> AppMessage? {
        while true {
            if let line = buffer.withLock({ buffer -> [UInt8]? in
                guard let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
                let line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                return line
            }) {
                do {
                    return try JSONDecoder().decode(AppMessage.self, from: Data(line))
                } catch {
                    throw IPCError(
                        .malformedFrame, "not an app message: \(String(decoding: line.prefix(200), as: UTF8.self))")
                }
            }
            var chunk = [UInt8](repeating: 0, count: 16 * 1024)
            let received: Result<Int, Errno> = chunk.withUnsafeMutableBytes { raw in
                do throws(Errno) { return .success(try socket.receive(into: raw).byteCount) } catch {
                    return .failure(error)
                }
            }
            let count: Int
            switch received {
            case .success(let value): count = value
            case .failure(let error): throw IPCError.io("receive", error)
            }
            if count == 0 { return nil }
            let overlong = buffer.withLock { buffer in
                buffer.append(contentsOf: chunk[..<count])
                return buffer.count > 1 << 20
            }
            if overlong { throw IPCError(.frameTooLarge, "a line longer than 1 MiB") }
        }
    }

    /// Stops both directions (a blocked ``receive()`` returns nil).
    public func shutdown() {
        try? socket.descriptor.shutdownReading()
        try? socket.shutdownWriting()
    }

    /// Closes the socket.
    public func close() { try? socket.close() }
}
