public import HostSystem

/// Who may see a representation: Apple's `NSItemProviderRepresentationVisibility`.
///
/// A representation the consumer may not see behaves as if it had never been registered: it is
/// left out of ``ItemProvider/registeredTypeIdentifiers``, of the conformance checks and of the
/// loads. Which consumer is asking is ``ItemProvider/consumer``.
public enum RepresentationVisibility: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Every process (`.all`, 0).
    case all
    /// Processes of the same developer team (`.team`, 1; iOS only).
    case team
    /// Processes of the same App Group (`.group`, 2; macOS only, so never visible to another
    /// process on iOS).
    case group
    /// Only the originating process (`.ownProcess`, 3).
    case ownProcess

    /// `all`, `team`, `group` or `ownProcess`.
    public var description: String { rawValue }
}

/// Who loads from an item provider, which decides the representations it can see.
public enum ProviderConsumer: String, Sendable, Hashable, CaseIterable {
    /// The process that registered the representations: sees everything.
    case ownProcess
    /// Another process of the same team (an app's own share extension): sees `.all` and `.team`.
    case sameTeam
    /// Another team's process (a share extension receiving from another app): sees only `.all`.
    case otherTeam

    /// Whether this consumer sees a representation registered with `visibility` (iOS rules:
    /// `.group` is unavailable on iOS, so only the originating process sees it).
    public func sees(_ visibility: RepresentationVisibility) -> Bool {
        switch (self, visibility) {
        case (.ownProcess, _), (_, .all): true
        case (.sameTeam, .team): true
        default: false
        }
    }
}

/// File options for the file-representation queries (`NSItemProviderFileOptions`).
public struct FileOptions: OptionSet, Sendable, Hashable {
    /// The raw bits.
    public var rawValue: Int
    /// Wraps raw bits.
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// Only file representations registered as open-in-place.
    public static let openInPlace = FileOptions(rawValue: 1)
}

/// `preferredPresentationSize`: a width and a height (CGSize has no Linux home in this package).
public struct PresentationSize: Sendable, Hashable, CustomStringConvertible {
    /// The width, in points.
    public var width: Double
    /// The height, in points.
    public var height: Double
    /// A size.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
    /// 0 × 0, Apple's "no preference".
    public static let zero = PresentationSize(width: 0, height: 0)
    /// `W×H`.
    public var description: String { "\(width)×\(height)" }
}

/// A representation that arrives as an open file descriptor (the sandboxed extension receives
/// the host's file over `SCM_RIGHTS`).
public struct DescriptorRepresentation: Sendable {
    /// The open, readable descriptor.
    public var descriptor: FileDescriptor
    /// The size in bytes when the sender knows it.
    public var byteCount: Int64?
    /// The name of the shared file the descriptor reads, which its temporary copy keeps as it is
    /// (`IMG_1320.PNG`), as a device hands a file over; nil for data the sender wrote to a file.
    public var fileName: String?
    /// The name data gets when it has no ``fileName``: this plus the type's preferred filename
    /// extension (the provider's ``ItemProvider/suggestedName`` when nil).
    public var suggestedName: String?
    /// Whether the loads close the descriptor once they have read it.
    public var closesDescriptor: Bool

    /// A descriptor representation.
    public init(
        descriptor: FileDescriptor, byteCount: Int64? = nil, fileName: String? = nil, suggestedName: String? = nil,
        closesDescriptor: Bool = true
    ) {
        self.descriptor = descriptor
        self.byteCount = byteCount
        self.fileName = fileName
        self.suggestedName = suggestedName
        self.closesDescriptor = closesDescriptor
    }
}

/// One registered representation, as the host reports it.
public struct RegisteredRepresentation: Sendable, Hashable, CustomStringConvertible {
    /// How a representation is backed.
    public enum Kind: String, Sendable, Hashable, CustomStringConvertible {
        /// Data-backed (`registerDataRepresentation`, or an object such as a string or URL).
        case data
        /// File-backed, copied for the consumer (`registerFileRepresentation`).
        case file
        /// File-backed, registered open-in-place.
        case openInPlace
        /// An open descriptor, copied for the consumer.
        case descriptor
        /// An open descriptor registered open-in-place.
        case descriptorInPlace

        /// Whether the representation is file-backed (a file or a descriptor).
        public var isFileBacked: Bool { self != .data }
        /// Whether it was registered open-in-place.
        public var isOpenInPlace: Bool { self == .openInPlace || self == .descriptorInPlace }
        /// `data`, `file`, `openInPlace`, `descriptor` or `descriptorInPlace`.
        public var description: String { rawValue }
    }

    /// The uniform type identifier it was registered for.
    public var typeIdentifier: String
    /// How it is backed.
    public var kind: Kind
    /// Who may see it.
    public var visibility: RepresentationVisibility

    /// A registered representation.
    public init(typeIdentifier: String, kind: Kind, visibility: RepresentationVisibility) {
        self.typeIdentifier = typeIdentifier
        self.kind = kind
        self.visibility = visibility
    }

    /// `type (kind, visibility)`.
    public var description: String { "\(typeIdentifier) (\(kind), \(visibility))" }
}
