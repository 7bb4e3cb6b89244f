public import ExtensionIPC
public import Foundation
public import UniformTypes

/// One thing to share, with several representations: the model of Apple's `NSItemProvider`.
///
/// Deliberately not `Sendable`, as on Apple's platforms: create, register and query it in one
/// isolation domain. The loads call back on a background queue, never on the caller's.
///
/// - Registration order is fidelity order; ``registeredTypeIdentifiers`` keeps it and leaves out the
///   representations the ``consumer`` may not see.
/// - A request is answered by the **exact** registered type first (compared case-insensitively),
///   otherwise by the **first registered type that conforms** to the request, in registration order
///   (see ``representation(answering:fileOptions:)``). A registered type answers a request only when
///   it conforms to it, never the reverse.
/// - Registering a type a second time is ignored (the first registration stays).
public final class ItemProvider {
    struct Registration: Sendable {
        enum Source: Sendable {
            case data(@Sendable (@escaping @Sendable (Data?, (any Error)?) -> Void) -> Progress?)
            case file(@Sendable (@escaping @Sendable (URL?, Bool, (any Error)?) -> Void) -> Progress?)
            case descriptor(
                token: String?,
                @Sendable (@escaping @Sendable (DescriptorRepresentation?, (any Error)?) -> Void) -> Progress?)
        }

        var representation: RegisteredRepresentation
        var source: Source
        /// The original object `loadItem` returns (a URL, a String, Data); nil for representations
        /// registered through the binary interface, which `loadItem` sees as `Data`.
        var object: (any Sendable)?
        /// Whether `loadItem` runs the load handler before returning ``object``.
        var objectAfterLoad = false
        /// Rebuilds the object `loadItem` returns from the loaded bytes (the sandboxed extension's
        /// proxies: the object crossed the process as its data representation).
        var decoder: (@Sendable (Data) throws -> any Sendable)?
        /// For an open-in-place descriptor registration: where the original is (the sandboxed
        /// extension asks the host for its path; the kernel enforces its security scope).
        var original: (@Sendable (@escaping @Sendable (URL?, (any Error)?) -> Void) -> Void)?
    }

    /// Every registration, in registration order (a lightweight provider is filled first).
    var registrations: [Registration] {
        fillIfNeeded()
        return storedRegistrations
    }
    private var storedRegistrations: [Registration] = []

    /// The file name to use when the data is written to a file (`suggestedName`).
    public var suggestedName: String? {
        get {
            fillIfNeeded()
            return storedSuggestedName
        }
        set {
            fillIfNeeded()
            storedSuggestedName = newValue
            if !isFilling { isPinned = true }
        }
    }
    private var storedSuggestedName: String?

    /// How messages name the provider when it has no ``suggestedName`` (`attachment 3`); not
    /// visible to the code that loads it.
    public var label: String? {
        get {
            fillIfNeeded()
            return storedLabel
        }
        set {
            fillIfNeeded()
            storedLabel = newValue
        }
    }
    private var storedLabel: String?

    /// What fills a lightweight provider on its first use (nil: filled, or never lightweight).
    private var filler: ((ItemProvider) -> Void)?
    /// True while ``filler`` runs: what it registers is the provider's own, not its user's.
    private var isFilling = false
    /// True once its user changed a filled provider (registered a representation, renamed it): it
    /// is never emptied again.
    private var isPinned = false

    /// The ideal display size; ``PresentationSize/zero`` when there is no preference.
    public var preferredPresentationSize: PresentationSize = .zero

    /// The type registry that answers conformance and filename-extension questions.
    public var typeRegistry: TypeRegistry = .system

    /// Who is loading, which decides which visibilities are seen (default ``ProviderConsumer/otherTeam``:
    /// a share extension of another app sees only `.all` representations).
    public var consumer: ProviderConsumer = .otherTeam

    /// The request this provider is an input item of (set by ``ExtensionContext``): once it ends,
    /// loads not yet delivered are cut off (``RequestLifetime``). Nil for a provider of one's own.
    package var requestLifetime: RequestLifetime?

    /// The attachment's index in the host's context (the sandboxed extension's proxies), for reports.
    package var attachmentIndex: Int?

    /// An empty provider; register representations afterwards.
    public init() {}

    /// A lightweight provider (the sandboxed extension's proxies of a paged context): `filler`
    /// registers its representations and sets its names the first time anything of them is asked
    /// for, so a context of many attachments holds little more than their count until they are used.
    package init(filledOnFirstUse filler: @escaping (ItemProvider) -> Void) {
        self.filler = filler
    }

    /// Whether the provider is filled (or was never lightweight).
    package var isFilled: Bool { filler == nil }

    /// Makes a filled lightweight provider lightweight again, to be filled by `filler` on its next
    /// use — the same representations and names, so its user sees no difference. Nothing happens
    /// (false) to a provider its user changed, or one that is not filled.
    @discardableResult
    package func empty(refilledBy filler: @escaping (ItemProvider) -> Void) -> Bool {
        guard self.filler == nil, !isPinned, !isFilling else { return false }
        storedRegistrations = []
        storedSuggestedName = nil
        storedLabel = nil
        self.filler = filler
        return true
    }

    private func fillIfNeeded() {
        guard let filler else { return }
        self.filler = nil
        isFilling = true
        defer { isFilling = false }
        filler(self)
    }

    /// A provider for a file or folder: one file representation typed from the filename extension
    /// (`public.data` when the extension is unknown or missing, never a `dyn.` type; a directory
    /// is `public.folder`, or its package type when the extension names one). `loadItem` returns
    /// the URL. Nil when nothing exists at `url`.
    public convenience init?(contentsOf url: URL) {
        self.init()
        var isDirectory: ObjCBool = false
        guard url.isFileURL, FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            return nil
        }
        let type = Self.typeIdentifier(forFileAt: url, isDirectory: isDirectory.boolValue, registry: typeRegistry)
        suggestedName = url.lastPathComponent
        let fileURL = url
        append(
            Registration(
                representation: RegisteredRepresentation(typeIdentifier: type, kind: .file, visibility: .all),
                source: .file { completion in
                    completion(fileURL, false, nil)
                    return nil
                },
                object: url))
    }

    /// A provider for a file or folder with a given type (Apple's
    /// `init(contentsOf:contentType:openInPlace:coordinated:visibility:)`): one file representation,
    /// open-in-place when asked. `loadItem` returns the URL. Nil when nothing exists at `url`.
    public convenience init?(
        contentsOf url: URL, contentType: String, openInPlace: Bool = false, visibility: RepresentationVisibility = .all
    ) {
        self.init()
        guard url.isFileURL, FileManager.default.fileExists(atPath: url.path) else { return nil }
        suggestedName = url.lastPathComponent
        let fileURL = url
        append(
            Registration(
                representation: RegisteredRepresentation(
                    typeIdentifier: contentType, kind: openInPlace ? .openInPlace : .file, visibility: visibility),
                source: .file { completion in
                    completion(fileURL, false, nil)
                    return nil
                },
                object: url))
    }

    /// A provider for text: `public.utf8-plain-text` (which also answers `public.plain-text` and
    /// `public.text` by conformance). `loadItem` returns the string.
    public convenience init(object: String) {
        self.init()
        registerItem(object, forTypeIdentifier: "public.utf8-plain-text")
    }

    /// A provider for a URL: `public.url`, or `public.file-url` for a file URL (which conforms to
    /// `public.url`). The data is the URL's absolute string in UTF-8; `loadItem` returns the URL.
    public convenience init(object: URL) {
        self.init()
        registerItem(object, forTypeIdentifier: object.isFileURL ? "public.file-url" : "public.url")
    }

    /// The legacy registration `init(item:typeIdentifier:)`: `item` under one type; `loadItem`
    /// returns `item` itself.
    public convenience init(item: any Sendable, typeIdentifier: String) {
        self.init()
        registerItem(item, forTypeIdentifier: typeIdentifier)
    }

    // MARK: - Registering

    /// Registers a data-backed representation. The load handler calls its completion with the
    /// data or an error and may return a `Progress`.
    public func registerDataRepresentation(
        for typeIdentifier: String, visibility: RepresentationVisibility = .all,
        loadHandler: @escaping @Sendable (@escaping @Sendable (Data?, (any Error)?) -> Void) -> Progress?
    ) {
        append(
            Registration(
                representation: RegisteredRepresentation(
                    typeIdentifier: typeIdentifier, kind: .data, visibility: visibility),
                source: .data(loadHandler), object: nil))
    }

    /// Registers a file-backed representation (a file or a directory). The load handler calls its
    /// completion with the URL, whether it must be coordinated (ignored here), or an error.
    /// `openInPlace` makes ``loadInPlaceFileRepresentation(for:completionHandler:)`` hand out the
    /// original URL, security-scoped.
    public func registerFileRepresentation(
        for typeIdentifier: String, visibility: RepresentationVisibility = .all, openInPlace: Bool = false,
        loadHandler: @escaping @Sendable (@escaping @Sendable (URL?, Bool, (any Error)?) -> Void) -> Progress?
    ) {
        append(
            Registration(
                representation: RegisteredRepresentation(
                    typeIdentifier: typeIdentifier, kind: openInPlace ? .openInPlace : .file, visibility: visibility),
                source: .file(loadHandler), object: nil))
    }

    /// Registers a representation that arrives as an open descriptor (the sandboxed extension's
    /// proxies use this for a file received over `SCM_RIGHTS`).
    ///
    /// `loadFileRepresentation` copies from the descriptor (clone or `copy_file_range`) into a fresh
    /// temporary directory; `loadDataRepresentation` reads it; `loadInPlaceFileRepresentation`
    /// materialises it as a file that stays until the temporary directory is cleaned, security-scoped
    /// with `securityScopeToken` (a fresh token when nil) and reported in place when `openInPlace`.
    ///
    /// With `original`, `loadInPlaceFileRepresentation` hands out the original's URL it gives
    /// (security-scoped with `securityScopeToken`) instead of a copy; the other loads still copy
    /// from the descriptor.
    public func registerDescriptorRepresentation(
        for typeIdentifier: String, visibility: RepresentationVisibility = .all, openInPlace: Bool = false,
        securityScopeToken: String? = nil,
        original: (@Sendable (@escaping @Sendable (URL?, (any Error)?) -> Void) -> Void)? = nil,
        loadHandler:
            @escaping @Sendable (@escaping @Sendable (DescriptorRepresentation?, (any Error)?) -> Void) ->
            Progress?
    ) {
        append(
            Registration(
                representation: RegisteredRepresentation(
                    typeIdentifier: typeIdentifier, kind: openInPlace ? .descriptorInPlace : .descriptor,
                    visibility: visibility),
                source: .descriptor(token: securityScopeToken, loadHandler), object: nil, original: original))
    }

    /// Registers an object under one type (the legacy `registerItem`): a `Data`, `String` or `URL`
    /// gives its bytes (UTF-8 for text, the absolute string for a URL) to the data loads, and
    /// `loadItem` returns the object itself. Other objects answer only `loadItem`.
    ///
    /// With a `loadHandler`, the data loads use it instead, and `loadItem` runs it first: its error
    /// fails `loadItem`, its success returns `item` (manifests use this for load delays and failures).
    public func registerItem(
        _ item: any Sendable, forTypeIdentifier typeIdentifier: String, visibility: RepresentationVisibility = .all,
        loadHandler: (@Sendable (@escaping @Sendable (Data?, (any Error)?) -> Void) -> Progress?)? = nil
    ) {
        let bytes: Data? =
            switch item {
            case let data as Data: data
            case let text as String: Data(text.utf8)
            case let url as URL: Data(url.absoluteString.utf8)
            case let plist as PropertyListObject: plist.data
            case let text as AttributedTextObject: Data(text.string.utf8)
            case let image as ImageObject: image.data
            default: nil
            }
        append(
            Registration(
                representation: RegisteredRepresentation(
                    typeIdentifier: typeIdentifier, kind: .data, visibility: visibility),
                source: .data(
                    loadHandler ?? { completion in
                        if let bytes {
                            completion(bytes, nil)
                        } else {
                            completion(
                                nil,
                                ItemProviderError(
                                    .unavailableCoercion,
                                    "Could not coerce an item of class \(type(of: item)) to class Data"))
                        }
                        return nil
                    }),
                object: item, objectAfterLoad: loadHandler != nil))
    }

    /// Registers a data representation whose `loadItem` result is rebuilt from the loaded bytes by
    /// `decode` (a URL from its string, text, a property list…): what an object registered in
    /// another process looks like once it has crossed over.
    public func registerObject(
        forTypeIdentifier typeIdentifier: String, visibility: RepresentationVisibility = .all,
        decode: @escaping @Sendable (Data) throws -> any Sendable,
        loadHandler: @escaping @Sendable (@escaping @Sendable (Data?, (any Error)?) -> Void) -> Progress?
    ) {
        append(
            Registration(
                representation: RegisteredRepresentation(
                    typeIdentifier: typeIdentifier, kind: .data, visibility: visibility),
                source: .data(loadHandler), object: nil, decoder: decode))
    }

    /// The class `loadItem` returns for the object registered for the representation answering
    /// `typeIdentifier` — what travels with it to another process — or nil when it was registered
    /// through the binary interface (another process then gets `Data`).
    public func registeredObjectClass(answering typeIdentifier: String) -> ObjectClass? {
        switch registration(answering: typeIdentifier, fileOptions: [])?.object {
        case nil: nil
        case is URL: .url
        case is String: .string
        case is PropertyListObject: .propertyList
        case is AttributedTextObject: .attributedString
        case is ImageObject: .image
        default: .data
        }
    }

    /// The file URLs the provider hands out as objects that the consumer can see (`loadItem` of a
    /// `public.file-url` registered as a URL object, as Notes and Settings share files): on a device
    /// the receiving extension gets a sandbox extension to read what they name.
    public var fileURLObjects: [URL] {
        visibleRegistrations([]).compactMap { ($0.object as? URL).flatMap { $0.isFileURL ? $0 : nil } }
    }

    private func append(_ registration: Registration) {
        let key = UniformTypeIdentifier(registration.representation.typeIdentifier).key
        guard !registrations.contains(where: { UniformTypeIdentifier($0.representation.typeIdentifier).key == key })
        else { return }
        storedRegistrations.append(registration)
        if !isFilling { isPinned = true }
    }

    // MARK: - Querying

    /// Every registration, hidden ones included, in registration order.
    public var representations: [RegisteredRepresentation] { registrations.map(\.representation) }

    /// The type identifiers the consumer can see, in registration (fidelity) order.
    public var registeredTypeIdentifiers: [String] { registeredTypeIdentifiers(fileOptions: []) }

    /// The visible type identifiers matching `fileOptions` in registration order: all of them for
    /// `[]`, only the open-in-place file representations for `.openInPlace`.
    public func registeredTypeIdentifiers(fileOptions: FileOptions) -> [String] {
        visibleRegistrations(fileOptions).map(\.representation.typeIdentifier)
    }

    /// Whether a visible representation conforms to `typeIdentifier`.
    public func hasItemConformingToTypeIdentifier(_ typeIdentifier: String) -> Bool {
        hasRepresentationConforming(toTypeIdentifier: typeIdentifier, fileOptions: [])
    }

    /// Whether a visible representation matching `fileOptions` conforms to `typeIdentifier`.
    public func hasRepresentationConforming(toTypeIdentifier typeIdentifier: String, fileOptions: FileOptions)
        -> Bool
    {
        representation(answering: typeIdentifier, fileOptions: fileOptions) != nil
    }

    /// The representation that answers a request for `typeIdentifier`: the visible registration of
    /// exactly that type, else the first visible registration (in registration order) whose type
    /// conforms to it; nil when none does. `.openInPlace` limits the search to open-in-place files.
    public func representation(answering typeIdentifier: String, fileOptions: FileOptions = [])
        -> RegisteredRepresentation?
    {
        registration(answering: typeIdentifier, fileOptions: fileOptions)?.representation
    }

    func registration(answering typeIdentifier: String, fileOptions: FileOptions) -> Registration? {
        let requested = UniformTypeIdentifier(typeIdentifier)
        let candidates = visibleRegistrations(fileOptions)
        if let exact = candidates.first(where: { UniformTypeIdentifier($0.representation.typeIdentifier) == requested })
        {
            return exact
        }
        let registry = typeRegistry
        return candidates.first {
            registry.conforms(UniformTypeIdentifier($0.representation.typeIdentifier), to: requested)
        }
    }

    private func visibleRegistrations(_ fileOptions: FileOptions) -> [Registration] {
        registrations.filter { registration in
            consumer.sees(registration.representation.visibility)
                && (!fileOptions.contains(.openInPlace) || registration.representation.kind.isOpenInPlace)
        }
    }

    /// The type `init(contentsOf:)` registers for a file or directory.
    static func typeIdentifier(forFileAt url: URL, isDirectory: Bool, registry: TypeRegistry) -> String {
        let declared = registry.declaredType(forFileNamed: url.lastPathComponent, isDirectory: isDirectory)
        return declared?.rawValue ?? (isDirectory ? "public.folder" : UniformTypeIdentifier.data.rawValue)
    }
}
