@_exported public import Reporting

/// An error reading type declarations: the file could not be read, or it is not a property list
/// of the expected shape. The message names the file.
///
/// Problems inside one declaration entry (a missing `UTTypeIdentifier`, a redefined system type)
/// are not errors but ``TypeDiagnostic``s, so one bad entry does not hide the others.
public typealias TypeRegistryError = CodedError<TypeRegistryErrorCode>

/// What kind of failure this is.
public struct TypeRegistryErrorCode: CodedErrorCode {
    private enum Storage: Hashable, Sendable {
        case unreadable, malformed
    }
    private let storage: Storage

    /// The file (or bundle directory's `Info.plist`) could not be read.
    public static var unreadable: Self { Self(storage: .unreadable) }
    /// The file is not a property list, or its declaration keys have the wrong shape.
    public static var malformed: Self { Self(storage: .malformed) }

    /// `unreadable` or `malformed`.
    public var description: String {
        switch storage {
        case .unreadable: "unreadable"
        case .malformed: "malformed"
        }
    }
}
