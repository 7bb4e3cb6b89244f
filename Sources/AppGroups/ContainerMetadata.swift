public import Foundation

/// What kind of container a directory is, and where such containers live under the device root.
public enum ContainerKind: String, Sendable, Hashable, CaseIterable {
    /// `Data/Application/<UUID>`: an app's own data container.
    case application
    /// `Data/PluginKitPlugin/<UUID>`: an app extension's own data container (with `tmp/`).
    case appExtension
    /// `Shared/AppGroup/<UUID>`: an App Group container.
    case appGroup

    /// The folder under the device root, e.g. `Shared/AppGroup`.
    public var relativeDirectory: String {
        switch self {
        case .application: "Data/Application"
        case .appExtension: "Data/PluginKitPlugin"
        case .appGroup: "Shared/AppGroup"
        }
    }

    /// `MCMMetadataContentClass` as the container manager writes it: 2 app data, 4 plug-in data,
    /// 7 shared group.
    public var contentClass: Int {
        switch self {
        case .application: 2
        case .appExtension: 4
        case .appGroup: 7
        }
    }
}

/// `.com.apple.mobile_container_manager.metadata.plist` at the top of every container.
///
/// Written as a binary plist, as the device does, with `MCMMetadataIdentifier`,
/// `MCMMetadataContentClass`, `MCMMetadataUUID`, `MCMMetadataSchemaVersion`,
/// `MCMMetadataActiveDPClass` and an empty `MCMMetadataInfo`; a `grep -r` for the identifier over the
/// device root finds it, as on a simulator.
public struct ContainerMetadata: Sendable, Hashable {
    /// The file name.
    public static let fileName = ".com.apple.mobile_container_manager.metadata.plist"

    /// The bundle or group identifier (`MCMMetadataIdentifier`).
    public var identifier: String
    /// The kind, from `MCMMetadataContentClass`.
    public var kind: ContainerKind
    /// `MCMMetadataUUID`, equal to the directory name.
    public var uuid: UUID

    /// Creates metadata.
    public init(identifier: String, kind: ContainerKind, uuid: UUID) {
        self.identifier = identifier
        self.kind = kind
        self.uuid = uuid
    }

    /// The binary plist bytes.
    /// - Throws: ``AppGroupError`` `.io` when serialization fails.
    public func encoded() throws -> [UInt8] {
        let plist: [String: Any] = [
            "MCMMetadataIdentifier": identifier,
            "MCMMetadataContentClass": kind.contentClass,
            "MCMMetadataUUID": uuid.uuidString,
            "MCMMetadataSchemaVersion": 1,
            "MCMMetadataActiveDPClass": 0,
            "MCMMetadataInfo": [String: Any](),
        ]
        do {
            return Array(try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0))
        } catch {
            throw AppGroupError(.io, "cannot encode container metadata", cause: UnderlyingFailure(error))
        }
    }

    /// Decodes the metadata file of the container at `directory`.
    /// - Throws: ``AppGroupError`` `.notFound`, `.corrupt` (naming the file and the missing key).
    public static func read(containerAt directory: URL) throws -> ContainerMetadata {
        let url = directory.appendingPathComponent(fileName)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw AppGroupError(.notFound, "\(url.path) does not exist")
        }
        let object: Any
        do {
            object = try PropertyListSerialization.propertyList(from: data, format: nil)
        } catch {
            throw AppGroupError(.corrupt, "\(url.path) is not a property list", cause: UnderlyingFailure(error))
        }
        guard let plist = object as? [String: Any], let identifier = plist["MCMMetadataIdentifier"] as? String else {
            throw AppGroupError(.corrupt, "\(url.path): no MCMMetadataIdentifier string")
        }
        guard let contentClass = plist["MCMMetadataContentClass"] as? Int,
            let kind = ContainerKind.allCases.first(where: { $0.contentClass == contentClass })
        else {
            throw AppGroupError(.corrupt, "\(url.path): MCMMetadataContentClass is not 2, 4 or 7")
        }
        let uuid =
            (plist["MCMMetadataUUID"] as? String).flatMap(UUID.init(uuidString:))
            ?? UUID(uuidString: directory.lastPathComponent)
        guard let uuid else { throw AppGroupError(.corrupt, "\(url.path): no MCMMetadataUUID") }
        return ContainerMetadata(identifier: identifier, kind: kind, uuid: uuid)
    }
}

/// One container found under a device root.
public struct ContainerInfo: Sendable, Hashable {
    /// Its metadata (identifier, kind, UUID).
    public var metadata: ContainerMetadata
    /// The container directory, `<root>/<kind directory>/<UUID>`.
    public var url: URL

    /// The identifier (`MCMMetadataIdentifier`).
    public var identifier: String { metadata.identifier }
    /// The kind.
    public var kind: ContainerKind { metadata.kind }
    /// The UUID (the directory name).
    public var uuid: UUID { metadata.uuid }

    /// A container described by `metadata` at `url`.
    public init(metadata: ContainerMetadata, url: URL) {
        self.metadata = metadata
        self.url = url
    }
}
