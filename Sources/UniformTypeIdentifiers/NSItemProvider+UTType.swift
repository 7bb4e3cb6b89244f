public import Foundation
import ItemProviders
import UniformTypes

// The UTType forms of NSItemProvider (iOS 14 and 16), as UniformTypeIdentifiers declares them.
extension NSItemProvider {
    /// A provider for the file at `fileURL` typed `contentType` (nil: from its filename extension),
    /// opening in place when asked.
    public convenience init(
        contentsOf fileURL: URL, contentType: UTType?, openInPlace: Bool = false, coordinated: Bool = false,
        visibility: NSItemProviderRepresentationVisibility = .all
    ) {
        self.init()
        let type =
            contentType?.identifier
            ?? UTType.registry.declaredType(forFileNamed: fileURL.path, conformingTo: .data)?.rawValue
            ?? UTType.data.identifier
        suggestedName = fileURL.lastPathComponent
        registerFileRepresentation(
            forTypeIdentifier: type, fileOptions: openInPlace ? .openInPlace : [], visibility: visibility
        ) { completion in
            completion(fileURL, coordinated, nil)
            return nil
        }
    }

    /// The registered types, in fidelity order.
    public var registeredContentTypes: [UTType] { registeredTypeIdentifiers.map { UTType(uti: .init($0)) } }

    /// The registered types that open in place.
    public var registeredContentTypesForOpenInPlace: [UTType] {
        registeredTypeIdentifiers(fileOptions: .openInPlace).map { UTType(uti: .init($0)) }
    }

    /// The registered types that conform to `contentType`.
    public func registeredContentTypes(conformingTo contentType: UTType) -> [UTType] {
        registeredContentTypes.filter { $0.conforms(to: contentType) }
    }

    /// Registers a data representation of `contentType`.
    public func registerDataRepresentation(
        for contentType: UTType, visibility: NSItemProviderRepresentationVisibility = .all,
        loadHandler: @escaping @Sendable (@escaping @Sendable (Data?, (any Error)?) -> Void) -> Progress?
    ) {
        registerDataRepresentation(
            forTypeIdentifier: contentType.identifier, visibility: visibility, loadHandler: loadHandler)
    }

    /// Registers a file representation of `contentType`, opening in place when asked.
    public func registerFileRepresentation(
        for contentType: UTType, visibility: NSItemProviderRepresentationVisibility = .all, openInPlace: Bool = false,
        loadHandler: @escaping @Sendable (@escaping @Sendable (URL?, Bool, (any Error)?) -> Void) -> Progress?
    ) {
        registerFileRepresentation(
            forTypeIdentifier: contentType.identifier, fileOptions: openInPlace ? .openInPlace : [],
            visibility: visibility, loadHandler: loadHandler)
    }

    /// Loads the bytes of the representation answering `contentType`.
    @discardableResult
    public func loadDataRepresentation(
        for contentType: UTType, completionHandler: @escaping @Sendable (Data?, (any Error)?) -> Void
    ) -> Progress {
        loadDataRepresentation(forTypeIdentifier: contentType.identifier, completionHandler: completionHandler)
    }

    /// Loads the representation answering `contentType` as a file: the original when `openInPlace`
    /// and it was registered so (`true` in the completion; security-scoped), otherwise a temporary
    /// copy that is deleted when the completion handler returns.
    @discardableResult
    public func loadFileRepresentation(
        for contentType: UTType, openInPlace: Bool = false,
        completionHandler: @escaping @Sendable (URL?, Bool, (any Error)?) -> Void
    ) -> Progress {
        if openInPlace {
            return loadInPlaceFileRepresentation(
                forTypeIdentifier: contentType.identifier, completionHandler: completionHandler)
        }
        return loadFileRepresentation(forTypeIdentifier: contentType.identifier) { url, error in
            completionHandler(url, false, error)
        }
    }
}
