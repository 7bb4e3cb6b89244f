public import Foundation

extension FileManager {
    /// The shared container of an App Group: nil unless the process's entitlements list the
    /// group (as on iOS, where the entitlement `com.apple.security.application-groups` decides).
    ///
    /// The container exists from install on (`exthost install` makes every group an app's
    /// entitlements name).
    public func containerURL(forSecurityApplicationGroupIdentifier groupIdentifier: String) -> URL? {
        ProcessIdentity.groupContainer(groupIdentifier)
    }
}

/// How `Progress()` exists on Linux: swift-corelibs-foundation only has `init(totalUnitCount:)`,
/// and an extension cannot add `init()` to an `NSObject` subclass, so `Progress` gains it through
/// this protocol.
public protocol IndeterminateProgress {}

extension Progress: IndeterminateProgress {}

extension IndeterminateProgress where Self == Progress {
    /// A progress with an indeterminate total (`-1`), not attached to a parent: Apple's `Progress()`.
    public init() {
        self = Progress(totalUnitCount: -1)
    }
}

/// The key under which Safari's JavaScript preprocessing results (the dictionary the page's
/// `completionFunction` received) are found in the property list an extension loads.
public let NSExtensionJavaScriptPreprocessingResultsKey = "NSExtensionJavaScriptPreprocessingResultsKey"

/// The key of a dictionary that carries the results of a JavaScript finalize function back.
public let NSExtensionJavaScriptFinalizeArgumentKey = "NSExtensionJavaScriptFinalizeArgumentKey"

/// `NSFileCoordinator`: coordinates reads and writes of a file. On the emulated device no other
/// process presents the files an extension touches, so coordination runs the accessor at once
/// with the URL itself (the same order of events a device shows when nobody else holds the file).
open class NSFileCoordinator: NSObject {
    /// Options for coordinated reading.
    public struct ReadingOptions: OptionSet, Sendable {
        /// The raw value.
        public let rawValue: UInt
        /// An option set.
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// Do not trigger the presenters' save.
        public static let withoutChanges = ReadingOptions(rawValue: 1 << 0)
        /// Resolve a symbolic link at the URL.
        public static let resolvesSymbolicLink = ReadingOptions(rawValue: 1 << 1)
        /// Read an immutable snapshot.
        public static let immediatelyAvailableMetadataOnly = ReadingOptions(rawValue: 1 << 2)
        /// A directory is read as a zip archive.
        public static let forUploading = ReadingOptions(rawValue: 1 << 3)
    }

    /// Options for coordinated writing.
    public struct WritingOptions: OptionSet, Sendable {
        /// The raw value.
        public let rawValue: UInt
        /// An option set.
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// The item will be deleted.
        public static let forDeleting = WritingOptions(rawValue: 1 << 0)
        /// The item will be moved.
        public static let forMoving = WritingOptions(rawValue: 1 << 1)
        /// The contents will be merged.
        public static let forMerging = WritingOptions(rawValue: 1 << 2)
        /// The item will be replaced.
        public static let forReplacing = WritingOptions(rawValue: 1 << 3)
        /// The content's metadata changes.
        public static let contentIndependentMetadataOnly = WritingOptions(rawValue: 1 << 4)
    }

    /// A coordinator (no file presenter).
    public override init() { super.init() }

    /// Runs `reader` with `url` for a coordinated read; `outError` stays nil.
    open func coordinate(
        readingItemAt url: URL, options: ReadingOptions = [], error outError: NSErrorPointer,
        byAccessor reader: (URL) -> Void
    ) {
        reader(url)
    }

    /// Runs `writer` with `url` for a coordinated write; `outError` stays nil.
    open func coordinate(
        writingItemAt url: URL, options: WritingOptions = [], error outError: NSErrorPointer,
        byAccessor writer: (URL) -> Void
    ) {
        writer(url)
    }
}

/// Where a coordinator stores an error: Apple's `NSErrorPointer` (an `AutoreleasingUnsafeMutablePointer`
/// there; Linux has none, so a plain pointer: `&error` and `nil` read the same).
public typealias NSErrorPointer = UnsafeMutablePointer<NSError?>?
