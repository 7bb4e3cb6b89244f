import CSystemShims
package import Foundation
@_spi(Reflection) import Swift

/// What the Swift runtime knows about a class, read from its metadata: the two things iOS does
/// through the Objective-C runtime when it loads an extension — making the principal object from
/// its class (`[[cls alloc] init]`) and setting a view controller's outlets by name (key-value
/// coding) — done here through Swift's own metadata, so the user's class needs nothing added.
///
/// The layouts read (class metadata, class context descriptor, method descriptors, field
/// descriptors) are the Swift ABI's, on 64-bit platforms without Objective-C interoperability.
/// Every read is checked against what it must find (a class descriptor, `NSObject`'s one
/// initializer); anything else gives nil, never a guess.
package struct ClassMetadata {
    /// The class.
    package let type: AnyClass
    private let metadata: UnsafeRawPointer

    /// The metadata of `type`.
    package init(_ type: AnyClass) {
        self.type = type
        self.metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
    }

    // Offsets in class metadata from its address point (64-bit, no Objective-C interop):
    // kind 0, superclass 8, flags 16, instance address point 20, instance size 24, alignment mask 28,
    // class size 32, class address point 36, description 40, ivar destroyer 48.
    private static let descriptionOffset = 40
    private static let classKind: UInt32 = 16
    private static let initializerMethodKind: UInt32 = 1

    /// The class's context descriptor, when its metadata has one of kind "class".
    private var descriptor: UnsafeRawPointer? {
        guard let descriptor = metadata.load(fromByteOffset: Self.descriptionOffset, as: UnsafeRawPointer?.self)
        else { return nil }
        let flags = descriptor.load(as: UInt32.self)
        guard flags & 0x1F == Self.classKind, flags & 0x80 == 0 else { return nil }  // a class, not generic
        return descriptor
    }

    /// The vtable of `descriptor`: its offset in words from the metadata's address point and its
    /// method descriptors (flags, implementation).
    private static func vtable(of descriptor: UnsafeRawPointer) -> (offset: Int, methods: [UInt32])? {
        let kindFlags = descriptor.load(as: UInt32.self) >> 16
        guard kindFlags & 0x8000 != 0 else { return nil }  // Class_HasVTable
        var trailing = 44  // the fixed fields of a class descriptor
        if kindFlags & 0x2000 != 0 { trailing += 4 }  // Class_HasResilientSuperclass
        switch kindFlags & 0x3 {  // MetadataInitialization
        case 0: break
        case 1: trailing += 12  // singleton: cache, incomplete metadata, completion function
        case 2: trailing += 4  // foreign: completion function
        default: return nil
        }
        let offset = Int(descriptor.load(fromByteOffset: trailing, as: UInt32.self))
        let size = Int(descriptor.load(fromByteOffset: trailing + 4, as: UInt32.self))
        guard size < 4096 else { return nil }
        let methods = (0..<size).map { descriptor.load(fromByteOffset: trailing + 8 + $0 * 8, as: UInt32.self) }
        return (offset, methods)
    }

    /// Makes an instance of the class as `[[cls alloc] init]` does: through the `init()` it
    /// inherits from `NSObject` or overrides (its vtable's entry for `NSObject.init()`), so a class
    /// that declares no initializer, or `override init()`, is made without a `required` one.
    ///
    /// A class that hides `init()` behind initializers of its own traps, as on iOS ("use of
    /// unimplemented initializer 'init()'"). Nil when the class is not an `NSObject` subclass or
    /// the metadata is not what this toolchain lays out.
    package func makeThroughNSObjectInit() -> NSObject? {
        guard isSubclass(of: NSObject.self), descriptor != nil,
            let base = ClassMetadata(NSObject.self).descriptor, let table = Self.vtable(of: base)
        else { return nil }
        let initializers = table.methods.indices.filter { table.methods[$0] & 0xF == Self.initializerMethodKind }
        guard initializers.count == 1, let index = initializers.first else { return nil }
        let slot = (table.offset + index) * MemoryLayout<UnsafeRawPointer>.size
        guard let allocatingInit = metadata.load(fromByteOffset: slot, as: UnsafeRawPointer?.self),
            let object = eh_swift_call_with_self(allocatingInit, metadata)
        else { return nil }
        return Unmanaged<AnyObject>.fromOpaque(object).takeRetainedValue() as? NSObject
    }

    /// Whether the class is `base` or inherits from it.
    package func isSubclass(of base: AnyClass) -> Bool {
        var current: AnyClass? = type
        while let candidate = current {
            if candidate == base { return true }
            current = _getSuperclass(candidate)
        }
        return false
    }

    // MARK: - Stored properties

    /// How a stored property holds its reference.
    package enum Ownership: Sendable {
        case strong
        case weak
        case unowned
    }

    /// One stored property of the class or a superclass.
    package struct Field {
        /// Its name.
        package let name: String
        /// Its offset in the object.
        package let offset: Int
        /// Its declared type (`Optional<UILabel>` for `var label: UILabel!` and `weak var`).
        package let type: Any.Type
        /// How it holds a reference.
        package let ownership: Ownership
    }

    /// Every stored property, superclasses' first.
    package var fields: [Field] {
        var ownership: [String: Ownership] = [:]
        var current: AnyClass? = type
        while let candidate = current {
            for (name, kind) in Self.referenceOwnership(of: candidate) where ownership[name] == nil {
                ownership[name] = kind
            }
            current = _getSuperclass(candidate)
        }
        var fields: [Field] = []
        // `.classType` (bit 0), spelled by value: the standard library declares the option a `static var`.
        _ = _forEachField(of: type, options: _EachFieldOptions(rawValue: 1 << 0)) { name, offset, fieldType, _ in
            let label = String(cString: name)
            fields.append(Field(name: label, offset: offset, type: fieldType, ownership: ownership[label] ?? .strong))
            return true
        }
        return fields
    }

    /// The weak and unowned stored properties a class declares itself (its field descriptor's
    /// records whose mangled type ends in `Xw` or `Xo`/`Xu`).
    private static func referenceOwnership(of type: AnyClass) -> [(String, Ownership)] {
        guard let descriptor = ClassMetadata(type).descriptor,
            let fieldDescriptor = relative(descriptor, at: 16)
        else { return [] }
        let recordSize = Int(fieldDescriptor.load(fromByteOffset: 10, as: UInt16.self))
        let count = Int(fieldDescriptor.load(fromByteOffset: 12, as: UInt32.self))
        guard recordSize >= 12, count < 65536 else { return [] }
        var result: [(String, Ownership)] = []
        for index in 0..<count {
            let record = fieldDescriptor + 16 + index * recordSize
            guard let mangled = relative(record, at: 4), let name = relative(record, at: 8) else { continue }
            let suffix = mangledSuffix(mangled)
            let ownership: Ownership? =
                suffix == "Xw" ? .weak : (suffix == "Xo" || suffix == "Xu") ? .unowned : nil
            if let ownership { result.append((String(cString: name.assumingMemoryBound(to: CChar.self)), ownership)) }
        }
        return result
    }

    /// The target of the 32-bit relative pointer at `offset` from `base` (nil for 0).
    private static func relative(_ base: UnsafeRawPointer, at offset: Int) -> UnsafeRawPointer? {
        let delta = base.load(fromByteOffset: offset, as: Int32.self)
        return delta == 0 ? nil : base + offset + Int(delta)
    }

    /// The last two characters of a mangled type name, skipping symbolic references (a control
    /// byte 1…0x17 followed by a 4-byte offset, 0x18…0x1F by a pointer), which may hold zero bytes.
    private static func mangledSuffix(_ start: UnsafeRawPointer) -> String {
        var characters: [UInt8] = []
        var index = 0
        while index < 4096 {
            let byte = start.load(fromByteOffset: index, as: UInt8.self)
            if byte == 0 { break }
            if byte <= 0x17 {
                index += 5
                characters.append(0)
            } else if byte <= 0x1F {
                index += 1 + MemoryLayout<UnsafeRawPointer>.size
                characters.append(0)
            } else {
                characters.append(byte)
                index += 1
            }
        }
        return String(decoding: characters.suffix(2), as: UTF8.self)
    }

    // MARK: - Setting a property by name

    /// Sets the stored property `name` of `object` (an instance of this class) to `value`, as
    /// key-value coding sets an outlet: strong and `weak` references, optional or not, of any type
    /// `value` is an instance of. Returns false when there is no such property, its type does not
    /// take `value`, or it is `unowned`.
    package func set(_ name: String, of object: AnyObject, to value: Any) -> Bool {
        guard let field = fields.first(where: { $0.name == name }) else { return false }
        let address = UnsafeMutableRawPointer(Unmanaged.passUnretained(object).toOpaque()) + field.offset
        switch field.ownership {
        case .unowned: return false
        case .weak:
            // A weak reference to a class is one word; a weak protocol existential also holds its
            // witness table, which this cannot write.
            guard Self.accepts(field.type, value), Self.referencesAClass(field.type) else { return false }
            address.assumingMemoryBound(to: WeakReference.self).pointee.object = value as AnyObject
            return true
        case .strong:
            func assign<T>(_: T.Type) -> Bool {
                guard let typed = value as? T else { return false }
                address.assumingMemoryBound(to: T.self).pointee = typed
                return true
            }
            return _openExistential(field.type, do: assign)
        }
    }

    /// Whether `type` is `Optional<C>` or `C` for a class `C` (not a protocol existential).
    private static func referencesAClass(_ type: Any.Type) -> Bool {
        let wrapped = (type as? any OptionalType.Type)?.wrappedType ?? type
        return wrapped is AnyClass
    }

    private static func accepts(_ type: Any.Type, _ value: Any) -> Bool {
        func check<T>(_: T.Type) -> Bool { value is T }
        return _openExistential(type, do: check)
    }
}

/// `Optional`, for reading its wrapped type from a metatype.
private protocol OptionalType {
    static var wrappedType: Any.Type { get }
}

extension Optional: OptionalType {
    static var wrappedType: Any.Type { Wrapped.self }
}

/// The layout of a native Swift `weak var` of a class type.
private struct WeakReference {
    weak var object: AnyObject?
}
