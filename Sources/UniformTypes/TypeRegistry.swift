/// The types a device knows: the system table plus declarations read from bundles' `Info.plist`
/// files, with Apple's conformance and tag semantics.
///
/// - Identifiers compare case-insensitively.
/// - Conformance is reflexive and transitive over every declared parent (the graph is a DAG;
///   `public.item` and `public.content` are the roots of two separate hierarchies).
/// - Looking up an identifier nobody declared gives nil, never a made-up type; only `dyn.`
///   identifiers resolve without a declaration.
///
/// The registry is an immutable value: ``adding(declarationsFrom:sourcePath:)`` returns a new one.
/// Every type's full set of supertypes is computed when the registry is built, so
/// ``conforms(_:to:)`` is two hash lookups and allocates nothing for lower-case ASCII identifiers.
public struct TypeRegistry: Sendable {
    /// The winning declaration of each identifier, keyed by lower-cased identifier.
    private(set) var declarations: [String: TypeDeclaration]
    /// Lower-cased identifiers in registration order (system table first).
    private(set) var order: [String]
    /// For each declared type, the lower-cased identifiers of itself and all its supertypes.
    private var closures: [String: Set<String>] = [:]
    /// Lower-cased filename extension → declaring types, in preference order.
    private(set) var extensionIndex: [String: [String]] = [:]
    /// Lower-cased MIME type → declaring types, in preference order.
    private(set) var mimeIndex: [String: [String]] = [:]

    /// The system-declared types (CoreTypes), from the table shipped with the module.
    public static let system = TypeRegistry(declarations: SystemTypes.declarations)

    /// A registry of the given declarations. When two share an identifier (case-insensitively)
    /// the first wins; use ``adding(declarationsFrom:sourcePath:)`` for `Info.plist` precedence.
    public init(declarations: [TypeDeclaration]) {
        self.declarations = [:]
        self.order = []
        for declaration in declarations where self.declarations[declaration.identifier.key] == nil {
            self.declarations[declaration.identifier.key] = declaration
            self.order.append(declaration.identifier.key)
        }
        rebuildIndexes()
    }

    // MARK: - Lookup

    /// The declaration of a type: the winning declaration of a declared type, a dynamic
    /// declaration decoded from a `dyn.` identifier, or nil for anything else (never a made-up type).
    public func declaration(for type: UniformTypeIdentifier) -> TypeDeclaration? {
        if let declaration = declarations[type.key] { return declaration }
        if type.isDynamic, let specification = DynamicTypeSpecification(decoding: type) {
            return TypeDeclaration(
                identifier: type, conformsTo: specification.conformsTo,
                filenameExtensions: specification.filenameExtensions, mimeTypes: specification.mimeTypes,
                source: .dynamic)
        }
        return nil
    }

    /// Whether the system or a loaded bundle declares the type. Dynamic types are not declared.
    public func isDeclared(_ type: UniformTypeIdentifier) -> Bool {
        declarations[type.key] != nil
    }

    /// Every declared type, in registration order (the system table first).
    public var allDeclarations: [TypeDeclaration] {
        order.compactMap { declarations[$0] }
    }

    /// The declared spelling of a type, when it is declared; otherwise `type` itself.
    public func canonical(_ type: UniformTypeIdentifier) -> UniformTypeIdentifier {
        declarations[type.key]?.identifier ?? type
    }

    // MARK: - Conformance

    /// Whether `type` is `target` or directly or indirectly conforms to it.
    ///
    /// Reflexive (so an undeclared identifier conforms to itself and nothing else), transitive
    /// over all parents, case-insensitive. A `dyn.` type conforms to the supertypes it encodes
    /// and their ancestors. For declared types this is two hash lookups without allocation when
    /// the identifiers are lower-case ASCII.
    public func conforms(_ type: UniformTypeIdentifier, to target: UniformTypeIdentifier) -> Bool {
        if type.key == target.key { return true }
        if let closure = closures[type.key] { return closure.contains(target.key) }
        if type.isDynamic, let specification = DynamicTypeSpecification(decoding: type) {
            return specification.conformsTo.contains { conforms($0, to: target) }
        }
        return false
    }

    /// A precompiled conformance test for one target: the returned function answers
    /// `conforms(UniformTypeIdentifier(text), to: target)` with one hash lookup for declared
    /// types, without building an identifier or allocating when `text` is lower-case ASCII.
    public func conformanceChecker(to target: UniformTypeIdentifier) -> @Sendable (String) -> Bool {
        let targetKey = target.key
        var accepted: Set<String> = [targetKey]
        for (key, closure) in closures where closure.contains(targetKey) {
            accepted.insert(key)
        }
        let registry = self
        return { [accepted] text in
            let key = UniformTypeIdentifier.lowercasedKey(text)
            if accepted.contains(key) { return true }
            guard key.hasPrefix("dyn."), registry.declarations[key] == nil else { return false }
            return registry.conforms(UniformTypeIdentifier(key), to: target)
        }
    }

    /// Every type `type` conforms to, not including itself, in a stable order: depth-first
    /// through the declared parents in declared order (the order Apple searches for inherited
    /// properties), each type once. Empty for an undeclared identifier.
    public func supertypes(of type: UniformTypeIdentifier) -> [UniformTypeIdentifier] {
        var result: [UniformTypeIdentifier] = []
        var seen: Set<String> = [type.key]
        func visit(_ current: UniformTypeIdentifier) {
            for parent in parents(of: current) where seen.insert(parent.key).inserted {
                result.append(canonical(parent))
                visit(parent)
            }
        }
        visit(type)
        return result
    }

    /// The shortest chain of direct conformances from `type` to `target` (both included), or nil
    /// when `type` does not conform to `target`. `[type]` when they are equal.
    public func conformancePath(from type: UniformTypeIdentifier, to target: UniformTypeIdentifier)
        -> [UniformTypeIdentifier]?
    {
        if type == target { return [canonical(type)] }
        var previous: [String: UniformTypeIdentifier] = [:]
        var queue: [UniformTypeIdentifier] = [type]
        var seen: Set<String> = [type.key]
        var index = 0
        while index < queue.count {
            let current = queue[index]
            index += 1
            for parent in parents(of: current) where seen.insert(parent.key).inserted {
                previous[parent.key] = current
                if parent == target {
                    var path = [canonical(parent)]
                    var step = current
                    while step != type, let before = previous[step.key] {
                        path.append(canonical(step))
                        step = before
                    }
                    path.append(canonical(type))
                    return path.reversed()
                }
                queue.append(parent)
            }
        }
        return nil
    }

    /// Every declared type that conforms to `target` (including `target` itself when declared),
    /// in registration order.
    public func declarations(conformingTo target: UniformTypeIdentifier) -> [TypeDeclaration] {
        order.compactMap { key in
            guard let closure = closures[key], closure.contains(target.key) else { return nil }
            return declarations[key]
        }
    }

    /// The direct parents of a declared or dynamic type; empty for an undeclared identifier.
    func parents(of type: UniformTypeIdentifier) -> [UniformTypeIdentifier] {
        if let declaration = declarations[type.key] { return declaration.conformsTo }
        if type.isDynamic, let specification = DynamicTypeSpecification(decoding: type) {
            return specification.conformsTo
        }
        return []
    }

    // MARK: - Building

    /// Replaces (or adds) a declaration, keeping the registration position of an existing one.
    /// Call ``rebuildIndexes()`` afterwards.
    mutating func store(_ declaration: TypeDeclaration) {
        let key = declaration.identifier.key
        if declarations.updateValue(declaration, forKey: key) == nil { order.append(key) }
    }

    /// Recomputes the supertype closures and the tag indexes from the declarations.
    mutating func rebuildIndexes() {
        var closures: [String: Set<String>] = [:]
        closures.reserveCapacity(order.count)
        for key in order {
            guard let declaration = declarations[key] else { continue }
            var closure: Set<String> = [key]
            var stack = declaration.conformsTo
            while let parent = stack.popLast() {
                guard closure.insert(parent.key).inserted else { continue }
                stack.append(contentsOf: parents(of: parent))
            }
            closures[key] = closure
        }
        self.closures = closures

        var extensionIndex: [String: [String]] = [:]
        var mimeIndex: [String: [String]] = [:]
        // Preference: public types before the others, then registration order (H-old: "public
        // types win over non-public ones"; between two of the same kind Apple's choice is
        // undefined, and exthost takes the one registered first).
        let preferenceOrder = order.filter { $0.hasPrefix("public.") } + order.filter { !$0.hasPrefix("public.") }
        for key in preferenceOrder {
            guard let declaration = declarations[key] else { continue }
            for tag in Set(declaration.filenameExtensions.map { $0.lowercased() }) {
                extensionIndex[tag, default: []].append(key)
            }
            for tag in Set(declaration.mimeTypes.map { $0.lowercased() }) {
                mimeIndex[tag, default: []].append(key)
            }
        }
        self.extensionIndex = extensionIndex
        self.mimeIndex = mimeIndex
    }
}
