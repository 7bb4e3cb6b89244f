import ExtensionIPC
public import Foundation
import ItemProviders

extension NSItemProvider {
    /// The completion of the legacy `loadItem`: the item (an `NSURL`, `NSString`, `NSData`,
    /// `NSDictionary`…) or an error.
    ///
    /// Apple types the item `NSSecureCoding?`; here it is `Any?`, because on Linux a cast from an
    /// `NSSecureCoding` existential to `URL`, `String` or `Data` compiles with the warning "always
    /// fails" (it succeeds at run time). With `Any?`, `item as? URL` compiles cleanly and works.
    public typealias CompletionHandler = (_ item: Any?, _ error: (any Error)?) -> Void

    /// The legacy load handler registered with ``registerItem(forTypeIdentifier:loadHandler:)``:
    /// it calls the completion with the item or an error.
    public typealias LoadHandler = (
        _ completionHandler: CompletionHandler?, _ expectedValueClass: AnyClass?, _ options: [AnyHashable: Any]?
    ) -> Void

    // MARK: - Data, file, in place

    /// Loads the bytes of the representation answering `typeIdentifier`: data as registered, a
    /// file's contents, a folder as a zip archive. The completion runs on a background queue.
    @discardableResult
    public func loadDataRepresentation(
        forTypeIdentifier typeIdentifier: String, completionHandler: @escaping @Sendable (Data?, (any Error)?) -> Void
    ) -> Progress {
        model.loadDataRepresentation(for: typeIdentifier) { data, error in completionHandler(data, bridgedError(error))
        }
    }

    /// Loads a temporary copy of the representation answering `typeIdentifier`. **The file is
    /// deleted when the completion handler returns**: copy or move it before returning.
    @discardableResult
    public func loadFileRepresentation(
        forTypeIdentifier typeIdentifier: String, completionHandler: @escaping @Sendable (URL?, (any Error)?) -> Void
    ) -> Progress {
        model.loadFileRepresentation(for: typeIdentifier) { url, error in completionHandler(url, bridgedError(error)) }
    }

    /// Loads the representation answering `typeIdentifier` in place when it was registered so: the
    /// original URL, security-scoped (`isInPlace == true`: call `startAccessingSecurityScopedResource()`
    /// before reading it); otherwise a copy that stays until the system cleans the temporary folder.
    @discardableResult
    public func loadInPlaceFileRepresentation(
        forTypeIdentifier typeIdentifier: String,
        completionHandler: @escaping @Sendable (URL?, Bool, (any Error)?) -> Void
    ) -> Progress {
        model.loadInPlaceFileRepresentation(for: typeIdentifier) { url, inPlace, error in
            completionHandler(url, inPlace, bridgedError(error))
        }
    }

    // MARK: - Legacy

    /// The legacy load: the item as the sharing app registered it — `NSURL` for a web link or a
    /// file, `NSString` for text, `NSData` for data, the dictionary of a property list — in the
    /// completion, on a background queue. `options` are accepted and ignored, as on iOS for
    /// everything but a preview image size.
    public func loadItem(
        forTypeIdentifier typeIdentifier: String, options: [AnyHashable: Any]? = nil,
        completionHandler: CompletionHandler? = nil
    ) {
        let handler = completionHandler.map(UncheckedBox.init)
        let name = suggestedName
        model.loadItem(forTypeIdentifier: typeIdentifier) { item, error in
            let object = item.map(bridgedObject)
            Self.noteInMemoryImage(object, typeIdentifier, name)
            handler?.value(object, bridgedError(error))
        }
    }

    /// The legacy load, awaited: the item the sharing app registered, as Apple declares it
    /// (`any NSSecureCoding`): an `NSURL`, `NSString`, `NSData`, `NSDictionary`, `NSArray` or a
    /// `UIImage` (a markup screenshot shared in memory), which
    /// `as? URL`, `as? String`, `as? Data`, `as? [String: Any]` turn into Swift values (the
    /// conformances in this module make those casts compile without the "always fails" warning).
    /// - Throws: the load's error (`NSItemProviderErrorDomain` -1000 when nothing answers; -1100 for
    ///   an item that is not `NSSecureCoding`).
    nonisolated(nonsending) public func loadItem(
        forTypeIdentifier typeIdentifier: String, options: [AnyHashable: Any]? = nil
    ) async throws -> any NSSecureCoding {
        let object: Any
        do {
            object = bridgedObject(try await model.loadItem(forTypeIdentifier: typeIdentifier))
        } catch {
            throw bridgedError(error) ?? error
        }
        Self.noteInMemoryImage(object, typeIdentifier, suggestedName)
        guard let coded = object as? any NSSecureCoding else {
            throw NSError(
                domain: NSItemProviderErrorDomain, code: NSItemProvider.ErrorCode.unexpectedValueClassError.rawValue,
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "loadItem(forTypeIdentifier: \(typeIdentifier)) loaded a \(type(of: object)), which is not "
                        + "NSSecureCoding here; use the completion-handler loadItem, or loadObject(ofClass:)"
                ])
        }
        return coded
    }

    /// Tells the host's report when `loadItem` hands over an in-memory image: code written for the
    /// photo library, which shares file URLs, casts it `as? URL` and gets nil.
    private static func noteInMemoryImage(_ object: Any?, _ typeIdentifier: String, _ name: String?) {
        guard object is UIImage else { return }
        ExtensionLog.error(
            "loadItem(forTypeIdentifier: \(typeIdentifier)) of \(name ?? "an attachment") returned an in-memory image "
                + "(UIImage), not a file URL: `item as? URL` is nil for it (the screenshot editor shares this way "
                + "before iOS 26); use `as? UIImage`, or loadDataRepresentation",
            mistake: .inMemoryImage)
    }

    // MARK: - Objects

    /// Whether an object of `aClass` can be loaded: a registered type is one the class reads.
    public func canLoadObject(ofClass aClass: any NSItemProviderReading.Type) -> Bool {
        aClass.readableTypeIdentifiersForItemProvider.contains { hasItemConformingToTypeIdentifier($0) }
    }

    /// Loads an object of `aClass` from the first of its readable types that a registered
    /// representation answers (in the class's order, as on iOS).
    @discardableResult
    public func loadObject(
        ofClass aClass: any NSItemProviderReading.Type,
        completionHandler: @escaping @Sendable ((any NSItemProviderReading)?, (any Error)?) -> Void
    ) -> Progress {
        guard let type = aClass.readableTypeIdentifiersForItemProvider.first(where: hasItemConformingToTypeIdentifier)
        else {
            let progress = Progress(totalUnitCount: 1)
            let error = ItemProviderError(
                .itemUnavailable, "Cannot load an object of class \(aClass): no registered type is one it reads")
            DispatchQueue.global().async { completionHandler(nil, bridgedError(error)) }
            return progress
        }
        let reader = UncheckedBox(aClass)
        return loadDataRepresentation(forTypeIdentifier: type) { data, error in
            guard let data else { return completionHandler(nil, error) }
            do {
                completionHandler(try reader.value.object(withItemProviderData: data, typeIdentifier: type), nil)
            } catch {
                completionHandler(nil, bridgedError(error))
            }
        }
    }

    /// Whether a `URL`, `String` or `Data` can be loaded (the Swift overlay's generic form).
    public func canLoadObject<T: _ObjectiveCBridgeable & SendableMetatype>(ofClass: T.Type) -> Bool
    where T._ObjectiveCType: NSItemProviderReading {
        canLoadObject(ofClass: T._ObjectiveCType.self)
    }

    /// Loads a `URL`, `String` or `Data` (the Swift overlay's generic form).
    @discardableResult
    public func loadObject<T: _ObjectiveCBridgeable & SendableMetatype>(
        ofClass: T.Type, completionHandler: @escaping @Sendable (T?, (any Error)?) -> Void
    ) -> Progress where T._ObjectiveCType: NSItemProviderReading {
        let bridge = UncheckedBox({ (object: any NSItemProviderReading) -> T? in
            (object as? T._ObjectiveCType).map { T._unconditionallyBridgeFromObjectiveC($0) }
        })
        return loadObject(ofClass: T._ObjectiveCType.self) { object, error in
            guard let object, let value = bridge.value(object) else { return completionHandler(nil, error) }
            completionHandler(value, nil)
        }
    }
}
