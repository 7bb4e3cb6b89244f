import ExtensionIPC
public import Foundation
import ItemProviders

// The Foundation pieces share extensions call that swift-corelibs-foundation does not have.

extension URL {
    /// Starts access to a security-scoped URL (one `loadInPlaceFileRepresentation` handed out):
    /// true when the host grants it; opening the file works until the balancing
    /// ``stopAccessingSecurityScopedResource()``. False for a URL that is not security-scoped.
    public func startAccessingSecurityScopedResource() -> Bool { SecurityScope.start(self) }

    /// Ends one successful ``startAccessingSecurityScopedResource()``.
    public func stopAccessingSecurityScopedResource() { SecurityScope.stop(self) }

    /// The process's `Library/Application Support` (in its container when exthost started it).
    public static var applicationSupportDirectory: URL { library("Application Support") }
    /// The process's `Library/Caches`.
    public static var cachesDirectory: URL { library("Caches") }
    /// The process's `Documents`.
    public static var documentsDirectory: URL { home.appendingPathComponent("Documents", isDirectory: true) }
    /// The process's `Library`.
    public static var libraryDirectory: URL { home.appendingPathComponent("Library", isDirectory: true) }

    private static var home: URL {
        ProcessIdentity.environment.map { URL(fileURLWithPath: $0.containerPath, isDirectory: true) }
            ?? URL(fileURLWithPath: NSHomeDirectory(), isDirectory: true)
    }

    private static func library(_ name: String) -> URL {
        libraryDirectory.appendingPathComponent(name, isDirectory: true)
    }
}

/// A file or folder held in memory (`FileWrapper`): what extensions use to write a document they
/// built, or to read a package.
open class FileWrapper: NSObject, @unchecked Sendable {
    /// How to read a wrapper.
    public struct ReadingOptions: OptionSet, Sendable {
        /// The raw value.
        public let rawValue: UInt
        /// Options.
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// Read everything now.
        public static let immediate = ReadingOptions(rawValue: 1 << 0)
        /// Do not map the file.
        public static let withoutMapping = ReadingOptions(rawValue: 1 << 1)
    }

    /// How to write a wrapper.
    public struct WritingOptions: OptionSet, Sendable {
        /// The raw value.
        public let rawValue: UInt
        /// Options.
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// Write to a temporary place, then move it.
        public static let atomic = WritingOptions(rawValue: 1 << 0)
        /// Remember the file names written.
        public static let withNameUpdating = WritingOptions(rawValue: 1 << 1)
    }

    private enum Contents {
        case file(Data)
        case folder([String: FileWrapper])
    }

    private var contents: Contents
    /// The name it was read under or last written as.
    open var filename: String?
    /// The name to write it as.
    open var preferredFilename: String?

    /// A wrapper of a regular file's bytes.
    public init(regularFileWithContents contents: Data) {
        self.contents = .file(contents)
        super.init()
    }

    /// A wrapper of a folder holding `childrenByPreferredName`.
    public init(directoryWithFileWrappers childrenByPreferredName: [String: FileWrapper]) {
        for (name, child) in childrenByPreferredName where child.preferredFilename == nil {
            child.preferredFilename = name
        }
        contents = .folder(childrenByPreferredName)
        super.init()
    }

    /// A wrapper of what is at `url` (a file, or a folder read recursively).
    /// - Throws: the read's error.
    public init(url: URL, options: ReadingOptions = []) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: url.path])
        }
        if isDirectory.boolValue {
            var children: [String: FileWrapper] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: url.path) {
                children[name] = try FileWrapper(url: url.appendingPathComponent(name), options: options)
            }
            contents = .folder(children)
        } else {
            contents = .file(try Data(contentsOf: url))
        }
        filename = url.lastPathComponent
        preferredFilename = url.lastPathComponent
        super.init()
    }

    /// Whether it is a regular file.
    open var isRegularFile: Bool { if case .file = contents { true } else { false } }
    /// Whether it is a folder.
    open var isDirectory: Bool { if case .folder = contents { true } else { false } }
    /// A regular file's bytes.
    open var regularFileContents: Data? { if case .file(let data) = contents { data } else { nil } }
    /// A folder's children by name.
    open var fileWrappers: [String: FileWrapper]? { if case .folder(let children) = contents { children } else { nil } }

    /// Writes the wrapper to `url` (atomically with `.atomic`).
    /// - Throws: the write's error.
    open func write(to url: URL, options: WritingOptions = [], originalContentsURL: URL?) throws {
        switch contents {
        case .file(let data):
            try data.write(to: url, options: options.contains(.atomic) ? .atomic : [])
        case .folder(let children):
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            for (name, child) in children {
                try child.write(to: url.appendingPathComponent(name), options: options, originalContentsURL: nil)
            }
        }
        if options.contains(.withNameUpdating) { filename = url.lastPathComponent }
    }
}
