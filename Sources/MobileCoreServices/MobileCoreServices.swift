public import Foundation
@_exported public import UniformTypeIdentifiers
import UniformTypes

/// Core Foundation's string type, as MobileCoreServices' functions take and return it. Linux has
/// no toll-free `CFString`; `NSString` stands in, so `kUTTypeURL as String` and
/// `ext as CFString` still type-check.
public typealias CFString = NSString

/// The tag class of filename extensions (`kUTTagClassFilenameExtension`).
public var kUTTagClassFilenameExtension: CFString { "public.filename-extension" }
/// The tag class of MIME types (`kUTTagClassMIMEType`).
public var kUTTagClassMIMEType: CFString { "public.mime-type" }

/// The preferred type for a tag (`UTTypeCreatePreferredIdentifierForTag`); a dynamic type when none
/// is declared, nil for an unknown tag class.
public func UTTypeCreatePreferredIdentifierForTag(
    _ inTagClass: CFString, _ inTag: CFString, _ inConformingToUTI: CFString?
) -> Unmanaged<CFString>? {
    let supertype = inConformingToUTI.map { UniformTypeIdentifier($0 as String) }
    guard
        let found = ProcessIdentity.typeRegistry.preferredType(
            forTag: inTag as String, tagClass: UniformTypeIdentifier(inTagClass as String), conformingTo: supertype)
    else { return nil }
    return Unmanaged.passRetained(NSString(string: found.rawValue))
}

/// The preferred tag of a class for a type (`UTTypeCopyPreferredTagWithClass`).
public func UTTypeCopyPreferredTagWithClass(_ inUTI: CFString, _ inTagClass: CFString) -> Unmanaged<CFString>? {
    let type = UniformTypeIdentifier(inUTI as String)
    let registry = ProcessIdentity.typeRegistry
    let tag: String? =
        switch inTagClass as String {
        case "public.filename-extension": registry.preferredFilenameExtension(for: type)
        case "public.mime-type": registry.preferredMIMEType(for: type)
        default: nil
        }
    return tag.map { Unmanaged.passRetained(NSString(string: $0)) }
}

/// Whether a type conforms to another (`UTTypeConformsTo`).
public func UTTypeConformsTo(_ inUTI: CFString, _ inConformsToUTI: CFString) -> Bool {
    ProcessIdentity.typeRegistry.conforms(
        UniformTypeIdentifier(inUTI as String), to: UniformTypeIdentifier(inConformsToUTI as String))
}

/// Whether two type identifiers name the same type (`UTTypeEqual`).
public func UTTypeEqual(_ inUTI1: CFString, _ inUTI2: CFString) -> Bool {
    UniformTypeIdentifier(inUTI1 as String) == UniformTypeIdentifier(inUTI2 as String)
}

/// Whether a type identifier is dynamic (`UTTypeIsDynamic`).
public func UTTypeIsDynamic(_ inUTI: CFString) -> Bool { UniformTypeIdentifier(inUTI as String).isDynamic }

/// Whether a type is declared (`UTTypeIsDeclared`).
public func UTTypeIsDeclared(_ inUTI: CFString) -> Bool {
    ProcessIdentity.typeRegistry.isDeclared(UniformTypeIdentifier(inUTI as String))
}
